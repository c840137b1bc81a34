// The realistic bench's data (bench/realistic.ts), written set-based in SQL: 1,000 subscribed users, each with the six
// platforms, two years of daily account metrics of exactly the types each platform's sync writes, and a few hundred
// content items with their counters. Every value is a function of the user's number, the day and the metric (integer
// hashing), never a random draw, so two seeds are identical. A marker row (bench_seed) records the version seeded.
import type pg from 'pg';

/** 1,000 by default; BENCH_USERS only to try a change quickly. */
export const USERS = Number(process.env.BENCH_USERS ?? 1_000);
/** Bump when the seed's shape changes: a database seeded with another version is dropped and seeded again. */
export const SEED_VERSION = `realistic-v3-${USERS}-users`;
export const HISTORY_DAYS = 730;
export const USERNAME_PREFIX = 'bench_user_';

/**
 * Daily account metrics per platform, as each platform's sync writes them (server/providers/*.sync.ts and
 * server/providers/youtube/analytics-reports.ts): `flow` a day's amount, `stock` a total at the end of the day,
 * `rate` a per-mille price; `base` the typical value of a mid-sized account; `cents` values carry two decimals.
 */
const ACCOUNT_METRICS: [platform: string, type: string, kind: 'flow' | 'stock' | 'rate', base: number, cents: boolean][] = [
  // YouTube: reports.query day rows (views … subscribersLost), engagements = likes + comments + shares, subscriber
  // totals derived back from today's count, and the revenue report.
  ['youtube', 'views', 'flow', 4000, false],
  ['youtube', 'watch_time_minutes', 'flow', 12000, false],
  ['youtube', 'likes', 'flow', 180, false],
  ['youtube', 'comments', 'flow', 25, false],
  ['youtube', 'shares', 'flow', 20, false],
  ['youtube', 'subscribers_gained', 'flow', 30, false],
  ['youtube', 'subscribers_lost', 'flow', 8, false],
  ['youtube', 'engagements', 'flow', 225, false],
  ['youtube', 'subscribers', 'stock', 20000, false],
  ['youtube', 'revenue', 'flow', 12, true],
  ['youtube', 'ad_revenue', 'flow', 9, true],
  ['youtube', 'monetized_playbacks', 'flow', 1500, false],
  ['youtube', 'playback_based_cpm', 'rate', 6, true],
  ['youtube', 'cpm', 'rate', 4.5, true],
  // Instagram: the follower count, and the account insights views, reach and total_interactions (engagements).
  ['instagram', 'followers', 'stock', 8000, false],
  ['instagram', 'views', 'flow', 6000, false],
  ['instagram', 'reach', 'flow', 3000, false],
  ['instagram', 'engagements', 'flow', 400, false],
  // TikTok and X: the follower count, and views, likes, comments and shares derived from the posts' counter growth.
  ['tiktok', 'followers', 'stock', 15000, false],
  ['tiktok', 'views', 'flow', 9000, false],
  ['tiktok', 'likes', 'flow', 700, false],
  ['tiktok', 'comments', 'flow', 40, false],
  ['tiktok', 'shares', 'flow', 60, false],
  ['twitter', 'followers', 'stock', 5000, false],
  ['twitter', 'views', 'flow', 3000, false],
  ['twitter', 'likes', 'flow', 80, false],
  ['twitter', 'comments', 'flow', 10, false],
  ['twitter', 'shares', 'flow', 12, false],
  // LinkedIn: the follower count and the member post analytics (IMPRESSION, REACTION, COMMENT, RESHARE).
  ['linkedin', 'followers', 'stock', 3000, false],
  ['linkedin', 'impressions', 'flow', 2000, false],
  ['linkedin', 'reactions', 'flow', 60, false],
  ['linkedin', 'comments', 'flow', 8, false],
  ['linkedin', 'shares', 'flow', 5, false],
  // Patreon: members, paying patrons and monthly pledges of the campaign.
  ['patreon', 'members', 'stock', 400, false],
  ['patreon', 'patrons', 'stock', 250, false],
  ['patreon', 'monthly_pledges', 'stock', 1500, true],
];

/** Content items per connection, and the lifetime counters each platform's sync stores for them (content_metrics). */
const CONTENT: [platform: string, items: number, metrics: [type: string, base: number][]][] = [
  ['youtube', 100, [['views', 20000], ['likes', 800], ['comments', 60]]],
  ['instagram', 50, [['views', 8000], ['reach', 5000], ['likes', 600], ['comments', 40], ['shares', 30], ['saves', 50], ['engagements', 720]]],
  ['tiktok', 50, [['views', 15000], ['likes', 1200], ['comments', 50], ['shares', 80]]],
  ['twitter', 50, [['views', 4000], ['likes', 100], ['comments', 12], ['shares', 15]]],
];
const PLATFORMS = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin', 'patreon'];

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
// A well-mixed integer in 0..999 from small integers (bigint xor of multiplicative hashes).
const hash = (...terms: string[]) => `((${terms.map((term, index) => `(${term})::bigint * ${[73856093, 19349663, 83492791, 2654435761][index]}`).join(' # ')}) % 1000)`;

/** The tables the seed writes, in the order their counts are printed. */
export const SEEDED_TABLES = ['users', 'subscriptions', 'platform_connections', 'account_metrics', 'account_metric_days', 'metric_spans', 'content_items', 'content_metrics', 'youtube_channels', 'youtube_videos'];

export interface SeedCounts {
  [table: string]: number;
}

/** The seed marker, or undefined when the database holds no seed of this version. */
export async function seededVersion(client: pg.Client): Promise<{ anchor: string; seconds: number; counts: SeedCounts } | undefined> {
  const table = await client.query(`select to_regclass('bench_seed') as name`);
  if (!table.rows[0].name) return undefined;
  const { rows } = await client.query(`select anchor::text, seconds, counts from bench_seed where version = $1`, [SEED_VERSION]);
  return rows[0] as { anchor: string; seconds: number; counts: SeedCounts } | undefined;
}

/** Seeds an empty, migrated database; returns the seconds taken and the rows written per table. */
export async function seed(client: pg.Client, log: (line: string) => void): Promise<{ anchor: string; seconds: number; counts: SeedCounts }> {
  const started = performance.now();
  const step = async (label: string, text: string) => {
    const stepStarted = performance.now();
    const result = await client.query(text);
    log(`  ${label}: ${result.rowCount ?? 0} rows in ${((performance.now() - stepStarted) / 1000).toFixed(1)} s`);
  };
  await client.query(`set synchronous_commit = off`);
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query(`set work_mem = '256MB'`);
  // The metric tables' secondary indexes are dropped while they fill and built again after from their own
  // definitions (pg_indexes), as the migrations made them: one sort per index instead of 50 million insertions.
  const indexes = (
    await client.query(`select indexname, indexdef from pg_indexes where schemaname = current_schema()
      and tablename in ('account_metrics', 'content_metrics') and indexname not in ('account_metrics_pkey', 'content_metrics_pkey')`)
  ).rows as { indexname: string; indexdef: string }[];
  for (const index of indexes) await client.query(`drop index ${index.indexname}`);
  const anchor = ((await client.query(`select current_date::text as day`)).rows[0] as { day: string }).day;
  const day = `${literal(anchor)}::date`;
  // The user's size (0.2× to 5× a mid-sized account) and the platform's order, used by every value below.
  await step(
    'users',
    `insert into users (username, email, password_hash, first_name, last_name, email_confirmed_at, created_at)
     select '${USERNAME_PREFIX}' || lpad(u::text, 4, '0'), '${USERNAME_PREFIX}' || lpad(u::text, 4, '0') || '@example.com',
       'bench: signs in by a session row only', 'Bench', 'User ' || u, now(), ${day} - ${HISTORY_DAYS}
     from generate_series(1, ${USERS}) u`,
  );
  await client.query(`create temp table bench_users as
    select id as user_id, substr(username, ${USERNAME_PREFIX.length + 1})::int as u, 0.2 + ((substr(username, ${USERNAME_PREFIX.length + 1})::int * 7919) % 97) / 20.0 as size
    from users where username like '${USERNAME_PREFIX}%'`);
  // Premium as the 402 gate reads it: an active, paid subscription row (as server/test/subscriptions.ts grants it).
  await step(
    'subscriptions',
    `insert into subscriptions (user_id, stripe_customer_id, stripe_subscription_id, stripe_price_id, status, current_period_start, current_period_end, trial_used, synced_at)
     select user_id, 'cus_bench_' || u, 'sub_bench_' || u, 'price_bench', 'active', now() - interval '1 day', now() + interval '3650 days', true, now() from bench_users`,
  );
  await client.query(`create temp table bench_platforms (platform text, p int)`);
  await client.query(`insert into bench_platforms values ${PLATFORMS.map((platform, index) => `(${literal(platform)}, ${index + 1})`).join(', ')}`);
  await step(
    'platform_connections',
    `insert into platform_connections (user_id, platform, platform_user_id, platform_username, display_name, followers, currency, last_synced_at, connected_at, updated_at)
     select b.user_id, p.platform, 'bench-' || p.platform || '-' || b.u, 'bench' || b.u, 'Bench creator ' || b.u, 0,
       case p.platform when 'patreon' then 'USD' end, now(), ${day} - ${HISTORY_DAYS}, now()
     from bench_users b cross join bench_platforms p order by b.u, p.p`,
  );
  await client.query(`create temp table bench_connections as
    select c.id as connection_id, c.platform, b.u, b.size from platform_connections c join bench_users b on b.user_id = c.user_id`);
  await client.query(`create temp table bench_account_metrics (platform text, metric_type text, k int, kind text, base float8, cents boolean)`);
  await client.query(
    `insert into bench_account_metrics values ${ACCOUNT_METRICS.map(([platform, type, kind, base, cents], index) => `(${literal(platform)}, ${literal(type)}, ${index + 1}, '${kind}', ${base}, ${cents})`).join(', ')}`,
  );
  // The metric rows reference only the connections and items written just above, so their foreign-key checks (one
  // trigger per row, fired at the end of the statement: most of the seed's time) are skipped while they are written.
  await client.query(`set session_replication_role = replica`);
  // A day's value: flows vary ±40 % day to day and grow 50 % over the two years; stocks double; rates vary ±20 %.
  const noise = hash('c.u', 'd', 'm.k');
  await step(
    'account_metrics',
    `insert into account_metrics (connection_id, date, metric_type, value)
     select c.connection_id, ${day} - d, m.metric_type, case when m.cents then round(v::numeric, 2) else round(v::numeric) end::float8
     from bench_connections c
     join bench_account_metrics m on m.platform = c.platform
     cross join generate_series(0, ${HISTORY_DAYS - 1}) d
     cross join lateral (select case m.kind
       when 'flow' then m.base * c.size * (0.6 + ${noise} / 1250.0) * (1 + (${HISTORY_DAYS - 1} - d) / ${HISTORY_DAYS * 2}.0)
       when 'stock' then m.base * c.size * (2 - d / ${HISTORY_DAYS}.0)
       else m.base * (0.8 + ${noise} / 2500.0) end as v) value
     order by c.connection_id, d desc, m.metric_type`,
  );
  // The connection's follower count is the latest stock (subscribers, followers, patrons).
  await step(
    'platform_connections.followers',
    `update platform_connections c set followers = least(am.value, 2147483647)::int
     from account_metrics am where am.connection_id = c.id and am.date = ${day}
       and am.metric_type = case c.platform when 'youtube' then 'subscribers' when 'patreon' then 'patrons' else 'followers' end`,
  );
  await client.query(`create temp table bench_content (platform text, items int, metric_type text, k int, base float8)`);
  await client.query(
    `insert into bench_content values ${CONTENT.flatMap(([platform, items, metrics]) => metrics.map(([type, base], index) => `(${literal(platform)}, ${items}, ${literal(type)}, ${index + 1}, ${base})`)).join(', ')}`,
  );
  // Items spread evenly over the two years (item 1 is the newest), at an hour of the day set by the item.
  await step(
    'content_items',
    `insert into content_items (connection_id, platform_content_id, title, description, published_at, url)
     select c.connection_id, id, t.title, t.title || ' — bench post of creator ' || c.u, t.published, 'https://example.com/' || c.platform || '/' || id
     from bench_connections c
     join (select distinct platform, items from bench_content) n on n.platform = c.platform
     cross join generate_series(1, n.items) i
     cross join lateral (select case c.platform when 'youtube' then substr(md5('bench-video-' || c.u || '-' || i), 1, 11) else c.platform || '-' || c.u || '-' || i end as id,
       initcap(c.platform) || ' post ' || i || ' of creator ' || c.u as title,
       (${day} - ((i - 1) * ${HISTORY_DAYS} / n.items))::timestamptz + make_interval(hours => (${hash('c.u', 'i')} % 24)::int) as published) t
     order by c.connection_id, i`,
  );
  await client.query(`create temp table bench_items as
    select ci.id as item_id, ci.connection_id, c.platform, c.u, c.size, ci.published_at::date as published, 0.2 + ${hash('c.u', 'ci.id')} / 250.0 as item_size
    from content_items ci join bench_connections c on c.connection_id = ci.connection_id`);
  // Counters read daily in an item's first week, weekly to four weeks, then every 28 days: lifetime totals that
  // rise quickly and level off.
  await step(
    'content_metrics',
    `insert into content_metrics (content_item_id, connection_id, metric_type, as_of, value)
     select i.item_id, i.connection_id, m.metric_type, i.published + a, round(m.base * i.size * i.item_size * (1 - exp(-(a + 1) / 4.0)))::float8
     from bench_items i
     join bench_content m on m.platform = i.platform
     cross join lateral (select a from generate_series(0, 6) a union all select a from generate_series(7, 28, 7) a
                         union all select a from generate_series(56, ${HISTORY_DAYS}, 28) a) ages
     where i.published + a <= ${day}
     order by i.connection_id, i.item_id, a`,
  );
  await client.query(`reset session_replication_role`);
  for (const index of indexes) await step(`index ${index.indexname}`, index.indexdef);
  // The day rows that the triggers on account_metrics keep (migration 0022) and session_replication_role skipped:
  // filled by the same function the triggers call.
  await step(
    'account_metric_days',
    `select account_metric_days_refresh(array_agg(connection_id), array_agg(date)) from (select distinct connection_id, date from account_metrics) k`,
  );
  // The spans the triggers on both metric tables keep (migration 0033), skipped with them: filled from the rows.
  await step(
    'metric_spans',
    `insert into metric_spans (connection_id, source, metric_type, first_day, last_day)
     select connection_id, 'account', metric_type, min(date), max(date) from account_metrics group by connection_id, metric_type
     union all
     select connection_id, 'content', metric_type, min(as_of), max(as_of) from content_metrics group by connection_id, metric_type`,
  );
  await step(
    'youtube_channels',
    `insert into youtube_channels (connection_id, channel_id, title, revenue_access, updated_at)
     select connection_id, 'UCbench' || lpad(u::text, 4, '0'), 'Bench channel ' || u, 'available', now() from bench_connections where platform = 'youtube'`,
  );
  // A video's current numbers: the counters of its latest read, and what the Analytics reports give from them.
  await step(
    'youtube_videos',
    `insert into youtube_videos (content_item_id, connection_id, video_id, duration_seconds, thumbnail_url, views, likes, comments, shares,
       watch_time_minutes, average_view_duration_seconds, average_view_percentage, subscribers_gained, estimated_revenue, estimated_ad_revenue,
       cpm, monetized_playbacks, impressions, click_through_rate, stats_updated_at)
     select i.item_id, i.connection_id, ci.platform_content_id, duration, 'https://i.ytimg.com/vi/' || ci.platform_content_id || '/mqdefault.jpg',
       v.views, v.likes, v.comments, round(v.likes / 8), round(v.views * duration * 0.45 / 60), round(duration * 0.45), 45,
       round(v.views / 200), round((v.views * 4.5 / 1000)::numeric, 2)::float8, round((v.views * 3.4 / 1000)::numeric, 2)::float8,
       4.5, round(v.views * 0.4), round(v.views * 12), round((4 + (i.item_id % 30) / 10.0)::numeric, 1)::float8, now()
     from bench_items i join content_items ci on ci.id = i.item_id
     cross join lateral (select 60 + ${hash('i.u', 'i.item_id')} * 3 as duration) d
     cross join lateral (select max(cm.value) filter (where cm.metric_type = 'views') as views, max(cm.value) filter (where cm.metric_type = 'likes') as likes,
       max(cm.value) filter (where cm.metric_type = 'comments') as comments
       from content_metrics cm where cm.content_item_id = i.item_id) v
     where i.platform = 'youtube'`,
  );
  // Vacuumed too, as autovacuum would have done on a database in service: index-only scans need the visibility map.
  await client.query(`vacuum (analyze)`);
  const counts: SeedCounts = {};
  for (const table of SEEDED_TABLES) {
    counts[table] = Number(((await client.query(`select count(*) as n from ${table}`)).rows[0] as { n: string }).n);
  }
  const seconds = (performance.now() - started) / 1000;
  await client.query(`create table if not exists bench_seed (version text primary key, anchor date not null, seconds float8 not null, counts jsonb not null, seeded_at timestamptz not null)`);
  await client.query(`insert into bench_seed (version, anchor, seconds, counts, seeded_at) values ($1, $2, $3, $4, now())`, [SEED_VERSION, anchor, seconds, JSON.stringify(counts)]);
  return { anchor, seconds, counts };
}
