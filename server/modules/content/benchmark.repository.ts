// Posts' counts at fixed ages beside the same creator's other posts of the same platform at those ages, in one
// query (decision 014). Points of a post's count over time: the publishing moment at 0, YouTube's early-view curve
// (exact daily views) where it reaches, otherwise the daily snapshots of content_metrics. A count at an age is
// interpolated between the two points around that moment and never extrapolated past the last one.
import { sql } from 'drizzle-orm';
import { BENCHMARK_AGES, BENCHMARK_SAMPLE_SIZE, type BenchmarkAge } from '#contract/benchmark.ts';
import { type Database, queryRows } from '../../db/client.ts';

/** The widest gap between two points a count is interpolated over: one missed daily read still counts. */
export const MAX_INTERPOLATION_GAP_HOURS = 48;

/** Engagements as the analytics cards count them: the platform's own total, else the sum of these parts. */
const ENGAGEMENT_PARTS = ['likes', 'reactions', 'comments', 'shares'];

export type BenchmarkMetric = 'views' | 'engagements';

export interface BenchmarkRow {
  contentItemId: number;
  age: BenchmarkAge;
  metric: BenchmarkMetric;
  value: number | null;
  n: number;
  median: number | null;
  below: number;
  ties: number;
}

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
    benchmarks(userId: number, targets: BenchmarkTargets, now: Date) {
      return queryRows<BenchmarkRow>(db, benchmarkQuery(userId, targets, now));
    },
  };
}

/**
 * For each target post (the user's dated posts picked by `targets`), each age and metric: the post's count, and the
 * median, count below and ties among its comparables: the newest BENCHMARK_SAMPLE_SIZE other posts of its platform
 * with a count at that age. One query however many targets: every post of the targets' platforms is valued once, and
 * each target's sample is the newest 51 of its platform less itself, cut to 50.
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
      snapshot_days as (
        select cm.content_item_id as item_id, p.published_at,
          least((cm.as_of + 1)::timestamp at time zone 'UTC', ${nowAt}) as at,
          max(cm.value) filter (where cm.metric_type = 'views') as views,
          coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${list(ENGAGEMENT_PARTS)}))) as engagements
        from content_metrics cm join pool p on p.id = cm.content_item_id
        group by cm.content_item_id, p.published_at, cm.as_of
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
      -- A moment's group before is the points up to it (a point at the same instant first); its group after, the points from it.
      grouped as (
        select t.*,
          count(*) filter (where t.marker = 0) over (partition by t.item_id, t.source, t.metric order by t.at, t.marker rows unbounded preceding) as before_group,
          count(*) filter (where t.marker = 0) over (partition by t.item_id, t.source, t.metric order by t.at desc, t.marker rows unbounded preceding) as after_group
        from timeline t
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
        order by item_id, metric, age, source
      ),
      -- The newest posts of each platform with a count at each age; a target's sample is the first 50 of them that are not itself.
      ranked as (
        select v.item_id, p.platform, v.metric, v.age, v.value,
          row_number() over (partition by p.platform, v.metric, v.age order by v.published_at desc, v.item_id desc) as rank
        from valued v join pool p on p.id = v.item_id
      ),
      sample as (
        select t.id as target_id, r.metric, r.age, r.value,
          row_number() over (partition by t.id, r.metric, r.age order by r.rank) as pick
        from target t join ranked r on r.platform = t.platform and r.rank <= ${BENCHMARK_SAMPLE_SIZE + 1} and r.item_id <> t.id
      )
      select t.id as "contentItemId", a.age, m.metric, own.value::float8 as value,
        count(s.value)::int as n,
        (percentile_cont(0.5) within group (order by s.value))::float8 as median,
        count(*) filter (where s.value < own.value)::int as below,
        count(*) filter (where s.value = own.value)::int as ties
      from target t cross join ages a cross join (values ('views'::text), ('engagements'::text)) m(metric)
      left join valued own on own.item_id = t.id and own.metric = m.metric and own.age = a.age
      left join sample s on s.target_id = t.id and s.metric = m.metric and s.age = a.age and s.pick <= ${BENCHMARK_SAMPLE_SIZE}
      group by t.id, a.age, a.ord, m.metric, own.value
      order by t.id, a.ord, m.metric desc`;
}

export type BenchmarkRepository = ReturnType<typeof createBenchmarkRepository>;
