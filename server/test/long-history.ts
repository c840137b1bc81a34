// A creator with years of synced history, written set-based in SQL straight into the tables the syncs fill (as
// bench/lib/realistic-seed.ts does for the bench, at one user's size): YouTube, Instagram and Patreon connections with
// each platform's daily account metrics, a catalogue of YouTube videos spread over the years with their counters read at the ages a
// sync reads them. Values are functions of the day and the metric, never random, so two users with different spans
// hold the same recent data: what differs between them is only how far back their history goes.
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.ts';

const ACCOUNT_METRICS: [platform: string, type: string, kind: 'flow' | 'stock' | 'rate', base: number][] = [
  ['youtube', 'views', 'flow', 4000],
  ['youtube', 'watch_time_minutes', 'flow', 12000],
  ['youtube', 'likes', 'flow', 180],
  ['youtube', 'comments', 'flow', 25],
  ['youtube', 'shares', 'flow', 20],
  ['youtube', 'subscribers_gained', 'flow', 30],
  ['youtube', 'subscribers_lost', 'flow', 8],
  ['youtube', 'engagements', 'flow', 225],
  ['youtube', 'subscribers', 'stock', 20000],
  ['youtube', 'revenue', 'flow', 12],
  ['youtube', 'cpm', 'rate', 4.5],
  ['instagram', 'followers', 'stock', 8000],
  ['instagram', 'views', 'flow', 6000],
  ['instagram', 'reach', 'flow', 3000],
  ['instagram', 'engagements', 'flow', 400],
  ['patreon', 'members', 'stock', 400],
  ['patreon', 'patrons', 'stock', 250],
  ['patreon', 'monthly_pledges', 'stock', 1500],
];
/**
 * The catalogue, spread evenly over the span: the same size whatever the span, so that two creators differ in the
 * years of daily rows and counter readings they hold, not in how many videos a page lists.
 */
const VIDEOS = 120;

export interface LongHistory {
  connections: Record<'youtube' | 'instagram' | 'patreon', number>;
  /** The content item ids of the videos, newest first. */
  videoIds: number[];
}

/** Seeds `years` of history ending on `today` (YYYY-MM-DD) for the user; answers its connections and videos. */
export async function seedLongHistory(db: Database, userId: number, { years, today }: { years: number; today: string }): Promise<LongHistory> {
  const days = Math.round(years * 365);
  const platforms = ['youtube', 'instagram', 'patreon'] as const;
  const connections = {} as LongHistory['connections'];
  for (const platform of platforms) {
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`insert into platform_connections (user_id, platform, platform_user_id, platform_username, display_name, followers, currency, last_synced_at, connected_at, updated_at)
          values (${userId}, ${platform}, ${`${platform}-${userId}`}, ${`creator${userId}`}, ${`Creator ${userId}`}, 0,
            ${platform === 'patreon' ? 'USD' : null}, now(), (${today}::date - ${days}::int)::timestamptz, now())
          returning id`,
    );
    connections[platform] = row!.id;
  }
  const metricRows = sql.join(
    ACCOUNT_METRICS.map(([platform, type, kind, base], index) => sql`(${connections[platform as keyof typeof connections]}::int, ${type}::text, ${kind}::text, ${base}::float8, ${index + 1}::int)`),
    sql`, `,
  );
  // Flows vary ±30 % with the day; stocks grow towards today; rates vary ±10 %. The day's offset from today sets the
  // value, so the last years of two users of different spans are the same.
  await db.execute(sql`
    insert into account_metrics (connection_id, date, metric_type, value)
    select m.connection_id, ${today}::date - d, m.metric_type,
      round((case m.kind
        when 'flow' then m.base * (0.7 + ((d * 7919 + m.k * 104729) % 600) / 1000.0)
        when 'stock' then m.base * (1 + 1.0 / (1 + d / 365.0))
        else m.base * (0.9 + ((d * 7919 + m.k * 104729) % 200) / 1000.0) end)::numeric, 2)::float8
    from (values ${metricRows}) as m(connection_id, metric_type, kind, base, k)
    cross join generate_series(0, ${days - 1}) d`);
  await db.execute(sql`update platform_connections c set followers = am.value::int
    from account_metrics am where am.connection_id = c.id and c.user_id = ${userId} and am.date = ${today}::date
      and am.metric_type = case c.platform when 'youtube' then 'subscribers' when 'patreon' then 'patrons' else 'followers' end`);
  const youtube = connections.youtube;
  await db.execute(sql`insert into youtube_channels (connection_id, channel_id, title, revenue_access, updated_at)
    values (${youtube}, ${`UC${String(userId).padStart(22, '0')}`}, ${`Channel ${userId}`}, 'available', now())`);
  const spacing = days / VIDEOS;
  const items = await queryRows<{ id: number }>(
    db,
    sql`insert into content_items (connection_id, platform_content_id, title, published_at, url)
        select ${youtube}, 'v' || lpad((${userId} * 10000 + i)::text, 10, '0'), 'Video ' || i,
          (${today}::date - floor((i - 1) * ${spacing}::float8)::int)::timestamptz + interval '15 hours', 'https://www.youtube.com/watch?v=' || i
        from generate_series(1, ${VIDEOS}) i
        order by i
        returning id`,
  );
  // Counters read daily in a video's first week, weekly to four weeks, then every 28 days.
  await db.execute(sql`
    insert into content_metrics (content_item_id, connection_id, metric_type, as_of, value)
    select ci.id, ci.connection_id, m.metric_type, ci.published_at::date + a, round(m.base * (1 - exp(-(a + 1) / 4.0)))::float8
    from content_items ci
    cross join (values ('views', 20000.0), ('likes', 800.0), ('comments', 60.0)) as m(metric_type, base)
    cross join lateral (select a from generate_series(0, 6) a union all select a from generate_series(7, 28, 7) a
                        union all select a from generate_series(56, ${days}, 28) a) ages
    where ci.connection_id = ${youtube} and ci.published_at::date + a <= ${today}::date`);
  await db.execute(sql`
    insert into youtube_videos (content_item_id, connection_id, video_id, duration_seconds, views, likes, comments, watch_time_minutes,
      estimated_revenue, cpm, stats_updated_at)
    select ci.id, ci.connection_id, ci.platform_content_id, 600, 20000, 800, 60, 90000, 90, 4.5, now()
    from content_items ci where ci.connection_id = ${youtube}`);
  // Vacuumed, as autovacuum keeps a database in service: the range reads are index-only scans once the visibility map
  // is set, as they are in production, and do not depend on where a seed happened to put the rows.
  await db.execute(sql`vacuum (analyze) account_metrics, account_metric_days, metric_spans, content_items, content_metrics, youtube_videos`);
  return { connections, videoIds: items.map((item) => item.id) };
}
