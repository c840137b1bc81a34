// A post's counts at fixed ages beside the same creator's other posts of the same platform at those ages, in one
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
  age: BenchmarkAge;
  metric: BenchmarkMetric;
  value: number | null;
  n: number;
  median: number | null;
  below: number;
  ties: number;
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

export function createBenchmarkRepository(db: Database) {
  return {
    /** The post, if it belongs to the user. */
    async ownedItem(userId: number, contentItemId: number) {
      const [row] = await queryRows<{ id: number; platform: string; published_at: string | Date | null }>(
        db,
        sql`select ci.id, c.platform, ci.published_at from content_items ci join platform_connections c on c.id = ci.connection_id
          where ci.id = ${contentItemId} and c.user_id = ${userId}`,
      );
      return row ? { id: row.id, platform: row.platform, publishedAt: row.published_at === null ? null : new Date(row.published_at) } : undefined;
    },

    /** For each age and metric: the post's count, and the median, count below and ties among its newest comparables. */
    benchmark(userId: number, contentItemId: number, now: Date) {
      const nowAt = sql`${now.toISOString()}::timestamptz`;
      return queryRows<BenchmarkRow>(
        db,
        sql`with target as (
            select ci.id, c.platform from content_items ci join platform_connections c on c.id = ci.connection_id
            where ci.id = ${contentItemId} and c.user_id = ${userId}
          ),
          pool as (
            select ci.id, ci.published_at from content_items ci
            join platform_connections c on c.id = ci.connection_id
            join target t on c.platform = t.platform
            where c.user_id = ${userId} and ci.published_at is not null and ci.published_at <= ${nowAt}
          ),
          ages(age, hours, ord) as (values ${agesTable}),
          snapshot_days as (
            select cm.content_item_id as item_id,
              least((cm.as_of + 1)::timestamp at time zone 'UTC', ${nowAt}) as at,
              max(cm.value) filter (where cm.metric_type = 'views') as views,
              coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${list(ENGAGEMENT_PARTS)}))) as engagements
            from content_metrics cm join pool p on p.id = cm.content_item_id
            group by cm.content_item_id, cm.as_of
          ),
          points as (
            select p.id as item_id, 1 as source, 'views'::text as metric,
              least((date_trunc('day', p.published_at at time zone 'UTC') + e.ord * interval '1 day') at time zone 'UTC', ${nowAt}) as at,
              sum(e.v::float8) over (partition by p.id order by e.ord) as value
            from pool p join youtube_videos yv on yv.content_item_id = p.id
            cross join lateral jsonb_array_elements_text(case when jsonb_typeof(yv.early_views) = 'array' then yv.early_views else '[]'::jsonb end) with ordinality as e(v, ord)
            union all
            select item_id, 2, 'views', at, views from snapshot_days where views is not null
            union all
            select item_id, 2, 'engagements', at, engagements from snapshot_days where engagements is not null
          ),
          series as (select distinct item_id, source, metric from points),
          brackets as (
            select s.item_id, s.source, s.metric, a.age, tt.target_at, b.at as b_at, b.value as b_value, x.at as x_at, x.value as x_value
            from series s join pool p on p.id = s.item_id cross join ages a
            cross join lateral (select p.published_at + a.hours * interval '1 hour' as target_at) tt
            cross join lateral (
              select u.at, u.value from (
                select q.at, q.value from points q where q.item_id = s.item_id and q.source = s.source and q.metric = s.metric and q.at > p.published_at
                union all select p.published_at, 0::float8
              ) u where u.at <= tt.target_at order by u.at desc limit 1
            ) b
            cross join lateral (
              select q.at, q.value from points q
              where q.item_id = s.item_id and q.source = s.source and q.metric = s.metric and q.at >= tt.target_at
              order by q.at limit 1
            ) x
            where tt.target_at <= ${nowAt} and x.at - b.at <= ${MAX_INTERPOLATION_GAP_HOURS} * interval '1 hour'
          ),
          valued as (
            select distinct on (item_id, metric, age) item_id, metric, age,
              case when x_at = b_at then x_value
                else b_value + (x_value - b_value) * extract(epoch from target_at - b_at) / extract(epoch from x_at - b_at) end as value
            from brackets order by item_id, metric, age, source
          ),
          sample as (
            select v.metric, v.age, v.value from (
              select v.*, row_number() over (partition by v.metric, v.age order by p.published_at desc, p.id desc) as rank
              from valued v join pool p on p.id = v.item_id
              where v.item_id <> ${contentItemId}
            ) v where v.rank <= ${BENCHMARK_SAMPLE_SIZE}
          ),
          own as (select metric, age, value from valued where item_id = ${contentItemId})
          select a.age, m.metric, own.value::float8 as value,
            count(s.value)::int as n,
            (percentile_cont(0.5) within group (order by s.value))::float8 as median,
            count(*) filter (where s.value < own.value)::int as below,
            count(*) filter (where s.value = own.value)::int as ties
          from target t cross join ages a cross join (values ('views'::text), ('engagements'::text)) m(metric)
          left join own on own.metric = m.metric and own.age = a.age
          left join sample s on s.metric = m.metric and s.age = a.age
          group by a.age, a.ord, m.metric, own.value
          order by a.ord, m.metric desc`,
      );
    },
  };
}

export type BenchmarkRepository = ReturnType<typeof createBenchmarkRepository>;
