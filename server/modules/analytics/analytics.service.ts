// The analytics answers: the date range of a query, the cached JSON of each answer keyed on the data fingerprint,
// and the SQL-backed figures behind the dashboard, analytics and per-platform screens.
import {
  type AnalyticsQuery,
  type AnalyticsResponse,
  type AnalyticsSummary,
  type AnalyticsSummaryQuery,
  type ComparedTotals,
  type DailyValues,
  type DerivedSeries,
  type MetricTrend,
  type PlatformLine,
  type SeriesPoint,
  TREND_METRICS,
  type PeriodComparison,
  type PeriodTotals,
  type PlatformFreshness,
  analyticsResponse,
  analyticsSummaryResponse,
  ANALYTICS_SUMMARY_DAYS,
  DEFAULT_ANALYTICS_DAYS,
  DEFAULT_ANALYTICS_PAGE_SIZE,
  metricTypesResponse,
} from '#contract/analytics.ts';
import { type ComparisonPeriod, type ComparisonRequest, resolveComparison } from '#contract/comparison.ts';
import { PLATFORM_NAMES, type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { platformColour } from '#contract/platform-palette.ts';
import { engagementRate } from '../../lib/engagement-rate.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import type { AnalyticsCache, CacheOwner } from './analytics-cache.ts';
import { alignedValues, carriedForwardLines, rateLines, summedLines } from './trend-lines.ts';
import {
  type AnalyticsFilter,
  type AnalyticsRepository,
  carriedForwardTotals,
  type ConnectionDayFigures,
  type ConnectionDayValue,
  ENGAGEMENT_PARTS,
  FOLLOWER_TYPES,
  type Period,
  type TotalsFilter,
} from './analytics.repository.ts';

const TOP_CONTENT = 5;

const displayName = platformDisplayName;

const cents = (value: number) => Math.round(value * 100) / 100;
const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
/** The comparison period of a request for the period, or a 400 in words. */
function comparisonFor(period: Period, request: ComparisonRequest): ComparisonPeriod | null {
  const resolved = resolveComparison(period, request);
  if (resolved !== null && 'error' in resolved) throw new AppError('bad_request', resolved.error);
  return resolved;
}

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

  /**
   * The answer's key: its name and parameters, and today's date only where the answer depends on it (the summary's
   * last 30 days). A range answer names its resolved dates, so an explicit range keeps its key from day to day.
   */
  const cacheKey = (name: string, parameters: unknown = null, { daily = false } = {}) =>
    `${name}:${daily ? `${dayOf(clock.now())}:` : ''}${JSON.stringify(parameters)}`;

  /** The answer as the JSON text the route sends (validated against the contract when computed). */
  async function analyticsJson(owner: CacheOwner, query: AnalyticsQuery, platform: PlatformName | undefined): Promise<Buffer> {
    const { startDate, endDate } = range(query);
    const comparison = comparisonFor({ startDate, endDate }, query);
    // The key names the resolved comparison period, so the default and an explicit compare=previous share an answer.
    const { compare: _compare, compareStartDate: _start, compareEndDate: _end, ...rest } = query;
    return cached(owner, cacheKey('analytics', { startDate, endDate, platform, query: rest, comparison }), analyticsResponse, () =>
      computeAnalytics(owner.userId, query, platform, { startDate, endDate }, comparison),
    );
  }

  async function computeAnalytics(
    userId: number,
    query: AnalyticsQuery,
    platform: PlatformName | undefined,
    { startDate, endDate }: Period,
    comparisonPeriod: ComparisonPeriod | null,
  ): Promise<AnalyticsResponse> {
    const filter: AnalyticsFilter = { userId, startDate, endDate, platform, metricType: query.metricType };
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_ANALYTICS_PAGE_SIZE;
    const followerTypes = query.metricType ? FOLLOWER_TYPES.filter((type) => type === query.metricType) : FOLLOWER_TYPES;
    const engagementOnly = query.metricType && [...ENGAGEMENT_PARTS, 'engagements'].includes(query.metricType) ? query.metricType : undefined;
    const current: Period = { startDate, endDate };
    // The trend lines read one query per kind of series, over both periods at once (trend-lines.ts sums them).
    const periods = comparisonPeriod ? [current, comparisonPeriod] : [current];
    const typeTrend = query.metricType ? (FOLLOWER_TYPES.some((type) => type === query.metricType) ? undefined : query.metricType) : 'watch_time_minutes';
    const [totals, comparison, comparisonFollowers, metrics, followerRows, historyStarts, filteredEngagement, breakdown, top, derived, dayRows, typeRows] = await Promise.all([
      cardTotals({ userId, startDate, endDate, platform }),
      comparisonPeriod ? compareTotals({ userId, platform }, { startDate, endDate }, comparisonPeriod) : Promise.resolve(null),
      comparisonPeriod ? comparisonFollowerLine(filter, comparisonPeriod, followerTypes) : Promise.resolve([]),
      repository.metricsPage(filter, pageSize, (page - 1) * pageSize),
      repository.followerDays(filter, followerTypes),
      repository.followerHistoryStarts(filter, followerTypes),
      engagementOnly ? repository.engagementOverTime(filter, engagementOnly) : Promise.resolve([]),
      repository.platformFollowers(filter),
      repository.topContentPublished(filter, TOP_CONTENT),
      repository.derivedSeries(filter),
      query.metricType ? Promise.resolve([]) : repository.dayFigures({ userId, platform }, periods),
      typeTrend ? repository.typeDays({ userId, platform }, typeTrend, periods) : Promise.resolve([]),
    ]);
    const totalFollowers = breakdown.reduce((sum, row) => sum + row.followers, 0);
    const ordered = [...breakdown].sort((a, b) => PLATFORM_NAMES.indexOf(a.platform as PlatformName) - PLATFORM_NAMES.indexOf(b.platform as PlatformName));
    const series = (rows: { date: string; value: number }[]) => rows.map((row) => ({ date: row.date, value: Number(row.value) }));
    const followers = carriedForwardTotals(followerRows);
    const followersByPlatform = carriedForwardLines(followerRows, current);
    const lines = trendLines({
      metricType: query.metricType,
      typeTrend,
      periods,
      dayRows,
      typeRows,
      followers: { total: followers, byPlatform: followersByPlatform, comparison: comparisonFollowers },
    });
    // Without a Metric filter the engagement bars are the engagements trend's combined line (the same rows).
    const engagement = query.metricType
      ? filteredEngagement
      : (lines.find((trend) => trend.metric === 'engagements')?.combined ?? []).flatMap((value, index) =>
          value === null ? [] : [{ date: addDays(startDate, index), value }],
        );
    return {
      startDate,
      endDate,
      totals,
      comparison: comparison ? { ...comparison, followersOverTime: series(comparisonFollowers) } : null,
      allMetrics: metrics.rows.map((row) => ({
        id: row.id,
        metricType: row.metric_type,
        date: row.date,
        value: Number(row.value),
        platformName: displayName(row.platform),
        contentTitle: row.content_title,
      })),
      paging: { page, pageSize, total: metrics.total, hasMore: page * pageSize < metrics.total },
      followersOverTime: series(followers),
      followerHistoryStarts: historyStarts.map((row) => ({ platform: displayName(row.platform), account: row.account, startDate: row.start_date })),
      followersByPlatform,
      engagementOverTime: series(engagement),
      platformBreakdown: ordered.map((row, index) => ({
        name: displayName(row.platform),
        followers: Number(row.followers),
        // The exact share: each screen rounds it once, as it shows it (a share rounded here and shown to a decimal
        // read 17.0 % for 17.5 %).
        percentage: totalFollowers > 0 ? (Number(row.followers) / totalFollowers) * 100 : 0,
        color: platformColour(row.platform),
      })),
      topContent: top.map((row) => ({
        id: String(row.id),
        title: row.title,
        description: row.description,
        platform: displayName(row.platform),
        engagement: Number(row.engagement),
        url: row.url,
        publishedAt: new Date(row.published_at).toISOString(),
      })),
      trends: lines,
      derivedSeries: groupDerived(derived),
    };
  }

  /**
   * The trends of the answer (contract metricTrend): without a Metric filter views, watch time, followers,
   * engagements and the engagement rate; with one, the trend of what it names.
   */
  function trendLines({
    metricType,
    typeTrend,
    periods,
    dayRows,
    typeRows,
    followers,
  }: {
    metricType: string | undefined;
    typeTrend: string | undefined;
    periods: Period[];
    dayRows: ConnectionDayFigures[];
    typeRows: (ConnectionDayValue & { platform: string; side: number })[];
    followers: { total: SeriesPoint[]; byPlatform: PlatformLine[]; comparison: SeriesPoint[] };
  }): MetricTrend[] {
    const [current, comparison] = periods as [Period, Period | undefined];
    const onSide = <T extends { side: number }>(rows: T[], side: number) => rows.filter((row) => row.side === side);
    /** The connections with a figure on a side, as one comparable key. */
    const connectionsOf = <T extends { connection_id: number }>(rows: T[], present: (row: T) => boolean) =>
      [...new Set(rows.filter(present).map((row) => row.connection_id))].sort((a, b) => a - b).join(',');
    /**
     * A trend from rows of both periods: the current period's lines, and the comparison period's combined line, only
     * when both periods hold the same connections (as the follower line): a line of fewer accounts under "all
     * platforms" would read as growth (issue 24).
     */
    const trend = <T extends { side: number; platform: string; date: string; connection_id: number }>(
      metric: string,
      rows: T[],
      shape: (rows: T[], period: Period) => { combined: DailyValues; platforms: PlatformLine[] },
      present: (row: T) => boolean,
    ): MetricTrend => {
      const [now, before] = [onSide(rows, 0), onSide(rows, 1)];
      const sameConnections = connectionsOf(now, present) === connectionsOf(before, present);
      return { metric, ...shape(now, current), comparison: comparison && sameConnections ? shape(before, comparison).combined : [] };
    };
    const followerTrend: MetricTrend = {
      metric: 'followers',
      combined: alignedValues(followers.total, current),
      platforms: followers.byPlatform,
      comparison: comparison ? alignedValues(followers.comparison, comparison) : [],
    };
    const valued = (row: { value: number | null }) => row.value !== null;
    if (metricType) return [typeTrend ? trend(typeTrend, typeRows, (rows, period) => summedLines(rows, period, (row) => row.value), valued) : followerTrend];
    const byMetric: Record<(typeof TREND_METRICS)[number], MetricTrend> = {
      views: trend('views', dayRows, (rows, period) => summedLines(rows, period, (row) => row.views), (row) => row.views !== null),
      watch_time_minutes: trend('watch_time_minutes', typeRows, (rows, period) => summedLines(rows, period, (row) => row.value), valued),
      followers: followerTrend,
      engagements: trend('engagements', dayRows, (rows, period) => summedLines(rows, period, (row) => row.engagements), (row) => row.engagements !== null),
      engagement_rate: trend(
        'engagement_rate',
        dayRows,
        (rows, period) => rateLines(rows, period, (row) => (row.engagements === null || row.reach === null ? null : { part: row.engagements, whole: row.reach })),
        (row) => row.engagements !== null && row.reach !== null,
      ),
    };
    return TREND_METRICS.map((metric) => byMetric[metric]);
  }

  /** The follower line of the comparison period, only when it counts the same connections as the current one. */
  async function comparisonFollowerLine(filter: AnalyticsFilter, period: ComparisonPeriod, types: readonly string[]) {
    const [series, same] = await Promise.all([
      repository.followersOverTime({ ...filter, startDate: period.startDate, endDate: period.endDate }, types),
      repository.sameFollowerConnections(filter, period, types),
    ]);
    return same ? series : [];
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

  /** The cards' figures over a period (contract periodTotals). */
  async function cardTotals(filter: TotalsFilter): Promise<PeriodTotals> {
    const [row, pledges] = await Promise.all([repository.periodTotals(filter), repository.pledgesByCurrency(filter)]);
    const usdPledges = pledges.filter((pledge) => pledge.currency === 'USD').reduce((sum, pledge) => sum + Number(pledge.amount), 0);
    return {
      totalFollowers: Number(row.followers),
      averageEngagementRate: engagementRate(row.engagements, row.engaged_views) ?? 0,
      totalViews: Number(row.views),
      totalImpressions: Number(row.impressions),
      totalRevenue: cents(Number(row.revenue) + usdPledges),
      pledgesNotInUsd: pledges
        .filter((pledge) => pledge.currency !== 'USD')
        .map((pledge) => ({
          currency: pledge.currency,
          periodAmount: cents(Number(pledge.amount)),
          monthlyAmount: cents(Number(pledge.monthly)),
          connections: Number(pledge.connections),
        })),
      connectedPlatforms: Number(row.connections),
    };
  }

  /** The comparison of the current period with another, like with like (contract periodComparison). */
  async function compareTotals(scope: Pick<AnalyticsFilter, 'userId' | 'platform'>, current: Period, period: ComparisonPeriod): Promise<PeriodComparison> {
    const row = await repository.comparedTotals(scope, current, period);
    const side = (which: 'current' | 'comparison'): ComparedTotals => ({
      totalFollowers: numberOrNull(row[`${which}_followers`]),
      averageEngagementRate: engagementRate(row[`${which}_engagements`], row[`${which}_reach`]),
      totalViews: numberOrNull(row[`${which}_views`]),
      totalRevenue: row[`${which}_revenue`] === null ? null : cents(Number(row[`${which}_revenue`])),
      connectedPlatforms: Number(row[`${which}_connections`]),
    });
    return {
      ...period,
      totals: side('comparison'),
      currentTotals: side('current'),
      leftOut: row.left_out.map((entry) => ({ platform: displayName(entry.platform), account: entry.account, figures: entry.figures })),
      shortened: row.shortened.map((entry) => ({
        platform: displayName(entry.platform),
        account: entry.account,
        historyStart: entry.history_start,
        days: entry.days,
        figures: entry.figures,
      })),
    };
  }

  function summaryJson(owner: CacheOwner, query: AnalyticsSummaryQuery = {}): Promise<Buffer> {
    const current = summaryPeriod();
    const comparison = comparisonFor(current, query);
    return cached(owner, cacheKey('summary', { comparison }, { daily: true }), analyticsSummaryResponse, () => computeSummary(owner.userId, current, comparison));
  }

  /** The summary's period: the last 30 days, today included. */
  function summaryPeriod(): Period {
    const endDate = dayOf(clock.now());
    return { startDate: addDays(endDate, -(ANALYTICS_SUMMARY_DAYS - 1)), endDate };
  }

  async function computeSummary(userId: number, current: Period, comparisonPeriod: ComparisonPeriod | null): Promise<AnalyticsSummary> {
    const [totals, freshness, comparison] = await Promise.all([
      cardTotals({ userId, ...current }),
      repository.freshness({ userId }),
      comparisonPeriod ? compareTotals({ userId }, current, comparisonPeriod) : Promise.resolve(null),
    ]);
    return {
      ...totals,
      freshness: freshness.map(
        (row): PlatformFreshness => ({
          platform: displayName(row.platform),
          syncedAt: row.synced_at === null ? null : new Date(row.synced_at).toISOString(),
          completeThrough: row.complete_through,
        }),
      ),
      comparison,
    };
  }

  const parsed = async <T>(json: Promise<Buffer>) => JSON.parse((await json).toString('utf8')) as T;

  return {
    analyticsJson,
    summaryJson,
    metricTypesJson: (owner: CacheOwner) => cached(owner, cacheKey('metric-types'), metricTypesResponse, () => repository.metricTypes(owner.userId)),
    /** The same answers as objects, for callers other than the JSON routes. */
    analytics: (userId: number, query: AnalyticsQuery, platform: PlatformName | undefined) => parsed<AnalyticsResponse>(analyticsJson({ userId }, query, platform)),
    summary: (userId: number, query?: AnalyticsSummaryQuery) => parsed<AnalyticsSummary>(summaryJson({ userId }, query)),
    /** The range rules (and their 400s), for the exports of the same filters. */
    range,
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
