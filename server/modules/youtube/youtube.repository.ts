// The YouTube section's reads. Everything is scoped by a connection id that youtube.service.ts has already resolved
// from the signed-in user (activeChannel), so another user's rows cannot appear; sums, sorting and paging over many
// rows run in SQL.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { InsightEvidence } from '#contract/insight-evidence.ts';
import type { RevenueAccess, VideoSortKey } from '#contract/youtube.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { completeThroughOf, revenueCompleteThroughOf } from '../../db/freshness.ts';
import { youtubeInsights } from '../../db/schema.ts';
import { grantsYoutubeAnalytics, grantsYoutubeRevenue } from '../../providers/youtube/scopes.ts';
import type { ChannelDayRow } from './view-history.ts';

/** Where an insight's evidence lives inside its facts column. */
export const EVIDENCE_KEY = 'evidence';

export interface ChannelRow {
  connectionId: number;
  title: string | null;
  revenueAccess: RevenueAccess;
  /** False when the user did not let us read YouTube Analytics (only youtube.readonly was granted). */
  analyticsAccess: boolean;
  /** Where stored impressions and click-through rates start (the oldest reach report read); null before any. */
  reachSince: Date | null;
  lastSyncedAt: Date | null;
}

export interface VideoRow {
  id: number;
  video_id: string;
  title: string;
  description: string | null;
  url: string | null;
  published_at: string | Date | null;
  thumbnail_url: string | null;
  duration_seconds: number | null;
  views: number;
  watch_time_minutes: number | null;
  likes: number | null;
  comments: number | null;
  estimated_revenue: number | null;
  estimated_ad_revenue: number | null;
  cpm: number | null;
  impressions: number | null;
  click_through_rate: number | null;
  average_view_percentage: number | null;
}

export interface VideoDetailRow extends VideoRow {
  retention: unknown;
  retention_fetched_at: string | Date | null;
  stats_updated_at: string | Date | null;
  early_views: unknown;
}

export interface VideoPageOptions {
  /** Only videos published at or after this instant. */
  publishedSince?: Date;
  search?: string;
  sort: VideoSortKey;
  order: 'asc' | 'desc';
  /** Sorting by revenue without revenue access would reveal the hidden numbers' order. */
  revenueVisible: boolean;
  limit: number;
  offset: number;
}

const videoColumns = sql`ci.id, coalesce(yv.video_id, ci.platform_content_id) as video_id, ci.title, ci.description, ci.url, ci.published_at,
  yv.thumbnail_url, yv.duration_seconds, coalesce(yv.views, 0)::float8 as views, yv.watch_time_minutes, yv.likes, yv.comments,
  yv.estimated_revenue, yv.estimated_ad_revenue, yv.cpm, yv.impressions, yv.click_through_rate, yv.average_view_percentage`;

interface ChannelColumns {
  id: number;
  title: string | null;
  display_name: string | null;
  revenue_access: string | null;
  scope: string | null;
  last_synced_at: string | Date | null;
  reach_reports_since: string | Date | null;
}

/** The user's active YouTube connection with its channel row (the synced one first), at most one row. */
const activeChannelQuery = (userId: number) => sql`select c.id, yc.title, c.display_name, yc.revenue_access, c.scope, c.last_synced_at, yc.reach_reports_since
  from platform_connections c left join youtube_channels yc on yc.connection_id = c.id
  where c.user_id = ${userId} and c.platform = 'youtube' and c.is_active and not c.manual
  order by (yc.connection_id is not null) desc, c.last_synced_at desc nulls last, c.id
  limit 1`;

function toChannelRow(row: ChannelColumns): ChannelRow {
  // Before the first YouTube sync has recorded what revenue we may read, the granted scope is the best guide.
  const stored = row.revenue_access;
  const revenueAccess: RevenueAccess =
    stored === 'available' || stored === 'missingScope' || stored === 'notMonetized' ? stored : grantsYoutubeRevenue(row.scope) ? 'available' : 'missingScope';
  return {
    connectionId: Number(row.id),
    title: row.title ?? row.display_name,
    revenueAccess,
    analyticsAccess: grantsYoutubeAnalytics(row.scope),
    // row_to_json gives timestamps as ISO text, a plain query as Dates: both parse.
    reachSince: row.reach_reports_since ? new Date(row.reach_reports_since) : null,
    lastSyncedAt: row.last_synced_at ? new Date(row.last_synced_at) : null,
  };
}

/** One video of the connection (a column or value) by our id or YouTube's videoId, with what its page shows. */
const videoDetailQuery = (connectionId: SQL, key: { id: number } | { videoId: string }) => {
  const match = 'id' in key ? sql`ci.id = ${key.id}` : sql`(ci.platform_content_id = ${key.videoId} or yv.video_id = ${key.videoId})`;
  return sql`select ${videoColumns}, yv.retention, yv.retention_fetched_at, yv.stats_updated_at, yv.early_views
    from content_items ci left join youtube_videos yv on yv.content_item_id = ci.id
    where ci.connection_id = ${connectionId} and ${match}
    order by ci.id limit 1`;
};

/** (likes + comments) / views, as the API computes engagementRate; null where it cannot be computed. */
const engagementExpression = sql`case when yv.views > 0 and (yv.likes is not null or yv.comments is not null)
  then (coalesce(yv.likes, 0) + coalesce(yv.comments, 0)) / yv.views end`;

function sortExpression(sort: VideoSortKey, revenueVisible: boolean): SQL {
  switch (sort) {
    case 'publishedAt':
      return sql`ci.published_at`;
    case 'views':
      return sql`coalesce(yv.views, 0)`;
    case 'watchTime':
      return sql`yv.watch_time_minutes`;
    case 'engagement':
      return engagementExpression;
    case 'revenue':
      return revenueVisible ? sql`yv.estimated_revenue` : sql`null::float8`;
    case 'ctr':
      return sql`yv.click_through_rate`;
    case 'title':
      return sql`lower(ci.title)`;
  }
}

/** A LIKE pattern matching `text` literally anywhere. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function createYoutubeRepository(db: Database) {
  return {
    /**
     * The user's YouTube channel: the active OAuth connection (a manually tracked public profile has no analytics),
     * the one with synced YouTube data first, then the most recently synced.
     */
    async activeChannel(userId: number): Promise<ChannelRow | undefined> {
      const [row] = await queryRows<ChannelColumns>(db, activeChannelQuery(userId));
      return row ? toChannelRow(row) : undefined;
    },

    /**
     * The user's active channel and one of its videos by our id or YouTube's videoId, in one round trip (a video
     * page's first query; another channel's video reads as absent): undefined without a channel, `row` undefined
     * without such a video.
     */
    async findChannelVideo(userId: number, key: { id: number } | { videoId: string }): Promise<{ channel: ChannelRow; row: VideoDetailRow | undefined } | undefined> {
      const [found] = await queryRows<{ channel: ChannelColumns } & { [column: string]: unknown }>(
        db,
        sql`with channel as (${activeChannelQuery(userId)})
          select row_to_json(channel) as channel, v.*
          from channel left join lateral (${videoDetailQuery(sql`channel.id`, key)}) v on true`,
      );
      if (!found) return undefined;
      const { channel, ...video } = found;
      return { channel: toChannelRow(channel), row: video.id === null ? undefined : (video as unknown as VideoDetailRow) };
    },

    /** One page of the channel's videos and the number matching, counted in the same pass. */
    async videosPage(connectionId: number, options: VideoPageOptions): Promise<{ rows: VideoRow[]; total: number }> {
      const filters: SQL[] = [sql`ci.connection_id = ${connectionId}`];
      if (options.publishedSince) filters.push(sql`ci.published_at >= ${options.publishedSince.toISOString()}`);
      if (options.search) filters.push(sql`ci.title ilike ${containsPattern(options.search)} escape '\\'`);
      const where = sql.join(filters, sql` and `);
      const direction = options.order === 'asc' ? sql`asc` : sql`desc`;
      // Unknown values sort last in both directions; the id breaks ties so pages never overlap or skip.
      const rows = await queryRows<VideoRow & { total: string }>(
        db,
        sql`select ${videoColumns}, count(*) over () as total
          from content_items ci left join youtube_videos yv on yv.content_item_id = ci.id
          where ${where}
          order by ${sortExpression(options.sort, options.revenueVisible)} ${direction} nulls last, ci.id asc
          limit ${options.limit} offset ${options.offset}`,
      );
      if (rows.length > 0 || options.offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
      // A page past the end: count without fetching.
      const [counted] = await queryRows<{ total: string }>(db, sql`select count(*)::text as total from content_items ci where ${where}`);
      return { rows, total: Number(counted?.total ?? 0) };
    },

    videoTraffic(contentItemId: number) {
      return queryRows<{ source_type: string; views: number; watch_time_minutes: number | null; as_of: string | Date }>(
        db,
        sql`select source_type, views, watch_time_minutes, as_of from youtube_video_traffic
          where content_item_id = ${contentItemId} order by views desc, source_type`,
      );
    },

    /** The stored period closest to `days` from above (or the longest stored when none is that long). */
    demographics(connectionId: number, days: number) {
      return queryRows<{ demographic_type: string; demographic_value: string; viewer_percentage: number; period_days: number }>(
        db,
        sql`with chosen as (
            select coalesce(
              (select min(period_days) from youtube_demographics where connection_id = ${connectionId} and period_days >= ${days}),
              (select max(period_days) from youtube_demographics where connection_id = ${connectionId})
            ) as period_days
          )
          select d.demographic_type, d.demographic_value, d.viewer_percentage, d.period_days
          from youtube_demographics d join chosen on chosen.period_days = d.period_days
          where d.connection_id = ${connectionId}
          order by d.viewer_percentage desc, d.demographic_type, d.demographic_value`,
      );
    },

    /** The channel's daily totals summed over [startDate, endDate]; a metric without any row is null. */
    async channelTotals(connectionId: number, startDate: string, endDate: string) {
      const [row] = await queryRows<{
        views: number | null;
        watch_time_minutes: number | null;
        likes: number | null;
        comments: number | null;
        subscribers_gained: number | null;
        revenue: number | null;
        ad_revenue: number | null;
        monetized_playbacks: number | null;
        weighted_cpm: number | null;
      }>(
        db,
        sql`select
            sum(m.value) filter (where m.metric_type = 'views')::float8 as views,
            sum(m.value) filter (where m.metric_type = 'watch_time_minutes')::float8 as watch_time_minutes,
            sum(m.value) filter (where m.metric_type = 'likes')::float8 as likes,
            sum(m.value) filter (where m.metric_type = 'comments')::float8 as comments,
            sum(m.value) filter (where m.metric_type = 'subscribers_gained')::float8 as subscribers_gained,
            sum(m.value) filter (where m.metric_type = 'revenue')::float8 as revenue,
            sum(m.value) filter (where m.metric_type = 'ad_revenue')::float8 as ad_revenue,
            sum(m.value) filter (where m.metric_type = 'monetized_playbacks')::float8 as monetized_playbacks,
            -- YouTube's cpm is per day; the period's is the days' cpm weighted by their monetized playbacks.
            (select (sum(cpm.value * playbacks.value) / nullif(sum(playbacks.value), 0))::float8
              from account_metrics cpm join account_metrics playbacks
                on playbacks.connection_id = cpm.connection_id and playbacks.date = cpm.date and playbacks.metric_type = 'monetized_playbacks'
              where cpm.connection_id = ${connectionId} and cpm.metric_type = 'cpm' and cpm.date between ${startDate} and ${endDate}) as weighted_cpm
          from account_metrics m
          where m.connection_id = ${connectionId} and m.date between ${startDate} and ${endDate}
            and m.metric_type in ('views', 'watch_time_minutes', 'likes', 'comments', 'subscribers_gained', 'revenue', 'ad_revenue', 'monetized_playbacks')`,
      );
      return row!;
    },

    /** The channel's daily report over [startDate, endDate], one row per day with any of these metrics (missing: null). */
    channelDays(connectionId: number, startDate: string, endDate: string) {
      return queryRows<ChannelDayRow>(
        db,
        sql`select date::text as date,
            max(value) filter (where metric_type = 'views')::float8 as views,
            max(value) filter (where metric_type = 'watch_time_minutes')::float8 as watch_time_minutes,
            max(value) filter (where metric_type = 'subscribers_gained')::float8 as subscribers_gained,
            max(value) filter (where metric_type = 'subscribers_lost')::float8 as subscribers_lost,
            max(value) filter (where metric_type = 'subscribers')::float8 as subscribers
          from account_metrics
          where connection_id = ${connectionId} and date between ${startDate} and ${endDate}
            and metric_type in ('views', 'watch_time_minutes', 'subscribers_gained', 'subscribers_lost', 'subscribers')
          group by date order by date`,
      );
    },

    /** A video's lifetime view count as read on each day a sync read it, oldest first. */
    videoViewReads(contentItemId: number) {
      return queryRows<{ date: string; views: number }>(
        db,
        sql`select as_of::text as date, value::float8 as views from content_metrics
          where content_item_id = ${contentItemId} and metric_type = 'views' order by as_of`,
      );
    },

    revenueTrend(connectionId: number, startDate: string, endDate: string) {
      return queryRows<{ date: string; revenue: number }>(
        db,
        sql`select date::text as date, value::float8 as revenue from account_metrics
          where connection_id = ${connectionId} and metric_type = 'revenue' and date between ${startDate} and ${endDate}
          order by date`,
      );
    },

    /** The videos with the highest lifetime revenue (per-video revenue is stored as lifetime totals). */
    topEarningVideos(connectionId: number, limit: number) {
      return queryRows<{ id: number; video_id: string; title: string; revenue: number; views: number }>(
        db,
        sql`select ci.id, yv.video_id, ci.title, yv.estimated_revenue::float8 as revenue, coalesce(yv.views, 0)::float8 as views
          from youtube_videos yv join content_items ci on ci.id = yv.content_item_id
          where yv.connection_id = ${connectionId} and yv.estimated_revenue is not null
          order by yv.estimated_revenue desc, ci.id limit ${limit}`,
      );
    },

    /** The channel's views per traffic source over [startDate, endDate]. */
    trafficBySource(connectionId: number, startDate: string, endDate: string) {
      return queryRows<{ source_type: string; views: number }>(
        db,
        sql`select source_type, sum(views)::float8 as views from youtube_channel_traffic
          where connection_id = ${connectionId} and date between ${startDate} and ${endDate}
          group by source_type having sum(views) > 0 order by 2 desc, source_type`,
      );
    },

    /** The channel's videos; with `publishedThrough`, those published by the end of that day (or without a date). */
    async countVideos(connectionId: number, publishedThrough?: string): Promise<number> {
      const published = publishedThrough ? sql` and (published_at is null or published_at < ((${publishedThrough}::date + 1)::timestamp at time zone 'UTC'))` : sql``;
      const [row] = await queryRows<{ total: string }>(db, sql`select count(*)::text as total from content_items where connection_id = ${connectionId}${published}`);
      return Number(row?.total ?? 0);
    },

    /** The newest day of the daily channel report and of the revenue report (server/db/freshness.ts). */
    async reportDays(connectionId: number): Promise<{ completeThrough: string | null; revenueCompleteThrough: string | null }> {
      const [row] = await queryRows<{ complete_through: string | null; revenue_complete_through: string | null }>(
        db,
        sql`select (${completeThroughOf('c')})::text as complete_through, (${revenueCompleteThroughOf('c')})::text as revenue_complete_through
          from platform_connections c where c.id = ${connectionId}`,
      );
      return { completeThrough: row?.complete_through ?? null, revenueCompleteThrough: row?.revenue_complete_through ?? null };
    },

    /** Every video with the numbers the insights engine compares. */
    async insightVideos(connectionId: number) {
      const rows = await queryRows<{
        video_id: string;
        title: string;
        published_at: string | Date | null;
        duration_seconds: number | null;
        views: number;
        likes: number | null;
        comments: number | null;
        click_through_rate: number | null;
        average_view_percentage: number | null;
        early_views: unknown;
        retention: unknown;
      }>(
        db,
        sql`select coalesce(yv.video_id, ci.platform_content_id) as video_id, ci.title, ci.published_at, yv.duration_seconds,
            coalesce(yv.views, 0)::float8 as views, yv.likes, yv.comments, yv.click_through_rate, yv.average_view_percentage,
            yv.early_views, yv.retention
          from content_items ci left join youtube_videos yv on yv.content_item_id = ci.id
          where ci.connection_id = ${connectionId}
          order by ci.id`,
      );
      return rows.map((row) => ({
        ...row,
        published_at: row.published_at ? new Date(row.published_at) : null,
        views: Number(row.views),
        likes: toNumber(row.likes),
        comments: toNumber(row.comments),
        click_through_rate: toNumber(row.click_through_rate),
        average_view_percentage: toNumber(row.average_view_percentage),
      }));
    },

    channelTraffic(connectionId: number, sinceDate: string) {
      return queryRows<{ date: string; sourceType: string; views: number }>(
        db,
        sql`select date::text as date, source_type as "sourceType", views::float8 as views from youtube_channel_traffic
          where connection_id = ${connectionId} and date >= ${sinceDate} order by date, source_type`,
      );
    },

    dailyViewsAndRevenue(connectionId: number, sinceDate: string) {
      return queryRows<{ date: string; views: number | null; revenue: number | null }>(
        db,
        sql`select date::text as date,
            sum(value) filter (where metric_type = 'views')::float8 as views,
            sum(value) filter (where metric_type = 'revenue')::float8 as revenue
          from account_metrics
          where connection_id = ${connectionId} and date >= ${sinceDate} and metric_type in ('views', 'revenue')
          group by date order by date`,
      );
    },

    /**
     * Replaces the channel's insights with a newly generated batch: a run that finds nothing must not leave the
     * previous run's claims standing. The evidence is kept in the facts column (jsonb) under `evidence`.
     */
    async replaceInsights(
      connectionId: number,
      insights: {
        insightType: string;
        title: string;
        recommendation: string;
        confidenceScore: number;
        facts: Record<string, number | string>;
        evidence: InsightEvidence;
        videoId: string | null;
      }[],
      createdAt: Date,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(youtubeInsights).where(eq(youtubeInsights.connectionId, connectionId));
        if (insights.length > 0) {
          await tx.insert(youtubeInsights).values(
            insights.map(({ facts, evidence, ...insight }) => ({ connectionId, ...insight, facts: { ...facts, [EVIDENCE_KEY]: evidence }, createdAt })),
          );
        }
      });
    },

    /** The channel's current insights (the latest batch), most confident first. */
    latestInsights(connectionId: number) {
      return queryRows<{
        id: number;
        insight_type: string;
        title: string;
        recommendation: string;
        confidence_score: number;
        facts: Record<string, unknown>;
        video_id: string | null;
        created_at: string | Date;
      }>(
        db,
        sql`select id, insight_type, title, recommendation, confidence_score, facts, video_id, created_at from youtube_insights
          where connection_id = ${connectionId}
          order by confidence_score desc, id`,
      );
    },
  };
}

export type YoutubeRepository = ReturnType<typeof createYoutubeRepository>;
