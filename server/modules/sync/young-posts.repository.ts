// The young-post poll's database side (decision 018): which connections are due, their posts under 7 days old (or,
// where every read is billed, their posts that reached one of the fixed read ages), and one transaction storing a
// read: each counter with its moment in content_metric_reads, today's content_metrics brought up to date, and the
// connection's last read time.
import { type SQL, lt, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { QuotaSharing } from '../quota/quota-sharing.ts';
import { contentMetricReads } from '../../db/schema.ts';
import { dayOf } from '../../lib/dates.ts';
import { notifyConnectionOwner } from '../../lib/event-bus.ts';
import { storeDailyFromContentGrowth } from './sync.repository.ts';

/** Posts published within this many days are young: their counters are read between syncs. */
export const YOUNG_POST_DAYS = 7;
/** Timed reads are kept this long: past the 28-day age no benchmark uses them (with a week to spare). */
export const CONTENT_METRIC_READS_DAYS = 35;
const DAY_MS = 86_400_000;

export interface YoungPost {
  id: number;
  platformContentId: string;
}

/** The platforms read at fixed ages (provider.readAgesHours), each with its ages in hours. */
export type AgedPlatforms = ReadonlyMap<string, readonly number[]>;

/**
 * SQL: whether the content item aliased `ci` is due for a read at one of `agesHours`: it has reached that age, and
 * no read of it was made at or after it (a sync that first read it late counts, its read being timed too). A post
 * past its last age by more than a day is never due: a read missed for that long is not made up.
 */
function dueAtAge(agesHours: readonly number[], now: Date): SQL {
  const last = Math.max(...agesHours) + 24;
  return sql`ci.published_at > ${now.toISOString()}::timestamptz - make_interval(hours => ${last}::int)
    and exists (select 1 from unnest(array[${sql.join(agesHours.map((hours) => sql`${hours}::int`), sql`, `)}]) as age(hours)
      where ci.published_at + make_interval(hours => age.hours) <= ${now.toISOString()}::timestamptz
        and not exists (select 1 from content_metric_reads r where r.content_item_id = ci.id and r.read_at >= ci.published_at + make_interval(hours => age.hours)))`;
}

export function createYoungPostsRepository(db: Database, ownerHasAccess?: OwnerHasAccess, quotaSharing?: QuotaSharing) {
  return {
    /**
     * Connections whose young posts are due for a read: active, not waiting for the user (reconnect, a stopped sync),
     * on one of `platforms` (those with a by-id read), holding a post published in the last 7 days, and not read
     * since `readBefore`. Manual connections have no token and no posts. With `quotaSharing`, YouTube reads that
     * must wait for the day's quota to reset are left out (every young-post read is a refresh).
     */
    async dueConnections(now: Date, readBefore: Date, platforms: readonly string[], limit: number, aged: AgedPlatforms = new Map()): Promise<number[]> {
      if (platforms.length === 0) return [];
      const since = new Date(now.getTime() - YOUNG_POST_DAYS * DAY_MS).toISOString();
      const young = platforms.filter((platform) => !aged.has(platform));
      const postDue = [
        ...(young.length > 0
          ? [sql`(c.platform in (${sql.join(young.map((platform) => sql`${platform}`), sql`, `)}) and exists (select 1 from content_items ci where ci.connection_id = c.id
              and ci.published_at > ${since}::timestamptz and ci.published_at <= ${now.toISOString()}::timestamptz))`]
          : []),
        ...[...aged].filter(([platform]) => platforms.includes(platform)).map(([platform, ages]) => sql`(c.platform = ${platform} and exists (select 1 from content_items ci where ci.connection_id = c.id and ${dueAtAge(ages, now)}))`),
      ];
      if (postDue.length === 0) return [];
      const rows = await queryRows<{ id: number }>(
        db,
        sql`select c.id from platform_connections c
          left join sync_states s on s.connection_id = c.id
          where c.is_active and not c.needs_reconnect and not c.manual
            ${ownerHasAccess ? sql`and ${ownerHasAccess(sql`c.user_id`, now)}` : sql``}
            ${quotaSharing ? sql`and ${quotaSharing.mayRead({ platform: sql`c.platform`, userId: sql`c.user_id`, firstSync: sql`false` }, now)}` : sql``}
            and c.platform in (${sql.join(platforms.map((platform) => sql`${platform}`), sql`, `)})
            and coalesce(s.status, 'idle') <> 'failed'
            and (s.young_posts_read_at is null or s.young_posts_read_at <= ${readBefore.toISOString()}::timestamptz)
            and (${sql.join(postDue, sql` or `)})
          order by c.id limit ${limit}`,
      );
      return rows.map((row) => row.id);
    },

    /** The connection's posts published in the last 7 days, newest first. */
    youngPosts(connectionId: number, now: Date): Promise<YoungPost[]> {
      const since = new Date(now.getTime() - YOUNG_POST_DAYS * DAY_MS).toISOString();
      return queryRows<YoungPost>(
        db,
        sql`select id, platform_content_id as "platformContentId" from content_items
          where connection_id = ${connectionId} and published_at > ${since}::timestamptz and published_at <= ${now.toISOString()}::timestamptz
          order by published_at desc, id desc`,
      );
    },

    /** The connection's posts due for a read at one of `agesHours` (see dueAtAge), newest first. */
    postsDueAtAges(connectionId: number, now: Date, agesHours: readonly number[]): Promise<YoungPost[]> {
      return queryRows<YoungPost>(
        db,
        sql`select ci.id, ci.platform_content_id as "platformContentId" from content_items ci
          where ci.connection_id = ${connectionId} and ${dueAtAge(agesHours, now)}
          order by ci.published_at desc, ci.id desc`,
      );
    },

    /**
     * Stores one read of the connection's young posts at `now` and records the read (also when nothing was read: a
     * failed read waits for the next turn rather than hammering the platform). Today's content_metrics rows are
     * updated, never created: a day's first snapshot is the sync's, so the lifetime-counter platforms' daily values
     * (derived from one day's snapshot of every post against the day before's) never rest on a partial day.
     * `snapshot`: the read is the day's snapshot of these posts (a platform read at fixed ages, whose syncs do not
     * read them again): today's rows are created, and the day's figures grown from the counters recomputed.
     */
    async storeRead(connectionId: number, reads: { contentItemId: number; metrics: Partial<Record<string, number>> }[], now: Date, { snapshot = false } = {}): Promise<number> {
      const rows = reads.flatMap(({ contentItemId, metrics }) =>
        Object.entries(metrics).flatMap(([metricType, value]) => (value === undefined || !Number.isFinite(value) ? [] : [{ contentItemId, metricType, readAt: now, value }])),
      );
      return db.transaction(async (tx) => {
        if (rows.length > 0) {
          await tx.insert(contentMetricReads).values(rows).onConflictDoNothing();
          const values = sql.join(rows.map((row) => sql`(${row.contentItemId}::int, ${row.metricType}::text, ${row.value}::float8)`), sql`, `);
          if (snapshot) {
            await tx.execute(sql`insert into content_metrics (content_item_id, connection_id, metric_type, as_of, value)
              select r.content_item_id, ${connectionId}, r.metric_type, ${dayOf(now)}::date, r.value from (values ${values}) as r(content_item_id, metric_type, value)
              on conflict (content_item_id, metric_type, as_of) do update set value = excluded.value`);
            await storeDailyFromContentGrowth(tx, connectionId, dayOf(now), [...new Set(rows.map((row) => row.metricType))]);
            // The day's figures changed: a new row version of the connection makes cached answers stale, and its
            // owner's screens are told once the transaction commits.
            await tx.execute(sql`update platform_connections set updated_at = ${now.toISOString()}::timestamptz where id = ${connectionId}`);
            await tx.execute(notifyConnectionOwner(connectionId, ['analytics-changed']));
          } else {
            await tx.execute(sql`update content_metrics cm set value = r.value
              from (values ${values}) as r(content_item_id, metric_type, value)
              where cm.content_item_id = r.content_item_id and cm.metric_type = r.metric_type and cm.as_of = ${dayOf(now)}::date`);
          }
        }
        await tx.execute(sql`insert into sync_states (connection_id, young_posts_read_at, updated_at) values (${connectionId}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
          on conflict (connection_id) do update set young_posts_read_at = excluded.young_posts_read_at`);
        return rows.length;
      });
    },
  };
}

export type YoungPostsRepository = ReturnType<typeof createYoungPostsRepository>;

/** Housekeeping: timed reads older than CONTENT_METRIC_READS_DAYS. */
export async function pruneContentMetricReads(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - CONTENT_METRIC_READS_DAYS * DAY_MS);
  const rows = await db.delete(contentMetricReads).where(lt(contentMetricReads.readAt, before)).returning({ id: contentMetricReads.contentItemId });
  return rows.length;
}
