// The analytics answers: the date range of a query, the cached JSON of each answer keyed on the data fingerprint,
// and the SQL-backed figures behind the dashboard, analytics and per-platform screens.
import {
  type AnalyticsQuery,
  type AnalyticsResponse,
  type DerivedSeries,
  type AnalyticsSummary,
  analyticsResponse,
  analyticsSummaryResponse,
  DEFAULT_ANALYTICS_DAYS,
  DEFAULT_ANALYTICS_PAGE_SIZE,
  metricTypesResponse,
  PLATFORM_COLOURS,
} from '#contract/analytics.ts';
import { PLATFORM_NAMES, type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import type { AnalyticsCache, CacheOwner } from './analytics-cache.ts';
import { type AnalyticsFilter, type AnalyticsRepository, ENGAGEMENT_PARTS, FOLLOWER_TYPES } from './analytics.repository.ts';

const SUMMARY_DAYS = 30;
const TOP_CONTENT = 5;

const displayName = platformDisplayName;

export function createAnalyticsService({ repository, clock, cached }: { repository: AnalyticsRepository; clock: Clock; cached: AnalyticsCache }) {
  /** The date range of a query: startDate/endDate when given, else the last `days` days up to today (inclusive). */
  function range(query: Pick<AnalyticsQuery, 'days' | 'startDate' | 'endDate'>) {
    const today = dayOf(clock.now());
    const days = query.days ?? DEFAULT_ANALYTICS_DAYS;
    const endDate = query.endDate ?? (query.startDate ? addDays(query.startDate, days - 1) : today);
    const startDate = query.startDate ?? addDays(endDate, -(days - 1));
    if (startDate > endDate) throw new AppError('bad_request', 'startDate must not be after endDate');
    if (Date.parse(endDate) - Date.parse(startDate) > 3 * 366 * 86_400_000) throw new AppError('bad_request', 'The date range may span at most three years');
    return { startDate, endDate };
  }

  // Answers depend on the day (default ranges end today), so the day is part of every cache key.
  /**
   * The answer's key: its name and parameters, and today's date only where the answer depends on it (the summary's
   * last 30 days). A range answer names its resolved dates, so an explicit range keeps its key from day to day.
   */
  const cacheKey = (name: string, parameters: unknown = null, { daily = false } = {}) =>
    `${name}:${daily ? `${dayOf(clock.now())}:` : ''}${JSON.stringify(parameters)}`;

  /** The answer as the JSON text the route sends (validated against the contract when computed). */
  async function analyticsJson(owner: CacheOwner, query: AnalyticsQuery, platform: PlatformName | undefined): Promise<Buffer> {
    const { startDate, endDate } = range(query);
    return cached(owner, cacheKey('analytics', { startDate, endDate, platform, query }), analyticsResponse, () =>
      computeAnalytics(owner.userId, query, platform, startDate, endDate),
    );
  }

  async function computeAnalytics(userId: number, query: AnalyticsQuery, platform: PlatformName | undefined, startDate: string, endDate: string): Promise<AnalyticsResponse> {
    const filter: AnalyticsFilter = { userId, startDate, endDate, platform, metricType: query.metricType };
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_ANALYTICS_PAGE_SIZE;
    const followerTypes = query.metricType ? FOLLOWER_TYPES.filter((type) => type === query.metricType) : FOLLOWER_TYPES;
    const engagementOnly = query.metricType && [...ENGAGEMENT_PARTS, 'engagements'].includes(query.metricType) ? query.metricType : undefined;
    const [metrics, followers, historyStarts, engagement, breakdown, top, derived] = await Promise.all([
      repository.metricsPage(filter, pageSize, (page - 1) * pageSize),
      repository.followersOverTime(filter, followerTypes),
      repository.followerHistoryStarts(filter, followerTypes),
      query.metricType && !engagementOnly ? Promise.resolve([]) : repository.engagementOverTime(filter, engagementOnly),
      repository.platformFollowers(filter),
      repository.topContent(filter, TOP_CONTENT),
      repository.derivedSeries(filter),
    ]);
    const totalFollowers = breakdown.reduce((sum, row) => sum + row.followers, 0);
    const ordered = [...breakdown].sort((a, b) => PLATFORM_NAMES.indexOf(a.platform as PlatformName) - PLATFORM_NAMES.indexOf(b.platform as PlatformName));
    return {
      startDate,
      endDate,
      allMetrics: metrics.rows.map((row) => ({
        id: row.id,
        metricType: row.metric_type,
        date: row.date,
        value: Number(row.value),
        platformName: displayName(row.platform),
        contentTitle: row.content_title,
      })),
      paging: { page, pageSize, total: metrics.total, hasMore: page * pageSize < metrics.total },
      followersOverTime: followers.map((row) => ({ date: row.date, value: Number(row.value) })),
      followerHistoryStarts: historyStarts.map((row) => ({ platform: displayName(row.platform), account: row.account, startDate: row.start_date })),
      engagementOverTime: engagement.map((row) => ({ date: row.date, value: Number(row.value) })),
      platformBreakdown: ordered.map((row, index) => ({
        name: displayName(row.platform),
        followers: Number(row.followers),
        percentage: totalFollowers > 0 ? Math.round((Number(row.followers) / totalFollowers) * 100) : 0,
        color: PLATFORM_COLOURS[index % PLATFORM_COLOURS.length]!,
      })),
      topContent: top.map((row) => ({
        id: String(row.id),
        title: row.title,
        description: row.description,
        platform: displayName(row.platform),
        engagement: Number(row.engagement),
        url: row.url,
      })),
      derivedSeries: groupDerived(derived),
    };
  }

  /** One entry per platform and method, its metrics in the stored order, over the widest span of them. */
  function groupDerived(rows: { platform: string; metric_type: string; method: string; start_date: string; end_date: string }[]): DerivedSeries[] {
    const grouped = new Map<string, DerivedSeries>();
    for (const row of rows) {
      const key = `${row.platform}\u0000${row.method}`;
      const entry = grouped.get(key) ?? { platform: displayName(row.platform), metrics: [], method: row.method, startDate: row.start_date, endDate: row.end_date };
      entry.metrics.push(row.metric_type);
      if (row.start_date < entry.startDate) entry.startDate = row.start_date;
      if (row.end_date > entry.endDate) entry.endDate = row.end_date;
      grouped.set(key, entry);
    }
    return [...grouped.values()];
  }

  function summaryJson(owner: CacheOwner): Promise<Buffer> {
    return cached(owner, cacheKey('summary', null, { daily: true }), analyticsSummaryResponse, () => computeSummary(owner.userId));
  }

  async function computeSummary(userId: number) {
    const endDate = dayOf(clock.now());
    const startDate = addDays(endDate, -(SUMMARY_DAYS - 1));
    const [row, pledges] = await Promise.all([repository.summary(userId, startDate, endDate), repository.pledgesByCurrency(userId, endDate)]);
    const usdPledges = pledges.filter((pledge) => pledge.currency === 'USD').reduce((sum, pledge) => sum + Number(pledge.amount), 0);
    const rate = row.engaged_views > 0 ? (Number(row.engagements) / Number(row.engaged_views)) * 100 : 0;
    return {
      totalFollowers: Number(row.followers),
      averageEngagementRate: Math.round(rate * 100) / 100,
      totalViews: Number(row.views),
      totalImpressions: Number(row.impressions),
      totalRevenue: Math.round((Number(row.revenue) + usdPledges) * 100) / 100,
      pledgesNotInUsd: pledges
        .filter((pledge) => pledge.currency !== 'USD')
        .map((pledge) => ({ currency: pledge.currency, monthlyAmount: Math.round(Number(pledge.amount) * 100) / 100, connections: Number(pledge.connections) })),
      connectedPlatforms: Number(row.connections),
    };
  }

  const parsed = async <T>(json: Promise<Buffer>) => JSON.parse((await json).toString('utf8')) as T;

  return {
    analyticsJson,
    summaryJson,
    metricTypesJson: (owner: CacheOwner) => cached(owner, cacheKey('metric-types'), metricTypesResponse, () => repository.metricTypes(owner.userId)),
    /** The same answers as objects, for callers other than the JSON routes. */
    analytics: (userId: number, query: AnalyticsQuery, platform: PlatformName | undefined) => parsed<AnalyticsResponse>(analyticsJson({ userId }, query, platform)),
    summary: (userId: number) => parsed<AnalyticsSummary>(summaryJson({ userId })),
    /** The range rules (and their 400s), for the exports of the same filters. */
    range,
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
