// The /api/youtubeanalytics calls (spec section 7, YouTube page). Premium: every one is behind the 402 gate.
// A user without an active YouTube connection gets well-formed empty answers with `connected: false`.
import { z } from 'zod';
import { comparisonPeriod, comparisonQueryFields } from './comparison.ts';
import { insightEvidence } from './insight-evidence.ts';
import { syncStatus } from './sync-status.ts';

export const YOUTUBE_DATE_RANGES = [7, 30, 90] as const;
export const DEFAULT_YOUTUBE_DAYS = 30;
export const MAX_YOUTUBE_DAYS = 730;
export const DEFAULT_VIDEO_PAGE_SIZE = 25;
export const MAX_VIDEO_PAGE_SIZE = 100;
/** Spec section 9: insights shown 4, demographics 6, top earning videos 5. */
export const INSIGHTS_SHOWN = 4;
export const DEMOGRAPHICS_SHOWN = 6;
export const TOP_EARNING_VIDEOS = 5;

const intString = (min: number, max: number, label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));

/** `days` counts back from today (today included), UTC calendar days. */
export const youtubeDaysQuery = z.strictObject({ days: intString(1, MAX_YOUTUBE_DAYS, 'days').optional() });
export type YoutubeDaysQuery = z.infer<typeof youtubeDaysQuery>;

/** GET /api/youtubeanalytics/performance-summary: the period, and what it is compared with (default previous). */
export const youtubePerformanceQuery = youtubeDaysQuery.extend(comparisonQueryFields);
export type YoutubePerformanceQuery = z.infer<typeof youtubePerformanceQuery>;

export const VIDEO_SORT_KEYS = ['publishedAt', 'views', 'watchTime', 'engagement', 'revenue', 'ctr', 'title'] as const;
export type VideoSortKey = (typeof VIDEO_SORT_KEYS)[number];

/**
 * GET /api/youtubeanalytics/videos. Without `days`: every video of the channel; with `days`: the videos published
 * in the last `days` days. Paged and sorted on the server (a channel can hold thousands of videos).
 */
export const youtubeVideosQuery = z.strictObject({
  days: intString(1, MAX_YOUTUBE_DAYS, 'days').optional(),
  page: intString(1, 100_000, 'page').optional(),
  pageSize: intString(1, MAX_VIDEO_PAGE_SIZE, 'pageSize').optional(),
  sort: z.enum(VIDEO_SORT_KEYS, { error: `sort must be one of ${VIDEO_SORT_KEYS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  /** Case-insensitive substring of the title. */
  search: z.string().trim().max(200).optional(),
});
export type YoutubeVideosQuery = z.infer<typeof youtubeVideosQuery>;

/** `{id}` is our video id (a number) or YouTube's videoId (11 characters). */
export const youtubeVideoParams = z.strictObject({
  id: z
    .string()
    .trim()
    .regex(/^(\d{1,10}|[A-Za-z0-9_-]{11})$/, 'id must be a video id'),
});

/** Why revenue fields are null: `available` means they are real numbers. */
export const revenueAccess = z.enum(['available', 'missingScope', 'notMonetized']);
export type RevenueAccess = z.infer<typeof revenueAccess>;

/**
 * Fields of a video whose value was computed with the spec's fallback because YouTube did not report it. The
 * engagement rate is never listed: YouTube has none, and (likes + comments) / views × 100 of real counts is exact.
 */
export const estimatedVideoField = z.enum(['estimatedAdRevenue', 'cpm', 'impressions']);
export type EstimatedVideoField = z.infer<typeof estimatedVideoField>;

/** One point of an audience retention curve (elapsedVideoTimeRatio 0.01 … 1.0). */
export const retentionPoint = z.object({
  timeRatio: z.number(),
  /** audienceWatchRatio; above 1 means rewatches. */
  watchRatio: z.number(),
  /** relativeRetentionPerformance 0–1 (0.5 = median of videos of similar length); null when not reported. */
  relativePerformance: z.number().nullable(),
});
export type RetentionPoint = z.infer<typeof retentionPoint>;

/**
 * Spec section 3, "YouTube video". Counters are lifetime values as of the last sync. Money in USD. A field YouTube
 * did not report and the spec gives no fallback for is null; a fallback value is listed in `estimatedFields`.
 */
export const youtubeVideo = z.object({
  id: z.number().int(),
  videoId: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  publishedAt: z.iso.datetime().nullable(),
  durationSeconds: z.number().nullable(),
  views: z.number(),
  watchTimeMinutes: z.number().nullable(),
  likes: z.number().nullable(),
  comments: z.number().nullable(),
  /** Percent, e.g. 6.4. */
  engagementRate: z.number().nullable(),
  estimatedRevenue: z.number().nullable(),
  estimatedAdRevenue: z.number().nullable(),
  cpm: z.number().nullable(),
  impressions: z.number().nullable(),
  /** Percent, e.g. 5.1 for 5.1 % (Reporting API reach report); null when not available. */
  clickThroughRate: z.number().nullable(),
  /** Percent 0–100 (averageViewPercentage). */
  averagePercentageViewed: z.number().nullable(),
  estimatedFields: z.array(estimatedVideoField),
});
export type YoutubeVideo = z.infer<typeof youtubeVideo>;

export const youtubeVideosResponse = z.object({
  connected: z.boolean(),
  revenueAccess,
  videos: z.array(youtubeVideo),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Videos matching the query over all pages. */
  total: z.number().int(),
  lastSyncedAt: z.iso.datetime().nullable(),
});
export type YoutubeVideosResponse = z.infer<typeof youtubeVideosResponse>;

/**
 * One day of a video's views. `daily`: YouTube's own daily report, which Analytics Hub reads for a video's first 28
 * days after publishing (index 0 the publishing day); a day not reported yet is absent. `totals`: the video's lifetime
 * view count as Analytics Hub read it from YouTube on that day (daily while a video is under 30 days old, at least
 * weekly after); a day without a read is null, never carried over.
 */
export const videoViewsDay = z.object({ date: z.string(), views: z.number().nullable() });
export type VideoViewsDay = z.infer<typeof videoViewsDay>;
export const videoViewsHistory = z.object({
  daily: z.array(videoViewsDay),
  totals: z.array(videoViewsDay),
});
export type VideoViewsHistory = z.infer<typeof videoViewsHistory>;

/** GET /api/youtubeanalytics/videos/{id}: the video with its retention curve (empty when YouTube has none). */
export const youtubeVideoDetailResponse = youtubeVideo.extend({
  retentionData: z.array(retentionPoint),
  revenueAccess,
  /**
   * Impressions and click-through rate count from this instant: YouTube's reach reports begin about 30 days before
   * Analytics Hub first asked for them, so older videos' impressions cover less than their views. Null when the
   * impressions are the 1.2 × views estimate or no reach report was read.
   */
  impressionsSince: z.iso.datetime().nullable(),
  /**
   * When the views, likes and comments were read from YouTube: daily for videos of the last 30 days, at least weekly
   * for older ones (Data API quota). Null when never read.
   */
  countersReadAt: z.iso.datetime().nullable(),
  viewsHistory: videoViewsHistory,
});
export type YoutubeVideoDetail = z.infer<typeof youtubeVideoDetailResponse>;

/** Spec section 3 "Traffic source". `source` is a readable name; `sourceType` YouTube's insightTrafficSourceType. */
export const trafficSource = z.object({
  id: z.string(),
  source: z.string(),
  sourceType: z.string(),
  views: z.number(),
  watchTimeMinutes: z.number().nullable(),
  /** Percent of the video's views, one decimal. */
  percentage: z.number(),
});
export type TrafficSource = z.infer<typeof trafficSource>;
export const trafficSourcesResponse = z.array(trafficSource);

/**
 * Spec section 3 "Demographic". demographicType `ageGender` (value like "female 25-34"), `age`, `gender` or `country`
 * (ISO 3166 alpha-2); viewsPercentage in percent.
 */
export const demographic = z.object({
  demographicType: z.enum(['ageGender', 'age', 'gender', 'country']),
  demographicValue: z.string(),
  viewsPercentage: z.number(),
});
export type Demographic = z.infer<typeof demographic>;
export const demographicsResponse = z.array(demographic);

export const revenueTrendPoint = z.object({ date: z.string(), revenue: z.number() });
export const revenueBySource = z.object({
  source: z.string(),
  /** Estimated revenue in USD: the period's revenue shared out by the views each traffic source brought. */
  revenue: z.number(),
  percentage: z.number(),
});
/** A video's lifetime revenue and views as of the last sync (YouTube reports per-video revenue as totals). */
export const topEarningVideo = z.object({ id: z.number().int(), videoId: z.string(), title: z.string(), revenue: z.number(), views: z.number() });

/** Panel fields computed with the spec's fallbacks because YouTube reported none for the period. */
export const estimatedRevenueField = z.enum(['adRevenue', 'cpm']);

/** The Revenue Analytics panel for the period; null fields when revenue is not available (see revenueAccess). */
export const revenueAnalytics = z.object({
  totalRevenue: z.number().nullable(),
  /**
   * The comparison period's revenue (the same number of days just before the period unless `compare` says
   * otherwise), over the days compared (see youtubeComparison); null without a comparison or without revenue rows in it.
   */
  previousPeriodRevenue: z.number().nullable(),
  /** Percent change versus the comparison period, like with like; null when it earned nothing or is unknown. */
  changePercent: z.number().nullable(),
  /** Revenue per 1,000 views. */
  rpm: z.number().nullable(),
  /** YouTube's cpm (ad revenue per 1,000 ad impressions) over the period, weighted by monetized playbacks. */
  cpm: z.number().nullable(),
  monetizedViews: z.number().nullable(),
  adRevenue: z.number().nullable(),
  /** totalRevenue − adRevenue (YouTube Premium and other sources). */
  otherRevenue: z.number().nullable(),
  /** revenue / days × 30 (spec section 9). */
  monthlyProjection: z.number().nullable(),
  trend: z.array(revenueTrendPoint),
  topEarningVideos: z.array(topEarningVideo),
  /**
   * An estimate, labelled as such in the UI: YouTube reports no revenue per traffic source, so the period's revenue
   * is shared out in proportion to the views each source brought (channel views by insightTrafficSourceType).
   */
  revenueBySource: z.array(revenueBySource),
  /** adRevenue = 80 % of revenue when YouTube reported no ad revenue; cpm = revenue / views × 1000 when it reported no cpm. */
  estimatedFields: z.array(estimatedRevenueField),
});
export type RevenueAnalytics = z.infer<typeof revenueAnalytics>;

/**
 * One side of the YouTube cards' comparison. A period figure is null when the channel has no report rows for it in
 * that period (no data, never 0), or when YouTube does not let Analytics Hub read it.
 */
export const youtubeComparedTotals = z.object({
  /** Videos published by the period's last day (the channel's videos today on the current side). */
  totalVideos: z.number().int(),
  totalViews: z.number().nullable(),
  totalWatchTime: z.number().nullable(),
  /** Percent; null when the period has no views to measure against. */
  averageEngagement: z.number().nullable(),
  totalRevenue: z.number().nullable(),
});
export type YoutubeComparedTotals = z.infer<typeof youtubeComparedTotals>;

/**
 * The comparison of the period with another (compare=previous|year|custom; null with compare=none). A card's change
 * is currentTotals against totals: the channel's report lags 2–3 days, so both periods are cut at their end by the
 * days the current one has no report for yet (completeThrough).
 */
export const youtubeComparison = comparisonPeriod.extend({
  totals: youtubeComparedTotals,
  currentTotals: youtubeComparedTotals,
  /** Revenue per day over the whole comparison period (the Revenue Trend chart overlays it, dashed); empty without revenue access. */
  revenueTrend: z.array(revenueTrendPoint),
});
export type YoutubeComparison = z.infer<typeof youtubeComparison>;

/**
 * One day of the channel's daily report (YouTube Analytics, its own numbers). A figure YouTube did not report for
 * the day is null, never 0. `subscribers` is the channel's subscriber total at the end of the day, derived backwards
 * from today's count with each later day's reported gains and losses (YouTube reports only the daily changes).
 */
export const youtubeChannelDay = z.object({
  date: z.string(),
  views: z.number().nullable(),
  watchTimeMinutes: z.number().nullable(),
  subscribersGained: z.number().nullable(),
  subscribersLost: z.number().nullable(),
  subscribers: z.number().nullable(),
});
export type YoutubeChannelDay = z.infer<typeof youtubeChannelDay>;

/** GET /api/youtubeanalytics/performance-summary?days: spec section 3 "Performance summary" plus the revenue panel. */
export const performanceSummaryResponse = z.object({
  connected: z.boolean(),
  channelTitle: z.string().nullable(),
  days: z.number().int(),
  /** The period (YYYY-MM-DD, inclusive): the last `days` days, today included. */
  startDate: z.string(),
  endDate: z.string(),
  totalVideos: z.number().int(),
  /**
   * False when the user did not let Analytics Hub read YouTube Analytics (only youtube.readonly granted): the four
   * period figures below come from those reports, so they are null (unknown), never 0.
   */
  analyticsAccess: z.boolean(),
  /** Views in the period (daily channel report). */
  totalViews: z.number().nullable(),
  /** Minutes watched in the period. */
  totalWatchTime: z.number().nullable(),
  /** Percent: (likes + comments) / views × 100 over the period. */
  averageEngagement: z.number().nullable(),
  totalRevenue: z.number().nullable(),
  subscribersGained: z.number().nullable(),
  revenueAccess,
  revenue: revenueAnalytics,
  comparison: youtubeComparison.nullable(),
  lastSyncedAt: z.iso.datetime().nullable(),
  /** The newest day of the daily channel report (YouTube Analytics lags 2–3 days); null before any. */
  completeThrough: z.string().nullable(),
  /** The newest day of the daily revenue report; null before any or without revenue access. */
  revenueCompleteThrough: z.string().nullable(),
  /**
   * The channel's days from startDate through the last complete day of the report (completeThrough, YouTube's 2–3
   * day lag; endDate when the report is current), one entry a day; empty before any report or without Analytics access.
   */
  channelTrend: z.array(youtubeChannelDay),
});
export type PerformanceSummary = z.infer<typeof performanceSummaryResponse>;

/** Spec section 3 "Insight". `facts` holds the numbers the recommendation cites, for display and audits. */
export const insight = z.object({
  id: z.number().int(),
  insightType: z.string(),
  title: z.string(),
  recommendation: z.string(),
  /**
   * How strongly the channel's own numbers support the claim: 1 − √p, p the evidence's two-sided p-value adjusted for
   * the comparisons made, capped at 0.99 (docs/decisions/025-insight-evidence.md).
   */
  confidenceScore: z.number().min(0).max(1),
  facts: z.record(z.string(), z.union([z.number(), z.string()])),
  /** The groups, n, effect and 95 % interval the recommendation words; absent only on insights stored before it. */
  evidence: insightEvidence.optional(),
  /** The video an insight is about, when it is about one. */
  videoId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Insight = z.infer<typeof insight>;
export const insightsResponse = z.array(insight);

export const viralFactor = z.object({
  factor: z.enum(['viewVelocity', 'engagementRate', 'retention', 'clickThroughRate']),
  label: z.string(),
  /** The video's value and the channel's median for the same measure (same age for velocity). */
  value: z.number().nullable(),
  baseline: z.number().nullable(),
  /** value / baseline; null when either is missing. */
  ratio: z.number().nullable(),
  description: z.string(),
});
export type ViralFactor = z.infer<typeof viralFactor>;

/**
 * The chance that the video ends in the channel's top 10 % at 28 days (decision 019). `ok`: `chance` from where it
 * stands now (`percentileNow` at `ageDays`); `settled`: 28 days have passed and `chance` is 1 or 0 (what happened);
 * `tooEarly`: under a day old; `notEnough`: fewer than 20 other videos with 28 days of history (`n`); `noData`: no
 * publishing date, or an old video whose first 28 days were not read day by day.
 */
export const topDecileChance = z.object({
  status: z.enum(['ok', 'settled', 'tooEarly', 'notEnough', 'noData']),
  /** 0–1; null unless `ok` or `settled`. */
  chance: z.number().nullable(),
  /** 0–100: where the video stands among the reference videos at the same age; null unless `ok` or `settled`. */
  percentileNow: z.number().nullable(),
  ageDays: z.number().nullable(),
  /** The reference videos: the channel's newest others with 28 days of history (at most 200). */
  n: z.number().int(),
  /** In words, e.g. "34 % chance to end in your top 10 % at 28 days: after 3 days it is above 88 % of your last 200 videos at the same age." */
  sentence: z.string(),
  /** What the chance rests on ("After 3 days it is above 88 % of …"), or why there is none: the sentence without its headline. */
  basis: z.string(),
});
export type TopDecileChance = z.infer<typeof topDecileChance>;

/** A chance as people read it: "34 %", never a flat "0 %" or "100 %" for what is only unlikely or likely. */
export function formatChance(chance: number): string {
  if (chance > 0 && chance < 0.005) return 'under 1 %';
  if (chance < 1 && chance >= 0.995) return 'over 99 %';
  return `${Math.round(chance * 100)} %`;
}

/** GET /api/youtubeanalytics/insights/{id}/viral-potential: spec section 3 "Viral analysis". */
export const viralAnalysisResponse = z.object({
  videoId: z.string(),
  title: z.string(),
  /** 0–100. */
  score: z.number(),
  level: z.enum(['low', 'moderate', 'high', 'exceptional']),
  recommendation: z.string(),
  reasons: z.array(viralFactor),
  /** Channel videos the baseline was computed from. */
  baselineSampleSize: z.number().int(),
  /** The headline: its chance to end in the channel's top 10 % at 28 days. */
  topDecile: topDecileChance,
});
export type ViralAnalysis = z.infer<typeof viralAnalysisResponse>;

/** POST /api/youtubeanalytics/sync?days → 202, the YouTube connection's sync job. */
export const youtubeSyncResponse = z.object({ connectionId: z.number().int(), jobId: z.string(), status: syncStatus });

/**
 * retentionData arrives from storage or clients in either capitalisation (timeRatio / TimeRatio, …) or as a JSON
 * string of such a list (spec section 3); this answers one shape, dropping points that are not numbers.
 */
export function normalizeRetentionData(input: unknown): RetentionPoint[] {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  const points: RetentionPoint[] = [];
  for (const raw of value) {
    if (!raw || typeof raw !== 'object') continue;
    const record = raw as Record<string, unknown>;
    const pick = (name: string) => record[name] ?? record[name.charAt(0).toUpperCase() + name.slice(1)];
    const timeRatio = Number(pick('timeRatio'));
    const watchRatio = Number(pick('watchRatio'));
    const relativeRaw = pick('relativePerformance');
    const relative = relativeRaw === null || relativeRaw === undefined ? null : Number(relativeRaw);
    if (!Number.isFinite(timeRatio) || !Number.isFinite(watchRatio)) continue;
    points.push({ timeRatio, watchRatio, relativePerformance: relative !== null && Number.isFinite(relative) ? relative : null });
  }
  return points.sort((a, b) => a.timeRatio - b.timeRatio);
}
