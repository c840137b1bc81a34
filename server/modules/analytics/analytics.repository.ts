// The analytics queries. Every aggregation runs in SQL over the user's own connections (the user id is in every
// WHERE clause, so another user's rows cannot appear), using the (connection, date) indexes of the metric tables.
import { type SQL, sql } from 'drizzle-orm';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { type Database, queryRows, sqlList } from '../../db/client.ts';
import { derivationRows } from '../../db/derived-metrics.ts';
import { completeThroughOf } from '../../db/freshness.ts';
import { connectionScope, engagementBase, FOLLOWER_TYPES, type Period, platformOrder, pledgesOverDays } from './analytics-sql.ts';
import { comparedTotals } from './comparison.repository.ts';

export { FOLLOWER_TYPES, type Period } from './analytics-sql.ts';
export type { ComparedConnection, ComparedFigure, ComparisonRow, ShortenedConnection } from './comparison.repository.ts';

/** Account metric types that are engagements; `engagements` itself, where a platform reports it, wins over the sum. */
export const ENGAGEMENT_PARTS = ['likes', 'reactions', 'comments', 'shares'] as const;
/** What the engagement rate divides by: views, or impressions where a platform reports impressions (LinkedIn, X). */
export const VIEW_TYPES = ['views', 'impressions'] as const;

export interface AnalyticsFilter {
  userId: number;
  startDate: string;
  endDate: string;
  /** Lowercase platform key, or undefined for all. */
  platform?: string | undefined;
  metricType?: string | undefined;
}

/** The connections and range of a period's totals (the metric type never narrows the cards). */
export type TotalsFilter = Omit<AnalyticsFilter, 'metricType'>;

const METRIC_ORDER = ['followers', 'subscribers', 'views', 'likes', 'comments', 'shares'];

/** Each of the user's connections with the latest day in the range that has content counters (an index lookup each). */
const latestContentDays = (filter: AnalyticsFilter) => sql`select c.id as connection_id, c.platform,
    (select max(cm.as_of) from content_metrics cm where cm.connection_id = c.id and cm.as_of between ${filter.startDate} and ${filter.endDate}) as day
  from platform_connections c where ${connectionScope(filter)}`;

// A connection's figures of one day (views, impressions, engagements, revenue, follower totals) are read from
// account_metric_days, kept by triggers on account_metrics (migration 0022, decision 027): a year of a connection is
// 365 rows there instead of every metric of every day. Its engagements are the platform's own `engagements` where it
// reports them, else likes + reactions + comments + shares; its followers the sum of FOLLOWER_TYPES.

/** Whether the types are all of FOLLOWER_TYPES, the sum account_metric_days holds. */
const allFollowerTypes = (types: readonly string[]) => types.length === FOLLOWER_TYPES.length && FOLLOWER_TYPES.every((type) => types.includes(type));

type CardTotalsRow = { followers: number; connections: number; views: number; impressions: number; engagements: number; engaged_views: number; revenue: number };

/**
 * The cards' figures over [startDate, endDate] for the connections of the scope: views, impressions, engagements and
 * what they are measured against, and YouTube revenue; followers either each connection's latest total in the period
 * (else its profile count) or the profile counts as they stand.
 */
function cardTotalsQuery(scope: Pick<AnalyticsFilter, 'userId' | 'platform'>, startDate: string, endDate: string, followers: 'latestInPeriod' | 'profile') {
  const followerTotal =
    followers === 'profile'
      ? sql`(select coalesce(sum(followers), 0) from mine)`
      : sql`(select coalesce(sum(coalesce(latest.value, mine.followers)), 0) from mine left join lateral (
          select m.value from account_metrics m
          where m.connection_id = mine.id and m.metric_type in (${sqlList(FOLLOWER_TYPES)}) and m.date between ${startDate} and ${endDate}
          order by m.date desc limit 1
        ) latest on true)`;
  return sql`with mine as (select c.id, c.platform, c.followers from platform_connections c where ${connectionScope(scope)}),
    per_day as (
      select d.connection_id, mine.platform, d.date, d.views, d.impressions, d.engagements, d.revenue
      from account_metric_days d join mine on mine.id = d.connection_id
      where d.date between ${startDate} and ${endDate}
    ),
    per_connection as (
      select connection_id, sum(views) as views, sum(impressions) as impressions, sum(engagements) as engagements, sum(revenue) as revenue,
        -- What this connection's engagements are measured against: impressions on LinkedIn and X, else its views,
        -- else its impressions.
        ${engagementBase(sql`platform`, sql`sum(views)`, sql`sum(impressions)`)} as reach
      from per_day group by connection_id, platform
    )
    select
      ${followerTotal}::float8 as followers,
      (select count(*) from mine)::int as connections,
      coalesce((select sum(views) from per_connection), 0)::float8 as views,
      coalesce((select sum(impressions) from per_connection), 0)::float8 as impressions,
      coalesce((select sum(engagements) from per_connection where reach > 0), 0)::float8 as engagements,
      coalesce((select sum(reach) from per_connection where reach > 0 and engagements is not null), 0)::float8 as engaged_views,
      coalesce((select sum(revenue) from per_connection), 0)::float8 as revenue`;
}

export type ConnectionDayValue = { connection_id: number; date: string; value: number };

/**
 * The sum over connections of each day's figure, a connection without one that day counting with its last one (a
 * missing day is not a loss of followers), from the first day on which every connection's history has begun (a
 * platform joining mid-range would otherwise make the total jump). Rows in date order; only days with a figure.
 */
export function carriedForwardTotals(rows: readonly ConnectionDayValue[]): { date: string; value: number }[] {
  const firstDays = new Map<number, string>();
  for (const row of rows) if (!firstDays.has(row.connection_id)) firstDays.set(row.connection_id, row.date);
  let since = '';
  for (const day of firstDays.values()) if (day > since) since = day;
  const latest = new Map<number, number>();
  const totals: { date: string; value: number }[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]!;
    latest.set(row.connection_id, row.value);
    const lastOfDay = rows[index + 1]?.date !== row.date;
    if (lastOfDay && row.date >= since) {
      let value = 0;
      for (const figure of latest.values()) value += figure;
      totals.push({ date: row.date, value });
    }
  }
  return totals;
}

type MetricRecordRow = { id: string; metric_type: string; date: string; value: number; platform: string; content_title: string | null };

/**
 * The records of the analytics table: account records from `since` to the filter's end, and content records, each
 * item's counters as read on its connection's latest sync day in the range (one record per item and metric, not one
 * per day: a day's counters are lifetime totals, not that day's). `src` 0 account, 1 content.
 */
function recordsOf(filter: AnalyticsFilter, since: string) {
  const typeA = filter.metricType ? sql` and m.metric_type = ${filter.metricType}` : sql``;
  const typeC = filter.metricType ? sql` and cm.metric_type = ${filter.metricType}` : sql``;
  return sql`select 0 as src, m.id, m.metric_type, m.date, m.value, c.platform, null::int as item
      from account_metrics m join platform_connections c on c.id = m.connection_id
      where ${connectionScope(filter)} and m.date between ${since} and ${filter.endDate}${typeA}
    union all
    select 1, cm.id, cm.metric_type, cm.as_of, cm.value, d.platform, cm.content_item_id
      from (${latestContentDays(filter)}) d join content_metrics cm on cm.connection_id = d.connection_id and cm.as_of = d.day
      where true${typeC}`;
}

/**
 * One sorted page of records (newest first; on a day account before content, then by id), titles joined for the
 * page's rows only; with `total`, every record counted in the same pass.
 */
const recordsPage = (records: SQL, limit: number, offset: number, { total = false } = {}) => sql`with page as (
    select r.*${total ? sql`, count(*) over () as total` : sql``} from (${records}) r order by r.date desc, r.src, r.id limit ${limit} offset ${offset}
  )
  select case page.src when 0 then 'a' else 'c' end || page.id as id, page.metric_type, page.date::text as date, page.value, page.platform,
    ci.title as content_title${total ? sql`, page.total::text as total` : sql``}
  from page left join content_items ci on ci.id = page.item
  order by page.date desc, page.src, page.id`;

/** The periods as rows w(side, start_date, end_date), side being the period's index. */
const periodWindows = (periods: readonly Period[]) =>
  sql`(values ${sql.join(
    periods.map((period, side) => sql`(${side}::int, ${period.startDate}::date, ${period.endDate}::date)`),
    sql`, `,
  )}) as w(side, start_date, end_date)`;

export type ConnectionDayFigures = {
  connection_id: number;
  platform: string;
  side: number;
  date: string;
  views: number | null;
  impressions: number | null;
  engagements: number | null;
  reach: number | null;
};

export function createAnalyticsRepository(db: Database) {
  /** Each connection's follower figure per day in the range (the sum of `types` that day), in date order. */
  async function followerDays(filter: AnalyticsFilter, types: readonly string[]) {
    if (types.length === 0) return [];
    const perConnection = allFollowerTypes(types)
      ? sql`select d.connection_id, c.platform, d.date, d.followers as value
          from account_metric_days d join platform_connections c on c.id = d.connection_id
          where ${connectionScope(filter)} and d.date between ${filter.startDate} and ${filter.endDate} and d.followers is not null`
      : sql`select m.connection_id, c.platform, m.date, sum(m.value) as value
          from account_metrics m join platform_connections c on c.id = m.connection_id
          where ${connectionScope(filter)} and m.date between ${filter.startDate} and ${filter.endDate} and m.metric_type in (${sqlList(types)})
          group by m.connection_id, c.platform, m.date`;
    // Sorted on the date itself: the text form sorts by collation, several times slower.
    return queryRows<ConnectionDayValue & { platform: string }>(
      db,
      sql`select p.connection_id, p.platform, p.date::text as date, p.value::float8 as value from (${perConnection}) p order by p.date, p.connection_id`,
    );
  }

  /**
   * A page of every record type: counted from account_metric_days (records per day) and the content records, and
   * read from the newest day that still leaves `offset + limit` account records: an account record of an older day
   * has at least that many records before it, so it cannot be on the page, and the sort never sees it.
   */
  async function unfilteredMetricsPage(filter: AnalyticsFilter, limit: number, offset: number) {
    const [counts] = await queryRows<{ account_records: string; since: string | null; content_records: string }>(
      db,
      sql`with per_date as (
          select d.date, sum(d.records) as records
          from account_metric_days d join platform_connections c on c.id = d.connection_id
          where ${connectionScope(filter)} and d.date between ${filter.startDate} and ${filter.endDate}
          group by d.date
        ),
        newest_first as (select date, sum(records) over (order by date desc) as through_here from per_date)
        select (select coalesce(sum(records), 0) from per_date)::text as account_records,
          (select max(date) from newest_first where through_here >= ${offset + limit})::text as since,
          (select count(*) from (${latestContentDays(filter)}) d join content_metrics cm on cm.connection_id = d.connection_id and cm.as_of = d.day)::text as content_records`,
    );
    const total = Number(counts?.account_records ?? 0) + Number(counts?.content_records ?? 0);
    if (offset >= total) return { rows: [], total };
    const rows = await queryRows<MetricRecordRow>(db, recordsPage(recordsOf(filter, counts?.since ?? filter.startDate), limit, offset));
    return { rows, total };
  }

  return {
    /** One page of records, newest first (date, source, integer id), and the number of records. */
    async metricsPage(filter: AnalyticsFilter, limit: number, offset: number) {
      if (!filter.metricType) return unfilteredMetricsPage(filter, limit, offset);
      // One metric type: a few rows a day, counted in the same pass as the page is sorted.
      const records = recordsOf(filter, filter.startDate);
      const rows = await queryRows<MetricRecordRow & { total: string }>(db, recordsPage(records, limit, offset, { total: true }));
      if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
      // A page past the end: count without fetching.
      const [counted] = await queryRows<{ total: string }>(db, sql`select count(*)::text as total from (${records}) r`);
      return { rows, total: Number(counted?.total ?? 0) };
    },

    /**
     * Follower totals per day, showing no change that did not happen: the total starts on the first day every
     * connection's history in the range has begun (a platform joining mid-range would otherwise make it jump), and a
     * connection without a row on a later day counts with its last known total (YouTube's figures lag two or three
     * days; a missing day is not a loss of followers).
     */
    async followersOverTime(filter: AnalyticsFilter, types: readonly string[]) {
      return carriedForwardTotals(await followerDays(filter, types));
    },

    /** Each connection's follower figure per day in the range (the rows of followersOverTime), in date order. */
    followerDays,

    /**
     * Each connection's figures per day from account_metric_days over the periods (`side` is the period's index):
     * views, impressions, engagements, and what its engagements are measured against that day (engagementBase; null
     * without engagements). One query for every period, in date order.
     */
    dayFigures(filter: Pick<AnalyticsFilter, 'userId' | 'platform'>, periods: readonly Period[]) {
      if (periods.length === 0) return Promise.resolve([]);
      return queryRows<ConnectionDayFigures>(
        db,
        sql`select c.id as connection_id, c.platform, w.side, d.date::text as date, d.views::float8 as views, d.impressions::float8 as impressions,
            d.engagements::float8 as engagements,
            case when d.engagements is not null then ${engagementBase(sql`c.platform`, sql`d.views`, sql`d.impressions`)} end::float8 as reach
          from platform_connections c
          join ${periodWindows(periods)} on true
          -- Each window read on its own through the primary key: as a plain join the planner read every day of the
          -- connection and filtered by the windows afterwards, work that grew with the years held. (offset 0 keeps
          -- the planner from folding the lateral read back into that join.)
          cross join lateral (
            select x.date, x.views, x.impressions, x.engagements from account_metric_days x
            where x.connection_id = c.id and x.date between w.start_date and w.end_date offset 0
          ) d
          where ${connectionScope(filter)}
          order by w.side, d.date, c.id`,
      );
    },

    /** Each connection's value of one metric type per day over the periods (`side` is the period's index), in date order. */
    typeDays(filter: Pick<AnalyticsFilter, 'userId' | 'platform'>, metricType: string, periods: readonly Period[]) {
      if (periods.length === 0) return Promise.resolve([]);
      return queryRows<ConnectionDayValue & { platform: string; side: number }>(
        db,
        sql`select m.connection_id, c.platform, w.side, m.date::text as date, m.value::float8 as value
          from platform_connections c
          join ${periodWindows(periods)} on true
          join account_metrics m on m.connection_id = c.id and m.metric_type = ${metricType} and m.date between w.start_date and w.end_date
          where ${connectionScope(filter)}
          order by w.side, m.date, m.connection_id`,
      );
    },

    /**
     * Whether the same connections have follower figures in the filter's range and in the other period: only then do
     * two follower lines count the same accounts.
     */
    async sameFollowerConnections(filter: AnalyticsFilter, other: Period, types: readonly string[]): Promise<boolean> {
      if (types.length === 0) return false;
      const connectionsIn = (period: Period) => sql`select distinct m.connection_id from account_metrics m join platform_connections c on c.id = m.connection_id
        where ${connectionScope(filter)} and m.date between ${period.startDate} and ${period.endDate} and m.metric_type in (${sqlList(types)})`;
      const [row] = await queryRows<{ same: boolean }>(
        db,
        sql`with current_connections as (${connectionsIn(filter)}), other_connections as (${connectionsIn(other)})
          select not exists (
            (select connection_id from current_connections except select connection_id from other_connections)
            union all
            (select connection_id from other_connections except select connection_id from current_connections)
          ) as same`,
      );
      return row?.same === true;
    },

    /** Each connection's first day with a follower figure in the range (where its history begins), earliest first. */
    followerHistoryStarts(filter: AnalyticsFilter, types: readonly string[]) {
      if (types.length === 0) return Promise.resolve([]);
      return queryRows<{ platform: string; account: string | null; start_date: string }>(
        db,
        sql`select c.platform, c.display_name as account, min(m.date)::text as start_date
          from account_metrics m join platform_connections c on c.id = m.connection_id
          where ${connectionScope(filter)} and m.date between ${filter.startDate} and ${filter.endDate} and m.metric_type in (${sqlList(types)})
          group by c.id, c.platform, c.display_name
          order by 3, array_position(array[${sqlList(PLATFORM_NAMES)}]::text[], c.platform), c.id`,
      );
    },

    /** Engagements per day: each connection's `engagements`, else its likes + comments + shares (never both). */
    engagementOverTime(filter: AnalyticsFilter, only?: string) {
      const perConnection = only
        ? sql`select m.date, sum(m.value) as value
            from account_metrics m join platform_connections c on c.id = m.connection_id
            where ${connectionScope(filter)} and m.date between ${filter.startDate} and ${filter.endDate} and m.metric_type = ${only}
            group by m.connection_id, m.date`
        : sql`select d.date, d.engagements as value
            from account_metric_days d join platform_connections c on c.id = d.connection_id
            where ${connectionScope(filter)} and d.date between ${filter.startDate} and ${filter.endDate}`;
      return queryRows<{ date: string; value: number }>(
        db,
        sql`select per_connection.date::text as date, sum(per_connection.value)::float8 as value from (${perConnection}) per_connection
          where per_connection.value is not null group by per_connection.date order by per_connection.date`,
      );
    },

    /** Per platform: each connection's latest follower total in the range (else its profile count), summed. */
    platformFollowers(filter: AnalyticsFilter) {
      return queryRows<{ platform: string; followers: number }>(
        db,
        sql`select c.platform, sum(coalesce(latest.value, c.followers))::float8 as followers
          from platform_connections c
          left join lateral (
            select m.value from account_metrics m
            where m.connection_id = c.id and m.metric_type in (${sqlList(FOLLOWER_TYPES)}) and m.date between ${filter.startDate} and ${filter.endDate}
            order by m.date desc limit 1
          ) latest on true
          where ${connectionScope(filter)}
          group by c.platform`,
      );
    },

    /**
     * The top content by engagement (likes + comments + shares, or the platform's engagements) as read on each
     * connection's latest sync day in the range, whenever it was published (the e-mailed reports' list).
     */
    topContent(filter: AnalyticsFilter, limit: number) {
      return queryRows<{ id: number; title: string; description: string | null; platform: string; url: string | null; engagement: number }>(
        db,
        sql`with days as (${latestContentDays(filter)}), scored as (
            select cm.content_item_id, d.platform,
              coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${sqlList(ENGAGEMENT_PARTS)}))) as engagement
            from days d join content_metrics cm on cm.connection_id = d.connection_id and cm.as_of = d.day
            group by cm.content_item_id, d.platform
          )
          select ci.id, ci.title, ci.description, s.platform, ci.url, s.engagement::float8 as engagement
          from scored s join content_items ci on ci.id = s.content_item_id
          where s.engagement is not null and btrim(ci.title) <> ''
          order by s.engagement desc, ci.id limit ${limit}`,
      );
    },

    /**
     * The top content published in the range (UTC days), by engagement (likes + comments + shares, or the platform's
     * engagements) as read on each connection's latest sync day in the range: what the period's posts have earned so
     * far, not the lifetime counters of every post ever made (the same old posts whatever the period).
     */
    topContentPublished(filter: AnalyticsFilter, limit: number) {
      return queryRows<{ id: number; title: string; description: string | null; platform: string; url: string | null; published_at: string | Date; engagement: number }>(
        db,
        sql`with days as (${latestContentDays(filter)}),
          published as (
            select ci.id, ci.title, ci.description, ci.url, ci.published_at, d.platform, d.day
            from days d join content_items ci on ci.connection_id = d.connection_id
            where d.day is not null and btrim(ci.title) <> ''
              and ci.published_at >= (${filter.startDate}::date)::timestamp at time zone 'UTC'
              and ci.published_at < (${filter.endDate}::date + 1)::timestamp at time zone 'UTC'
          ),
          scored as (
            -- Each published item's counters of its connection's latest day, by the (item, type, day) key: a lookup per
            -- item whatever the planner guesses (PGlite never analyzes its tables, and a guess of one row per side
            -- once made this a nested loop over every counter of the day times every item, 0.7 s for two personas).
            select p.id, coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${sqlList(ENGAGEMENT_PARTS)}))) as engagement
            from published p join content_metrics cm on cm.content_item_id = p.id and cm.as_of = p.day
            group by p.id
          )
          select p.id, p.title, p.description, p.platform, p.url, p.published_at, s.engagement::float8 as engagement
          from scored s join published p on p.id = s.id
          where s.engagement is not null
          order by s.engagement desc, p.id limit ${limit}`,
      );
    },

    /** Metric types present in the user's data (account or content), from the spans the writes keep (migration 0033). */
    async metricTypes(userId: number): Promise<string[]> {
      const rows = await queryRows<{ metric_type: string }>(
        db,
        sql`select distinct s.metric_type from platform_connections c join metric_spans s on s.connection_id = c.id
          where c.user_id = ${userId} and c.is_active order by 1`,
      );
      return rows.map((row) => row.metric_type);
    },

    /**
     * The account series of the filter that we derived (server/db/derived-metrics.ts), per platform, metric and
     * method, with the first and last day holding such values.
     */
    async derivedSeries(filter: AnalyticsFilter) {
      // Per connection and derivable series, its first and last day in the range: two index lookups each.
      return queryRows<{ platform: string; metric_type: string; method: string; start_date: string; end_date: string }>(
        db,
        sql`select c.platform, t.metric_type, t.method, min(r.first_day)::text as start_date, max(r.last_day)::text as end_date
          from platform_connections c
          join ${derivationRows()} as t(platform, metric_type, method, before_connection) on t.platform = c.platform
          cross join lateral (
            select min(m.date) as first_day, max(m.date) as last_day from account_metrics m
            where m.connection_id = c.id and m.metric_type = t.metric_type and m.date >= ${filter.startDate}
              and m.date <= case when t.before_connection then least(${filter.endDate}::date, (c.connected_at at time zone 'UTC')::date - 1) else ${filter.endDate}::date end
          ) r
          where ${connectionScope(filter)} and r.first_day is not null${filter.metricType ? sql` and t.metric_type = ${filter.metricType}` : sql``}
          group by c.platform, t.metric_type, t.method
          order by array_position(array[${sqlList(PLATFORM_NAMES)}]::text[], c.platform), array_position(array[${sqlList(METRIC_ORDER)}]::text[], t.metric_type)`,
      );
    },

    /**
     * The cards' figures over a period (contract periodTotals): each connection's latest follower total in the period
     * (else its profile count), views, impressions, engagements and what they are measured against, and YouTube
     * revenue. Patreon pledges come from pledgesByCurrency.
     */
    async periodTotals(filter: TotalsFilter) {
      const [row] = await queryRows<CardTotalsRow>(db, cardTotalsQuery(filter, filter.startDate, filter.endDate, 'latestInPeriod'));
      return row!;
    },

    /** The cards' figures of two periods, like with like (comparison.repository.ts). */
    comparedTotals(filter: Pick<AnalyticsFilter, 'userId' | 'platform'>, current: Period, comparison: Period) {
      return comparedTotals(db, filter, current, comparison);
    },

    /** Per platform of the filter: the oldest last sync and last complete day of its active connections. */
    freshness(filter: Pick<AnalyticsFilter, 'userId' | 'platform'>) {
      return queryRows<{ platform: string; synced_at: string | Date | null; complete_through: string | null }>(
        db,
        sql`select c.platform,
            case when bool_or(c.last_synced_at is null) then null else min(c.last_synced_at) end as synced_at,
            case when bool_or(t.through is null) then null else min(t.through)::text end as complete_through
          from platform_connections c cross join lateral (select ${completeThroughOf('c')} as through) t
          where ${connectionScope(filter)}
          group by c.platform
          order by ${platformOrder(sql`c.platform`)}`,
      );
    },

    /** Totals of the e-mailed reports over [startDate, endDate]: the cards' figures, followers as the profiles count them now. */
    async summary(userId: number, startDate: string, endDate: string) {
      const [row] = await queryRows<CardTotalsRow>(db, cardTotalsQuery({ userId }, startDate, endDate, 'profile'));
      return row!;
    },

    /**
     * Each Patreon campaign's pledges over [startDate, endDate], summed per currency: each day its monthly level as
     * last read on or before the day, over the days of the day's month (the income view's rule, income-maths.ts
     * pledgeForDay), so 'the last 30 days' are the same days and the same amount on every screen; days before a
     * campaign's first reading count nothing. `monthly`: the latest level up to endDate. The currency is the
     * connection's, as Patreon named it or the creator chose it (null: neither did); amounts of different currencies
     * are never added together.
     */
    async pledgesByCurrency(filter: Pick<AnalyticsFilter, 'userId' | 'platform' | 'startDate' | 'endDate'>) {
      return queryRows<{ currency: string | null; amount: number; monthly: number; connections: number }>(
        db,
        sql`select c.currency, coalesce(sum(p.amount), 0)::float8 as amount, sum(latest.value)::float8 as monthly, count(*)::int as connections
          from platform_connections c
          cross join lateral (select m.value from account_metrics m
            where m.connection_id = c.id and m.metric_type = 'monthly_pledges' and m.date <= ${filter.endDate} order by m.date desc limit 1) latest
          cross join lateral (select ${pledgesOverDays(sql`c.id`, sql`${filter.startDate}`, sql`${filter.endDate}`)} as amount) p
          where ${connectionScope(filter)}
          group by c.currency order by c.currency nulls last`,
      );
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
