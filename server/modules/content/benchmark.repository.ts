// Posts' counts at fixed ages, in one query (decision 014); benchmark-samples.ts sets each beside the same creator's
// other posts of the same platform. Points of a post's count over time: the publishing moment at 0, YouTube's early-view curve
// (exact daily views) where it reaches, otherwise the young-post poll's timed reads (decision 018) and the daily
// snapshots of content_metrics on days without them. A count at an age is
// interpolated between the two points around that moment and never extrapolated past the last one.
import { sql } from 'drizzle-orm';
import { BENCHMARK_AGES, type BenchmarkAge } from '#contract/benchmark.ts';
import { type Database, queryRows } from '../../db/client.ts';

/** The widest gap between two points a count is interpolated over: one missed daily read still counts. */
export const MAX_INTERPOLATION_GAP_HOURS = 48;

/** Engagements as the analytics cards count them: the platform's own total, else the sum of these parts. */
export const ENGAGEMENT_PARTS = ['likes', 'reactions', 'comments', 'shares'];

export type BenchmarkMetric = 'views' | 'engagements';


/** A post of the user as the benchmark needs it: its platform and publishing moment. */
export interface BenchmarkedItem {
  id: number;
  platform: string;
  publishedAt: Date | null;
}

/** Which posts to benchmark: all of the user's, one platform's, or the given ids (any not the user's are left out). */
export interface BenchmarkTargets {
  platform?: string;
  contentItemIds?: readonly number[];
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

const agesTable = sql.join(
  BENCHMARK_AGES.map((entry, index) => sql`(${entry.age}::text, ${entry.hours}::int, ${index}::int)`),
  sql`, `,
);

/** The filter on a user's posts (`ci`, joined to their connection `c`) that picks the targets. */
function targetFilter(targets: BenchmarkTargets) {
  const conditions = [sql`true`];
  if (targets.platform !== undefined) conditions.push(sql`c.platform = ${targets.platform}`);
  if (targets.contentItemIds !== undefined) {
    const ids = targets.contentItemIds.length > 0 ? sql.join(targets.contentItemIds.map((id) => sql`${id}::int`), sql`, `) : sql`null::int`;
    conditions.push(sql`ci.id in (${ids})`);
  }
  return sql.join(conditions, sql` and `);
}

type ItemRow = { id: number; platform: string; published_at: string | Date | null };
const toItem = (row: ItemRow): BenchmarkedItem => ({ id: row.id, platform: row.platform, publishedAt: row.published_at === null ? null : new Date(row.published_at) });

export function createBenchmarkRepository(db: Database) {
  return {
    /** The post, if it belongs to the user. */
    async ownedItem(userId: number, contentItemId: number): Promise<BenchmarkedItem | undefined> {
      const [row] = await queryRows<ItemRow>(
        db,
        sql`select ci.id, c.platform, ci.published_at from content_items ci join platform_connections c on c.id = ci.connection_id
          where ci.id = ${contentItemId} and c.user_id = ${userId}`,
      );
      return row ? toItem(row) : undefined;
    },

    /** The user's posts picked by `targets`, newest first (undated last). */
    async ownedItems(userId: number, targets: BenchmarkTargets): Promise<BenchmarkedItem[]> {
      const rows = await queryRows<ItemRow>(
        db,
        sql`select ci.id, c.platform, ci.published_at from content_items ci join platform_connections c on c.id = ci.connection_id
          where c.user_id = ${userId} and ${targetFilter(targets)}
          order by ci.published_at desc nulls last, ci.id desc`,
      );
      return rows.map(toItem);
    },

    /** For each target post, age and metric: its count, and the median, count below and ties among its newest comparables. */
    /** Every post of the targets' platforms with its count at each age and metric it has one for. */
    countsAtAges(userId: number, targets: BenchmarkTargets, now: Date) {
      return queryRows<ValuedCount>(db, benchmarkQuery(userId, targets, now));
    },
  };
}

/** One post's count at one age, as the query reads it (every post of the targets' platforms that has one). */
export interface ValuedCount {
  itemId: number;
  platform: string;
  /** Seconds since the epoch: the order of "newest". */
  publishedAt: number;
  metric: BenchmarkMetric;
  age: BenchmarkAge;
  value: number;
  isTarget: boolean;
}

/**
 * Every post of the targets' platforms (the user's dated posts, targets included) with its count at each age and
 * metric it has one for, in one query however many targets.
 */
export function benchmarkQuery(userId: number, targets: BenchmarkTargets, now: Date) {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  return sql`with target as (
        select ci.id, c.platform from content_items ci join platform_connections c on c.id = ci.connection_id
        where c.user_id = ${userId} and ci.published_at is not null and ci.published_at <= ${nowAt} and ${targetFilter(targets)}
      ),
      pool as (
        select ci.id, c.platform, ci.published_at from content_items ci
        join platform_connections c on c.id = ci.connection_id
        where c.user_id = ${userId} and ci.published_at is not null and ci.published_at <= ${nowAt}
          and c.platform in (select distinct platform from target)
      ),
      ages(age, hours, ord) as (values ${agesTable}),
      kinds(source, metric) as (values (1, 'views'::text), (2, 'views'::text), (2, 'engagements'::text)),
      -- The young-post poll's reads, each at the moment it was read (decision 018).
      timed_reads as (
        select r.content_item_id as item_id, p.published_at, r.read_at as at,
          max(r.value) filter (where r.metric_type = 'views') as views,
          coalesce(max(r.value) filter (where r.metric_type = 'engagements'), sum(r.value) filter (where r.metric_type in (${list(ENGAGEMENT_PARTS)}))) as engagements
        from content_metric_reads r join pool p on p.id = r.content_item_id
        where r.read_at <= ${nowAt}
        group by r.content_item_id, p.published_at, r.read_at
      ),
      read_days as (select distinct item_id, (at at time zone 'UTC')::date as day from timed_reads),
      -- A day's snapshot stands at the end of its day, unless the day has timed reads: they say when the counts were
      -- what they were, where the end-of-day point is an assumption. Today's stands at now either way (it holds the
      -- latest read or sync), so a post that just left the poll still has a point after its 7-day moment.
      snapshot_days as (
        select cm.content_item_id as item_id, p.published_at,
          least((cm.as_of + 1)::timestamp at time zone 'UTC', ${nowAt}) as at,
          max(cm.value) filter (where cm.metric_type = 'views') as views,
          coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${list(ENGAGEMENT_PARTS)}))) as engagements
        from content_metrics cm join pool p on p.id = cm.content_item_id
        where (cm.as_of >= (${nowAt} at time zone 'UTC')::date or not exists (select 1 from read_days d where d.item_id = cm.content_item_id and d.day = cm.as_of))
        group by cm.content_item_id, p.published_at, cm.as_of
        union all
        select item_id, published_at, at, views, engagements from timed_reads
      ),
      -- Every series (post, source, metric) as one timeline: its points (marker 0), the publishing moment at 0, and
      -- the moment of each age reached (marker 1). Window functions then find each moment's neighbours without a
      -- join (the planner cannot estimate CTE sizes, and a nested loop over them costs seconds).
      timeline as (
        select p.id as item_id, p.published_at, 1 as source, 'views'::text as metric,
          least((date_trunc('day', p.published_at at time zone 'UTC') + e.ord * interval '1 day') at time zone 'UTC', ${nowAt}) as at,
          sum(e.v::float8) over (partition by p.id order by e.ord) as value, 0 as marker, null::text as age
        from pool p join youtube_videos yv on yv.content_item_id = p.id
        cross join lateral jsonb_array_elements_text(case when jsonb_typeof(yv.early_views) = 'array' then yv.early_views else '[]'::jsonb end) with ordinality as e(v, ord)
        union all
        select item_id, published_at, 2, 'views', at, views, 0, null from snapshot_days where views is not null and at > published_at
        union all
        select item_id, published_at, 2, 'engagements', at, engagements, 0, null from snapshot_days where engagements is not null and at > published_at
        union all
        select p.id, p.published_at, k.source, k.metric, p.published_at, 0::float8, 0, null from pool p cross join kinds k
        union all
        select p.id, p.published_at, k.source, k.metric, p.published_at + a.hours * interval '1 hour', null, 1, a.age
        from pool p cross join kinds k cross join ages a where p.published_at + a.hours * interval '1 hour' <= ${nowAt}
      ),
      -- Only points within the interpolation gap of a moment reached can bracket it (both ends of a usable bracket lie
      -- within that gap of the moment, and dropping farther points leaves each moment's nearest ones): a post read
      -- daily for two years keeps a dozen points instead of seven hundred.
      near as (
        select t.* from timeline t
        where t.marker = 1 or exists (
          select 1 from ages a
          where t.published_at + a.hours * interval '1 hour' <= ${nowAt}
            and t.at between t.published_at + (a.hours - ${MAX_INTERPOLATION_GAP_HOURS}) * interval '1 hour'
                         and t.published_at + (a.hours + ${MAX_INTERPOLATION_GAP_HOURS}) * interval '1 hour')
      ),
      -- A moment's group before is the points up to it (a point at the same instant first); its group after, the points from it.
      grouped as (
        select t.*,
          count(*) filter (where t.marker = 0) over (partition by t.item_id, t.source, t.metric order by t.at, t.marker rows unbounded preceding) as before_group,
          count(*) filter (where t.marker = 0) over (partition by t.item_id, t.source, t.metric order by t.at desc, t.marker rows unbounded preceding) as after_group
        from near t
      ),
      framed as (
        select g.item_id, g.published_at, g.source, g.metric, g.age, g.marker, g.at as target_at,
          first_value(g.at) over (partition by g.item_id, g.source, g.metric, g.before_group order by g.at, g.marker) as b_at,
          first_value(g.value) over (partition by g.item_id, g.source, g.metric, g.before_group order by g.at, g.marker) as b_value,
          first_value(g.at) over (partition by g.item_id, g.source, g.metric, g.after_group order by g.at desc, g.marker) as x_at,
          first_value(g.value) over (partition by g.item_id, g.source, g.metric, g.after_group order by g.at desc, g.marker) as x_value
        from grouped g
      ),
      valued as (
        select distinct on (item_id, metric, age) item_id, published_at, metric, age,
          case when x_at = b_at then x_value
            else b_value + (x_value - b_value) * extract(epoch from target_at - b_at) / extract(epoch from x_at - b_at) end as value
        from framed
        where marker = 1 and b_value is not null and x_value is not null and x_at - b_at <= ${MAX_INTERPOLATION_GAP_HOURS} * interval '1 hour'
        -- The tightest bracket wins (hourly reads over YouTube's daily curve), then the curve over the snapshots.
        order by item_id, metric, age, x_at - b_at, source
      )
      select v.item_id as "itemId", p.platform, extract(epoch from v.published_at)::float8 as "publishedAt", v.metric, v.age, v.value::float8 as value,
        exists (select 1 from target t where t.id = v.item_id) as "isTarget"
      from valued v join pool p on p.id = v.item_id`;
}

export type BenchmarkRepository = ReturnType<typeof createBenchmarkRepository>;
