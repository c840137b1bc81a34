// The YouTube section (spec section 7, /api/youtubeanalytics): the user's channel resolved once per call, its numbers
// shaped into the contract and the spec's fallbacks applied only where YouTube reported nothing (and flagged). The
// insights and viral potential (youtube-insights.service.ts) are composed in.
import type { FastifyBaseLogger } from 'fastify';
import {
  DEFAULT_VIDEO_PAGE_SIZE,
  DEFAULT_YOUTUBE_DAYS,
  type Demographic,
  type EstimatedVideoField,
  normalizeRetentionData,
  type PerformanceSummary,
  type RetentionPoint,
  type RevenueAccess,
  type RevenueAnalytics,
  TOP_EARNING_VIDEOS,
  type TrafficSource,
  type YoutubeVideo,
  type YoutubeVideoDetail,
  type YoutubeVideosQuery,
  type YoutubeComparedTotals,
  type YoutubeComparison,
  type YoutubeVideosResponse,
} from '#contract/youtube.ts';
import { type ComparisonPeriod, type ComparisonRequest, resolveComparison } from '#contract/comparison.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import type { InsightRewriter } from './insights/rewrite.ts';
import { round } from './insights/statistics.ts';
import { engagementRateOf } from './insights/viral-potential.ts';
import { ensureRetention } from './retention.ts';
import { trafficSourceName } from './traffic-source-names.ts';
import type { TrafficFetcher } from './video-traffic.ts';
import { createVideoLookup } from './video-lookup.ts';
import { createYoutubeInsightsService } from './youtube-insights.service.ts';
import { channelTrendDays, videoViewsHistory } from './view-history.ts';
import type { ChannelRow, VideoDetailRow, VideoRow, YoutubeRepository } from './youtube.repository.ts';

/** The spec's fallbacks (section 3): ad revenue is 80 % of revenue, impressions 1.2 × views. */
const AD_REVENUE_SHARE = 0.8;
const IMPRESSIONS_PER_VIEW = 1.2;
/** Demographics are stored for 7, 30, 90 and 365 days. */
const MAX_DEMOGRAPHIC_DAYS = 365;
/** How far back the insights engine reads daily series (two 28-day windows plus YouTube's reporting delay). */


export interface RetentionFetcher {
  /**
   * The video's retention curve, read from YouTube when the cached one is missing or older than a day (and then
   * cached). Throws when YouTube cannot be read.
   */
  ensure(
    userId: number,
    connectionId: number,
    video: { contentItemId: number; videoId: string; publishedAt: Date | null; retention: unknown; retentionFetchedAt: Date | null },
  ): Promise<RetentionPoint[]>;
}

/** The on-demand retention read (retention.ts) for a connection of the user, with the user's token. */
export function createRetentionFetcher({
  db,
  custody,
  platformsRepository,
  clock,
}: {
  db: Database;
  custody: Pick<TokenCustody, 'withPlatformAccess'>;
  platformsRepository: Pick<PlatformsRepository, 'findConnection'>;
  clock: Clock;
}): RetentionFetcher {
  return {
    async ensure(userId, connectionId, video) {
      const connection = await platformsRepository.findConnection(userId, connectionId);
      if (!connection) throw new AppError('not_found', 'No such connection.');
      return ensureRetention({ db, custody, clock }, connection, video);
    },
  };
}

export interface YoutubeServiceDeps {
  repository: YoutubeRepository;
  clock: Clock;
  /** Queues a sync of the connection (the sync jobs' enqueue). */
  enqueueSync: (connectionId: number) => Promise<{ jobId: string; status: 'queued' | 'running' }>;
  retention?: RetentionFetcher;
  /** Reads a video's traffic sources on demand (video-traffic.ts). */
  traffic?: TrafficFetcher;
  rewrite?: InsightRewriter;
  logger: FastifyBaseLogger;
}

const toNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const toIso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
const money = (value: number) => round(value, 2);

/** A video in the contract's shape: revenue only with revenue access; fallbacks only for missing values, flagged. */
function toVideo(row: VideoRow, revenueAccess: RevenueAccess): YoutubeVideo {
  const estimatedFields: EstimatedVideoField[] = [];
  const views = Number(row.views);
  const revenueVisible = revenueAccess === 'available';
  const revenue = revenueVisible ? toNumber(row.estimated_revenue) : null;
  let adRevenue = revenueVisible ? toNumber(row.estimated_ad_revenue) : null;
  if (adRevenue === null && revenue !== null) {
    adRevenue = money(revenue * AD_REVENUE_SHARE);
    estimatedFields.push('estimatedAdRevenue');
  }
  let cpm = revenueVisible ? toNumber(row.cpm) : null;
  if (cpm === null && revenue !== null && views > 0) {
    cpm = money((revenue / views) * 1000);
    estimatedFields.push('cpm');
  }
  let impressions = toNumber(row.impressions);
  if (impressions === null) {
    impressions = Math.round(views * IMPRESSIONS_PER_VIEW);
    estimatedFields.push('impressions');
  }
  const likes = toNumber(row.likes);
  const comments = toNumber(row.comments);
  // YouTube reports no engagement rate: it is the spec's (likes + comments) / views × 100 of real counts, exact
  // rather than estimated, so it is not flagged; without likes or comments it is null.
  const engagement = engagementRateOf({ views, likes, comments });
  return {
    id: Number(row.id),
    videoId: row.video_id,
    title: row.title,
    description: row.description,
    url: row.url ?? `https://www.youtube.com/watch?v=${row.video_id}`,
    thumbnailUrl: row.thumbnail_url,
    publishedAt: toIso(row.published_at),
    durationSeconds: toNumber(row.duration_seconds),
    views,
    watchTimeMinutes: toNumber(row.watch_time_minutes),
    likes,
    comments,
    engagementRate: engagement === null ? null : round(engagement, 2),
    estimatedRevenue: revenue,
    estimatedAdRevenue: adRevenue,
    cpm,
    impressions,
    clickThroughRate: toNumber(row.click_through_rate),
    averagePercentageViewed: toNumber(row.average_view_percentage),
    estimatedFields,
  };
}

/** Stored demographic rows in the contract's words: "female age25-34" → "female 25-34", "age65-" → "65+". */
function toDemographic(row: { demographic_type: string; demographic_value: string; viewer_percentage: number }): Demographic | undefined {
  const types = ['ageGender', 'age', 'gender', 'country'] as const;
  const type = types.find((candidate) => candidate === row.demographic_type);
  if (!type) return undefined;
  const value = row.demographic_value.replace(/\bage(\d+)-(?!\d)/g, '$1+').replace(/\bage(?=\d)/g, '');
  return { demographicType: type, demographicValue: value, viewsPercentage: round(Number(row.viewer_percentage), 2) };
}

type ChannelTotals = Awaited<ReturnType<YoutubeRepository['channelTotals']>>;

/** A side of the comparison: null where the period has no report rows (or YouTube lets us read none). */
function comparedTotals(totals: ChannelTotals, totalVideos: number, access: { analytics: boolean; revenue: boolean }): YoutubeComparedTotals {
  const views = access.analytics ? toNumber(totals.views) : null;
  const engagements = (toNumber(totals.likes) ?? 0) + (toNumber(totals.comments) ?? 0);
  const watchTime = access.analytics ? toNumber(totals.watch_time_minutes) : null;
  const revenue = access.revenue ? toNumber(totals.revenue) : null;
  return {
    totalVideos,
    totalViews: views,
    totalWatchTime: watchTime === null ? null : round(watchTime, 1),
    averageEngagement: views !== null && views > 0 ? round((engagements / views) * 100, 2) : null,
    totalRevenue: revenue === null ? null : money(revenue),
  };
}

function emptyRevenue(): RevenueAnalytics {
  return {
    totalRevenue: null,
    previousPeriodRevenue: null,
    changePercent: null,
    rpm: null,
    cpm: null,
    monetizedViews: null,
    adRevenue: null,
    otherRevenue: null,
    monthlyProjection: null,
    trend: [],
    topEarningVideos: [],
    revenueBySource: [],
    estimatedFields: [],
  };
}

export function createYoutubeService({ repository, clock, enqueueSync, retention, traffic, rewrite, logger }: YoutubeServiceDeps) {
  const periodOf = (days: number) => {
    const endDate = dayOf(clock.now());
    return { startDate: addDays(endDate, -(days - 1)), endDate };
  };
  const requireVideo = createVideoLookup(repository);
  const { insights, generateInsights, viralPotential } = createYoutubeInsightsService({ repository, clock, rewrite, requireVideo });

  async function videos(userId: number, query: YoutubeVideosQuery): Promise<YoutubeVideosResponse> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_VIDEO_PAGE_SIZE;
    const channel = await repository.activeChannel(userId);
    if (!channel) return { connected: false, revenueAccess: 'missingScope', videos: [], page, pageSize, total: 0, lastSyncedAt: null };
    const { rows, total } = await repository.videosPage(channel.connectionId, {
      publishedSince: query.days ? new Date(`${periodOf(query.days).startDate}T00:00:00Z`) : undefined,
      search: query.search || undefined,
      sort: query.sort ?? 'publishedAt',
      order: query.order ?? (query.sort === 'title' ? 'asc' : 'desc'),
      revenueVisible: channel.revenueAccess === 'available',
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return {
      connected: true,
      revenueAccess: channel.revenueAccess,
      videos: rows.map((row) => toVideo(row, channel.revenueAccess)),
      page,
      pageSize,
      total,
      lastSyncedAt: channel.lastSyncedAt?.toISOString() ?? null,
    };
  }

  async function video(userId: number, id: string): Promise<YoutubeVideoDetail> {
    const { channel, row } = await requireVideo(userId, id);
    let retentionData = normalizeRetentionData(row.retention);
    if (retention) {
      try {
        retentionData = normalizeRetentionData(
          await retention.ensure(userId, channel.connectionId, {
            contentItemId: Number(row.id),
            videoId: row.video_id,
            publishedAt: row.published_at ? new Date(row.published_at) : null,
            retention: row.retention,
            retentionFetchedAt: row.retention_fetched_at ? new Date(row.retention_fetched_at) : null,
          }),
        );
      } catch (error) {
        // YouTube unreachable or the connection needs reconnecting: the cached curve (possibly none) still answers.
        logger.warn({ connectionId: channel.connectionId, contentItemId: Number(row.id), error: (error as Error).name }, 'retention refresh failed; answering the cached curve');
      }
    }
    const video = toVideo(row, channel.revenueAccess);
    const reads = await repository.videoViewReads(Number(row.id));
    const viewsHistory = videoViewsHistory(row.published_at ? new Date(row.published_at) : null, row.early_views, reads);
    // Only a reported figure has a start; the 1.2 × views estimate stands for the video's whole life.
    const impressionsSince = channel.reachSince && !video.estimatedFields.includes('impressions') ? channel.reachSince.toISOString() : null;
    return { ...video, retentionData, revenueAccess: channel.revenueAccess, impressionsSince, countersReadAt: toIso(row.stats_updated_at), viewsHistory };
  }

  async function trafficSources(userId: number, id: string): Promise<TrafficSource[]> {
    const { channel, row } = await requireVideo(userId, id);
    let rows = await repository.videoTraffic(Number(row.id));
    if (traffic) {
      // Any video, not only those the sync reads: missing or day-old sources are read from YouTube now.
      const readAt = rows.length > 0 ? new Date(Math.min(...rows.map((source) => new Date(source.as_of).getTime()))) : null;
      const video = { contentItemId: Number(row.id), videoId: row.video_id, publishedAt: row.published_at ? new Date(row.published_at) : null, readAt };
      try {
        if (await traffic.refreshIfStale(userId, channel.connectionId, video)) rows = await repository.videoTraffic(Number(row.id));
      } catch (error) {
        // YouTube unreachable or the connection needs reconnecting: the stored sources (possibly none) still answer.
        logger.warn({ connectionId: channel.connectionId, contentItemId: Number(row.id), error: (error as Error).name }, 'traffic sources refresh failed; answering the stored ones');
      }
    }
    const total = rows.reduce((sum, source) => sum + Number(source.views), 0);
    return rows.map((source) => ({
      id: `${row.id}:${source.source_type}`,
      source: trafficSourceName(source.source_type),
      sourceType: source.source_type,
      views: Number(source.views),
      watchTimeMinutes: toNumber(source.watch_time_minutes),
      percentage: total > 0 ? round((Number(source.views) / total) * 100, 1) : 0,
    }));
  }

  async function demographics(userId: number, days = DEFAULT_YOUTUBE_DAYS): Promise<Demographic[]> {
    const channel = await repository.activeChannel(userId);
    if (!channel) return [];
    const rows = await repository.demographics(channel.connectionId, Math.min(days, MAX_DEMOGRAPHIC_DAYS));
    return rows.flatMap((row) => toDemographic(row) ?? []);
  }

  async function revenuePanel(channel: ChannelRow, days: number, views: number, totals: ChannelTotals, comparison: YoutubeComparison | null): Promise<RevenueAnalytics> {
    if (channel.revenueAccess !== 'available') return emptyRevenue();
    const { startDate, endDate } = periodOf(days);
    const [trend, topVideos, sources] = await Promise.all([
      repository.revenueTrend(channel.connectionId, startDate, endDate),
      repository.topEarningVideos(channel.connectionId, TOP_EARNING_VIDEOS),
      repository.trafficBySource(channel.connectionId, startDate, endDate),
    ]);
    const estimatedFields: RevenueAnalytics['estimatedFields'] = [];
    const total = toNumber(totals.revenue) ?? 0;
    // The change compares like with like: the comparison's revenue against the current period's over the same days.
    const previousRevenue = comparison?.totals.totalRevenue ?? null;
    const comparedRevenue = comparison?.currentTotals.totalRevenue ?? null;
    let adRevenue = toNumber(totals.ad_revenue);
    if (adRevenue === null && total > 0) {
      adRevenue = total * AD_REVENUE_SHARE;
      estimatedFields.push('adRevenue');
    }
    let cpm = toNumber(totals.weighted_cpm);
    if (cpm === null && total > 0 && views > 0) {
      cpm = (total / views) * 1000;
      estimatedFields.push('cpm');
    }
    // Revenue by source is an estimate: YouTube reports no revenue per traffic source, so the period's revenue is
    // shared out in proportion to the views each source brought.
    const bySource = new Map<string, number>();
    for (const source of sources) {
      const name = trafficSourceName(source.source_type);
      bySource.set(name, (bySource.get(name) ?? 0) + Number(source.views));
    }
    const sourceViews = [...bySource.values()].reduce((sum, value) => sum + value, 0);
    return {
      totalRevenue: money(total),
      previousPeriodRevenue: previousRevenue === null ? null : money(previousRevenue),
      changePercent:
        previousRevenue !== null && previousRevenue > 0 && comparedRevenue !== null ? round(((comparedRevenue - previousRevenue) / previousRevenue) * 100, 1) : null,
      rpm: views > 0 ? money((total / views) * 1000) : null,
      cpm: cpm === null ? null : money(cpm),
      monetizedViews: toNumber(totals.monetized_playbacks),
      adRevenue: adRevenue === null ? null : money(adRevenue),
      otherRevenue: adRevenue === null ? null : money(Math.max(0, total - adRevenue)),
      monthlyProjection: monthlyProjectionOf(total, trend, startDate),
      trend: trend.map((point) => ({ date: point.date, revenue: money(Number(point.revenue)) })),
      topEarningVideos: topVideos.map((entry) => ({ id: Number(entry.id), videoId: entry.video_id, title: entry.title, revenue: money(Number(entry.revenue)), views: Number(entry.views) })),
      revenueBySource:
        sourceViews > 0
          ? [...bySource.entries()]
              .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
              .map(([source, sourceViewCount]) => ({
                source,
                revenue: money((total * sourceViewCount) / sourceViews),
                percentage: round((sourceViewCount / sourceViews) * 100, 1),
              }))
          : [],
      estimatedFields,
    };
  }

  /**
   * The cards' comparison (contract youtubeComparison): both periods cut at their end by the days the channel's report
   * has not reached yet, the comparison's revenue trend whole.
   */
  async function compareChannel(channel: ChannelRow, period: { startDate: string; endDate: string }, compared: ComparisonPeriod, completeThrough: string | null, totalVideos: number): Promise<YoutubeComparison> {
    const through = completeThrough !== null && completeThrough < period.endDate ? completeThrough : period.endDate;
    const lag = Math.round((Date.parse(period.endDate) - Date.parse(through)) / 86_400_000);
    const revenueVisible = channel.revenueAccess === 'available';
    const [current, previous, previousVideos, revenueTrend] = await Promise.all([
      repository.channelTotals(channel.connectionId, period.startDate, through),
      repository.channelTotals(channel.connectionId, compared.startDate, addDays(compared.endDate, -lag)),
      repository.countVideos(channel.connectionId, compared.endDate),
      revenueVisible ? repository.revenueTrend(channel.connectionId, compared.startDate, compared.endDate) : Promise.resolve([]),
    ]);
    const access = { analytics: channel.analyticsAccess, revenue: revenueVisible };
    return {
      ...compared,
      totals: comparedTotals(previous, previousVideos, access),
      currentTotals: comparedTotals(current, totalVideos, access),
      revenueTrend: revenueTrend.map((point) => ({ date: point.date, revenue: money(Number(point.revenue)) })),
    };
  }

  async function performanceSummary(userId: number, days = DEFAULT_YOUTUBE_DAYS, request: ComparisonRequest = {}): Promise<PerformanceSummary> {
    const period = periodOf(days);
    const compared = resolveComparison(period, request);
    if (compared !== null && 'error' in compared) throw new AppError('bad_request', compared.error);
    const channel = await repository.activeChannel(userId);
    if (!channel) {
      return {
        connected: false,
        channelTitle: null,
        days,
        ...period,
        totalVideos: 0,
        analyticsAccess: false,
        totalViews: null,
        totalWatchTime: null,
        averageEngagement: null,
        totalRevenue: null,
        subscribersGained: null,
        revenueAccess: 'missingScope',
        revenue: emptyRevenue(),
        comparison: null,
        lastSyncedAt: null,
        completeThrough: null,
        revenueCompleteThrough: null,
        channelTrend: [],
      };
    }
    const [totals, totalVideos, reportDays] = await Promise.all([
      repository.channelTotals(channel.connectionId, period.startDate, period.endDate),
      repository.countVideos(channel.connectionId),
      repository.reportDays(channel.connectionId),
    ]);
    // The charts end at the report's last complete day (YouTube lags 2–3 days), never at days it has not reached.
    const trendThrough = reportDays.completeThrough !== null && reportDays.completeThrough < period.endDate ? reportDays.completeThrough : period.endDate;
    const trendRows = channel.analyticsAccess && reportDays.completeThrough !== null ? await repository.channelDays(channel.connectionId, period.startDate, trendThrough) : null;
    const channelTrend = trendRows === null ? [] : channelTrendDays(trendRows, period.startDate, trendThrough);
    const comparison = compared ? await compareChannel(channel, period, compared, reportDays.completeThrough, totalVideos) : null;
    const views = toNumber(totals.views) ?? 0;
    const engagements = (toNumber(totals.likes) ?? 0) + (toNumber(totals.comments) ?? 0);
    const revenue = await revenuePanel(channel, days, views, totals, comparison);
    // With Analytics access, a period without report rows had no views: 0 is the answer. Without it, unknown.
    const reported = channel.analyticsAccess;
    return {
      connected: true,
      channelTitle: channel.title,
      days,
      ...period,
      totalVideos,
      analyticsAccess: reported,
      totalViews: reported ? views : null,
      totalWatchTime: reported ? round(toNumber(totals.watch_time_minutes) ?? 0, 1) : null,
      averageEngagement: reported ? (views > 0 ? round((engagements / views) * 100, 2) : 0) : null,
      totalRevenue: revenue.totalRevenue,
      subscribersGained: reported ? (toNumber(totals.subscribers_gained) ?? 0) : null,
      revenueAccess: channel.revenueAccess,
      revenue,
      comparison,
      lastSyncedAt: channel.lastSyncedAt?.toISOString() ?? null,
      completeThrough: reportDays.completeThrough,
      revenueCompleteThrough: channel.revenueAccess === 'available' ? reportDays.revenueCompleteThrough : null,
      channelTrend,
    };
  }

  async function sync(userId: number) {
    const channel = await repository.activeChannel(userId);
    if (!channel) throw new AppError('not_found', 'No YouTube channel is connected.');
    const { jobId, status } = await enqueueSync(channel.connectionId);
    return { connectionId: channel.connectionId, jobId, status };
  }

  return { videos, video, trafficSources, demographics, performanceSummary, sync, insights, generateInsights, viralPotential };
}

export type YoutubeService = ReturnType<typeof createYoutubeService>;

/**
 * Revenue per reported day × 30. YouTube's report runs days behind, and a channel's history can start inside the
 * period, so the divisor is the days from the first to the last day YouTube reported, never the period's length
 * (which would read the unreported days as days of no revenue). Null before YouTube has reported any day.
 */
export function monthlyProjectionOf(total: number, trend: readonly { date: string }[], startDate: string): number | null {
  if (trend.length === 0) return null;
  const first = trend[0]!.date > startDate ? trend[0]!.date : startDate;
  const last = trend[trend.length - 1]!.date;
  const reportedDays = Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000) + 1;
  return reportedDays > 0 ? money((total / reportedDays) * 30) : null;
}
