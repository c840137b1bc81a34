// Shared test data for the web app's tests.
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import type { ApiToken } from '#contract/api-tokens.ts';
import type { BenchmarkAgeResult, BenchmarkFigure } from '#contract/benchmark.ts';
import type { BestTimesCell, BestTimesResponse } from '#contract/best-times.ts';
import type { SubscriptionStatus } from '#contract/billing.ts';
import type { ContentListResponse, ContentPost } from '#contract/content.ts';
import { FORECAST_METHOD, type ForecastsResponse } from '#contract/forecasts.ts';
import type { PlatformConnection } from '#contract/platforms.ts';
import type {
  Insight,
  PerformanceSummary,
  TrafficSource,
  ViralAnalysis,
  YoutubeVideo,
  YoutubeVideoDetail,
  YoutubeVideosResponse,
} from '#contract/youtube.ts';

/** A subscription status as the server sends it: the Free plan with no subscription, plus overrides. */
export function subscriptionStatus(overrides: Partial<SubscriptionStatus> = {}): SubscriptionStatus {
  return {
    status: 'none',
    trialEnd: null,
    planName: 'Free',
    cancelAtPeriodEnd: false,
    currentPeriodEnd: null,
    price: 20,
    currency: 'usd',
    trialUsed: false,
    graceUntil: null,
    hasValidAccess: false,
    sandbox: true,
    ...overrides,
  };
}

/** A connected YouTube channel as GET /api/platformconnections lists it, plus overrides. */
export function platformConnection(overrides: Partial<PlatformConnection> = {}): PlatformConnection {
  return {
    id: 4,
    platformId: 1,
    platformName: 'YouTube',
    platform: 'youtube',
    platformUsername: 'maya',
    platformUserId: 'UC123',
    displayName: 'Maya Creates',
    avatarUrl: null,
    connectedAt: '2026-03-01T10:00:00.000Z',
    followers: 12_345,
    missingPermissions: [],
    currency: null,
    isActive: true,
    manual: false,
    needsReconnect: false,
    lastSyncedAt: null,
    syncStatus: 'idle',
    ...overrides,
  };
}

/** A connection's entry in GET /api/sync/status: all well (idle, never failed), plus overrides. */
export function connectionSyncStatus(overrides: Partial<ConnectionSyncStatus> = {}): ConnectionSyncStatus {
  return {
    connectionId: 4,
    platformName: 'YouTube',
    status: 'idle',
    pausedReason: null,
    message: null,
    pause: null,
    lastSyncedAt: null,
    nextRunAt: null,
    lastFailedAt: null,
    attempts: 0,
    state: 'ok',
    missingParts: [],
    action: null,
    ...overrides,
  };
}

// --- YouTube (contract/youtube.ts) ---

/** One video as GET /api/youtubeanalytics/videos lists it, plus overrides. */
export function youtubeVideo(overrides: Partial<YoutubeVideo> = {}): YoutubeVideo {
  return {
    id: 101,
    videoId: 'dQw4w9WgXcQ',
    title: 'Lisbon on $40 a day',
    description: 'Budget travel in Portugal.',
    url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    thumbnailUrl: null,
    publishedAt: '2026-11-03T15:00:00.000Z',
    durationSeconds: 734,
    views: 48_210,
    watchTimeMinutes: 125,
    likes: 3_100,
    comments: 420,
    engagementRate: 7.3,
    estimatedRevenue: 212.4,
    estimatedAdRevenue: 180.1,
    cpm: 6.2,
    impressions: 610_000,
    clickThroughRate: 5.1,
    averagePercentageViewed: 46.2,
    estimatedFields: [],
    ...overrides,
  };
}

/** A page of GET /api/youtubeanalytics/videos holding `videos`. */
export function youtubeVideosPage(videos: YoutubeVideo[], overrides: Partial<YoutubeVideosResponse> = {}): YoutubeVideosResponse {
  return {
    connected: true,
    revenueAccess: 'available',
    videos,
    page: 1,
    pageSize: 25,
    total: videos.length,
    lastSyncedAt: '2026-11-22T08:00:00.000Z',
    ...overrides,
  };
}

/** GET /api/youtubeanalytics/videos/{id}: the video with a short retention curve. */
export function youtubeVideoDetail(overrides: Partial<YoutubeVideoDetail> = {}): YoutubeVideoDetail {
  return {
    ...youtubeVideo(),
    retentionData: [
      { timeRatio: 0, watchRatio: 1, relativePerformance: 0.5 },
      { timeRatio: 0.5, watchRatio: 0.55, relativePerformance: 0.6 },
      { timeRatio: 1, watchRatio: 0.3, relativePerformance: 0.55 },
    ],
    revenueAccess: 'available',
    impressionsSince: '2026-10-23T07:00:00.000Z',
    countersReadAt: '2026-11-22T08:00:00.000Z',
    viewsHistory: {
      daily: [
        { date: '2026-10-01', views: 12_000 },
        { date: '2026-10-02', views: 8_400 },
        { date: '2026-10-03', views: 5_100 },
      ],
      totals: [
        { date: '2026-11-20', views: 48_000 },
        { date: '2026-11-21', views: null },
        { date: '2026-11-22', views: 48_210 },
      ],
    },
    ...overrides,
  };
}

export function trafficSourceItem(overrides: Partial<TrafficSource> = {}): TrafficSource {
  return { id: 'YT_SEARCH', source: 'YouTube search', sourceType: 'YT_SEARCH', views: 20_000, watchTimeMinutes: 50, percentage: 41.5, ...overrides };
}

export function youtubeInsight(overrides: Partial<Insight> = {}): Insight {
  return {
    id: 1,
    insightType: 'bestPublishingTime',
    title: 'Tuesday uploads do best',
    recommendation:
      'Publish on Tuesdays around 15:00 UTC: videos published on Tuesday (UTC) got 2.1× the 7-day views of those published on other days, 95 % CI 1.4–3.2×, n = 14 vs 41.',
    confidenceScore: 0.86,
    facts: { weekday: 'Tuesday', ratio: 2.1, sampleSize: 14 },
    evidence: {
      groups: [
        { label: 'videos published on Tuesday (UTC)', n: 14 },
        { label: 'those published on other days', n: 41 },
      ],
      measure: '7-day views',
      effect: 'ratioOfGeometricMeans',
      estimate: 2.1,
      ci95: { low: 1.4, high: 3.2 },
      noEffect: 1,
      comparisons: 7,
      pValue: 0.0196,
      method: 'ratio of geometric means; Welch t interval on log views, Bonferroni-adjusted for 7 comparisons',
    },
    videoId: null,
    createdAt: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

export function viralAnalysis(overrides: Partial<ViralAnalysis> = {}): ViralAnalysis {
  return {
    videoId: 'dQw4w9WgXcQ',
    title: 'Lisbon on $40 a day',
    score: 72,
    level: 'high',
    recommendation: 'Promote this video now: its first-week views are 2.4× your channel median.',
    reasons: [
      {
        factor: 'viewVelocity',
        label: 'Early view velocity',
        value: 24_000,
        baseline: 10_000,
        ratio: 2.4,
        description: 'Views in the first 7 days compared with your median video at the same age.',
      },
    ],
    baselineSampleSize: 120,
    topDecile: {
      status: 'ok',
      chance: 0.34,
      percentileNow: 88,
      ageDays: 3.2,
      n: 200,
      sentence: '34 % chance to end in your top 10 % at 28 days: after 3 days it is above 88 % of your last 200 videos at the same age.',
      basis: 'After 3 days it is above 88 % of your last 200 videos at the same age.',
    },
    ...overrides,
  };
}

/** GET /api/youtubeanalytics/performance-summary with revenue available, plus overrides. */
export function performanceSummary(overrides: Partial<PerformanceSummary> = {}): PerformanceSummary {
  return {
    connected: true,
    channelTitle: 'Maya Lopez',
    days: 30,
    startDate: '2026-10-24',
    endDate: '2026-11-22',
    totalVideos: 412,
    analyticsAccess: true,
    totalViews: 1_234_567,
    totalWatchTime: 740_000,
    averageEngagement: 6.42,
    totalRevenue: 4_321.5,
    subscribersGained: 1_250,
    revenueAccess: 'available',
    revenue: {
      totalRevenue: 4_321.5,
      previousPeriodRevenue: 3_850,
      changePercent: 12.25,
      rpm: 3.5,
      cpm: 7.25,
      monetizedViews: 900_000,
      adRevenue: 3_500,
      otherRevenue: 821.5,
      monthlyProjection: 4_321.5,
      trend: [
        { date: '2026-11-20', revenue: 140 },
        { date: '2026-11-21', revenue: 152.5 },
      ],
      topEarningVideos: [{ id: 101, videoId: 'dQw4w9WgXcQ', title: 'Lisbon on $40 a day', revenue: 212.4, views: 48_210 }],
      revenueBySource: [
        { source: 'YouTube search', revenue: 1_800, percentage: 41.7 },
        { source: 'Suggested videos', revenue: 1_200, percentage: 27.8 },
      ],
      estimatedFields: [],
    },
    comparison: {
      compare: 'previous',
      startDate: '2026-09-24',
      endDate: '2026-10-23',
      // The report lags: both periods compared over their first 28 days.
      currentTotals: { totalVideos: 412, totalViews: 1_200_000, totalWatchTime: 720_000, averageEngagement: 6.42, totalRevenue: 4_321.5 },
      totals: { totalVideos: 400, totalViews: 1_000_000, totalWatchTime: 800_000, averageEngagement: 6.42, totalRevenue: 3_850 },
      revenueTrend: [
        { date: '2026-09-24', revenue: 120 },
        { date: '2026-09-25', revenue: 130 },
      ],
    },
    lastSyncedAt: '2026-11-22T08:00:00.000Z',
    completeThrough: '2026-11-20',
    revenueCompleteThrough: '2026-11-20',
    channelTrend: [
      { date: '2026-11-18', views: 41_000, watchTimeMinutes: 24_500, subscribersGained: 52, subscribersLost: 9, subscribers: 118_400 },
      { date: '2026-11-19', views: null, watchTimeMinutes: null, subscribersGained: null, subscribersLost: null, subscribers: null },
      { date: '2026-11-20', views: 43_500, watchTimeMinutes: 25_900, subscribersGained: 61, subscribersLost: 11, subscribers: 118_450 },
    ],
    ...overrides,
  };
}

/** The answers a user without an active YouTube connection gets. */
export function disconnectedPerformanceSummary(): PerformanceSummary {
  return performanceSummary({
    connected: false,
    channelTitle: null,
    totalVideos: 0,
    totalViews: 0,
    totalWatchTime: 0,
    averageEngagement: 0,
    totalRevenue: null,
    subscribersGained: 0,
    lastSyncedAt: null,
    comparison: null,
    completeThrough: null,
    revenueCompleteThrough: null,
    channelTrend: [],
    revenue: {
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
    },
  });
}

/** A benchmark figure without a number (`notReached` by default). */
export function benchmarkFigure(overrides: Partial<BenchmarkFigure> = {}): BenchmarkFigure {
  return { status: 'notReached', value: null, median: null, ratio: null, percentile: null, n: 0, ...overrides };
}

/** The three ages of a post: views 2.1× the typical post at 24 hours and 7 days, 28 days not reached yet. */
export function benchmarkAges(overrides: Partial<Record<'24h' | '7d' | '28d', Partial<Pick<BenchmarkAgeResult, 'views' | 'engagements'>>>> = {}): BenchmarkAgeResult[] {
  const ok = benchmarkFigure({ status: 'ok', value: 2_100, median: 1_000, ratio: 2.1, percentile: 92, n: 50 });
  const ages = [
    { age: '24h', hours: 24, views: ok, engagements: ok },
    { age: '7d', hours: 168, views: ok, engagements: ok },
    { age: '28d', hours: 672, views: benchmarkFigure(), engagements: benchmarkFigure() },
  ] as const;
  return ages.map((entry) => ({ ...entry, ...overrides[entry.age] }));
}

/** A row of GET /api/content: a TikTok post 10 days old, 2.1× the creator's typical views at 7 days. */
export function contentPost(overrides: Partial<ContentPost> = {}): ContentPost {
  return {
    id: 501,
    platform: 'tiktok',
    account: { connectionId: 7, name: 'Maya Creates', username: 'maya' },
    title: 'Street food in Porto',
    url: 'https://www.tiktok.com/@maya/video/501',
    publishedAt: '2026-11-12T09:00:00.000Z',
    views: 48_210,
    engagements: 3_520,
    benchmarks: benchmarkAges(),
    ...overrides,
  };
}

/** A page of GET /api/content holding `posts`. */
export function contentPage(posts: ContentPost[], overrides: Partial<ContentListResponse> = {}): ContentListResponse {
  return { posts, page: 1, pageSize: 10, total: posts.length, platforms: ['youtube', 'tiktok'], ...overrides };
}

/**
 * A best-time answer for connection 4 in Europe/Paris: Tuesday 18:00 at 1.4× over 6 posts (the best slot), Friday
 * 09:00 at 0.6× over 5, Sunday 20:00 with 2 posts (too few), every other hour empty; plus overrides.
 */
export function bestTimesAnswer(overrides: Partial<BestTimesResponse> = {}): BestTimesResponse {
  const filled: Record<string, Pick<BestTimesCell, 'n' | 'settled' | 'median'>> = {
    '2:18': { n: 6, settled: 4, median: 1.4 },
    '5:9': { n: 5, settled: 5, median: 0.6 },
    '7:20': { n: 2, settled: 0, median: null },
  };
  const cells = Array.from({ length: 168 }, (_, index): BestTimesCell => {
    const weekday = Math.floor(index / 24) + 1;
    const hour = index % 24;
    return { weekday, hour, n: 0, settled: 0, median: null, ...filled[`${weekday}:${hour}`] };
  });
  return {
    connectionId: 4,
    platform: 'youtube',
    timeZone: 'Europe/Paris',
    timeZoneSource: 'browser',
    status: 'ok',
    posts: 42,
    postsSettled: 36,
    postsAt7Days: 4,
    postsAt24Hours: 2,
    settledMetric: 'views',
    minimumPosts: 30,
    minimumCellPosts: 5,
    minimumSlotPosts: 5,
    confidence: 0.9,
    cells,
    top: [
      { weekday: 2, hour: 18, n: 6, settled: 4, median: 1.4, low: 1.1, high: 2, coverage: 0.96875 },
      { weekday: 5, hour: 9, n: 5, settled: 5, median: 0.6, low: 0.3, high: 0.9, coverage: 0.9375 },
    ],
    ...overrides,
  };
}

/** A personal API token as the list sends it (never the token itself): unused, plus overrides. */
export function apiToken(overrides: Partial<ApiToken> = {}): ApiToken {
  return { id: 1, name: 'Weekly report script', prefix: 'ahp_AbCd1234', createdAt: '2026-11-01T09:00:00.000Z', lastUsedAt: null, ...overrides };
}

/** GET /api/forecasts: YouTube income with a track record, a USD Patreon campaign too young to forecast, two platforms. */
export function forecastsAnswer(overrides: Partial<ForecastsResponse> = {}): ForecastsResponse {
  return {
    method: FORECAST_METHOD,
    interval: 0.8,
    minHistoryDays: 90,
    lastCompleteDay: '2026-11-21',
    income: {
      month: '2026-11',
      monthEnd: '2026-11-30',
      youtube: { asOf: '2026-11-19', historyDays: 730, knownSoFar: 2_870.4, estimate: { low: 4_120.5, median: 4_410.25, high: 4_760.8 }, trackRecord: { months: 12, inside: 9, leftOut: 0 } },
      patreon: { asOf: '2026-11-21', historyDays: 40, knownSoFar: 0, estimate: null, trackRecord: null },
      total: null,
      leftOut: 'Income forecasts count US dollars only. Patreon pledges left out: €120.00 a month in EUR (1 campaign, not converted).',
    },
    followers: [
      {
        platform: 'YouTube',
        label: 'subscribers',
        asOf: '2026-11-21',
        historyDays: 730,
        current: 48_210,
        monthEnd: { low: 48_900, median: 49_300, high: 49_650 },
        in30Days: { low: 50_100, median: 50_800, high: 51_400 },
        trackRecord: { months: 12, inside: 10, leftOut: 0 },
        milestone: { milestone: 50_000, label: '50K', low: '2026-12-08', median: '2026-12-14', high: '2026-12-22', horizonEnd: '2027-11-21' },
      },
      { platform: 'Instagram', label: 'followers', asOf: '2026-11-21', historyDays: 30, current: 12_400, monthEnd: null, in30Days: null, trackRecord: null, milestone: null },
    ],
    ...overrides,
  };
}
