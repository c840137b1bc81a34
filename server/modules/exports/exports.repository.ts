// The records of an export, read in slices: the days of the range are grouped into windows of at most one slice
// (planned from a count per day), and each window is read with keyset paging (the next `limit` records after a
// cursor). An export of any size holds one slice in memory, each query reads one window through the (connection,
// date) indexes rather than sorting the rest of the range, and no transaction or connection stays open between
// slices (on PGlite, the one connection the whole app shares).
//
// The records are those of GET /api/analytics `allMetrics` (analytics.repository.ts `metricsPage`), in the same
// order: account metrics, one per day, and each content item's counters as read on its connection's latest sync
// day in the range. exports.test.ts checks that both answer the same records.
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { derivationOf } from '../../db/derived-metrics.ts';

export interface ExportFilter {
  userId: number;
  startDate: string;
  endDate: string;
  /** Lowercase platform key, or undefined for all. */
  platform?: string | undefined;
  metricType?: string | undefined;
}

/** Where the previous slice ended: the sort key (date desc, source, id) of its last record. */
export interface ExportCursor {
  date: string;
  /** 0 for account metrics, 1 for content metrics. */
  source: number;
  id: number;
}

export interface ExportRow {
  source: number;
  id: number;
  date: string;
  platform: string;
  metric_type: string;
  value: number;
  content_title: string | null;
  /** How we derived the value (DERIVATION_METHODS), or null for the platform's own figure. */
  derivation: string | null;
}

/**
 * A run of days read slice by slice: from `from` (inclusive; undefined = the filter's start) up to `before`
 * (exclusive; undefined = through the filter's end). Consecutive windows share their boundary, so together they
 * cover the whole range whatever rows appear while an export runs.
 */
export interface ExportWindow {
  from?: string | undefined;
  before?: string | undefined;
}

// The user id is in every query's WHERE clause: another user's rows cannot appear.
const scopeOf = (filter: ExportFilter) => sql`c.user_id = ${filter.userId} and c.is_active${filter.platform ? sql` and c.platform = ${filter.platform}` : sql``}`;

/** Content records of the filter dated from `from` (and before `before`): each item's counters on its connection's latest day. */
function contentRecords(filter: ExportFilter, scope: SQL, from: string, before?: string) {
  const typeC = filter.metricType ? sql` and cm.metric_type = ${filter.metricType}` : sql``;
  const beforeC = before ? sql` and d.day < ${before}` : sql``;
  return sql`select 1 as src, cm.id, cm.metric_type, cm.as_of as date, cm.value, d.platform, cm.content_item_id as item, null::text as derivation
      from (
        -- Each connection's latest day with content counters in the whole range (not the window's).
        select c.id as connection_id, c.platform,
          (select max(x.as_of) from content_metrics x where x.connection_id = c.id and x.as_of between ${filter.startDate} and ${filter.endDate}) as day
        from platform_connections c where ${scope}
      ) d join content_metrics cm on cm.connection_id = d.connection_id and cm.as_of = d.day
      where d.day >= ${from}${beforeC}${typeC}`;
}

/** Account and content records of the filter inside `window` (all of the range when undefined). */
function recordsQuery(filter: ExportFilter, window: ExportWindow = {}) {
  const scope = scopeOf(filter);
  const typeA = filter.metricType ? sql` and m.metric_type = ${filter.metricType}` : sql``;
  const from = window.from ?? filter.startDate;
  const beforeA = window.before ? sql` and m.date < ${window.before}` : sql``;
  return sql`select 0 as src, m.id, m.metric_type, m.date, m.value, c.platform, null::int as item, ${derivationOf('m', 'c')} as derivation
      from account_metrics m join platform_connections c on c.id = m.connection_id
      where ${scope} and m.date between ${from} and ${filter.endDate}${beforeA}${typeA}
    union all
    ${contentRecords(filter, scope, from, window.before)}`;
}

export function createExportsRepository(db: Database) {
  return {
    /**
     * How many records each day holds, newest first: at most one row per day of the range, so the export can
     * plan windows of at most one slice each and read every window with an index range scan instead of sorting
     * what is left of the range for every slice.
     */
    recordCountsByDate(filter: ExportFilter): Promise<{ date: string; count: number }[]> {
      if (filter.metricType) {
        return queryRows(db, sql`select r.date::text as date, count(*)::int as count from (${recordsQuery(filter)}) r group by r.date order by r.date desc`);
      }
      // Every metric type: each day's account records as account_metric_days counts them (migration 0022), and
      // the content records, without reading the account rows twice.
      const scope = scopeOf(filter);
      return queryRows(
        db,
        sql`select r.date::text as date, sum(r.count)::int as count from (
            select d.date, d.records as count from account_metric_days d join platform_connections c on c.id = d.connection_id
              where ${scope} and d.date between ${filter.startDate} and ${filter.endDate}
            union all
            select r.date, count(*) from (${contentRecords(filter, scope, filter.startDate)}) r group by r.date
          ) r group by r.date order by r.date desc`,
      );
    },

    /** The next `limit` records of `window` after `after` (from the window's newest when undefined), newest first. */
    recordsAfter(filter: ExportFilter, window: ExportWindow, after: ExportCursor | undefined, limit: number): Promise<ExportRow[]> {
      const keyset = after
        ? sql`where r.date < ${after.date}::date or (r.date = ${after.date}::date and (r.src > ${after.source} or (r.src = ${after.source} and r.id > ${after.id})))`
        : sql``;
      return queryRows<ExportRow>(
        db,
        sql`select r.src as source, r.id, r.date::text as date, r.platform, r.metric_type, r.value, ci.title as content_title, r.derivation
          from (${recordsQuery(filter, window)}) r
          left join content_items ci on ci.id = r.item
          ${keyset}
          order by r.date desc, r.src, r.id
          limit ${limit}`,
      );
    },
  };
}

/**
 * Splits days (newest first, with their record counts) into windows of at most `size` records each, so a window is
 * read in one slice (a day is never split; a day larger than `size` is a window of its own, read in several slices).
 */
export function planWindows(counts: readonly { date: string; count: number }[], size: number): ExportWindow[] {
  const windows: ExportWindow[] = [];
  let before: string | undefined;
  let collected = 0;
  let oldestCollected: string | undefined;
  for (const day of counts) {
    if (collected > 0 && collected + day.count > size) {
      windows.push({ from: oldestCollected, before });
      before = oldestCollected;
      collected = 0;
    }
    collected += day.count;
    oldestCollected = day.date;
  }
  // The rest of the range, down to its first day.
  windows.push({ from: undefined, before });
  return windows;
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;
