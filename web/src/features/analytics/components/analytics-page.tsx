import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { type AnalyticsResponse, DERIVATION_EXPLANATIONS, type DerivedSeries, derivedSeriesSentence, followerHistoryNote, revenueCurrencyNote } from '#contract/analytics.ts';
import { IMPRESSION_PLATFORM_NAMES, platformById } from '#contract/platforms.ts';
import type { WhatChangedMetric } from '#contract/what-changed.ts';
import { useSearchParams } from 'react-router';
import { useOnceTrue } from '../../../lib/use-once-true';
import { ExportMenu } from '../../../components/export-menu';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Card } from '../../../components/ui/card';
import { HowCalculated } from '../../../components/ui/how-calculated';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { formatCalendarDay, formatCompactNumber, formatMoney } from '../../../lib/format';
import { exportAnalytics } from '../api/export-analytics';
import { analyticsQueryOptions } from '../../../lib/analytics-query';
import { POSTS_QUERY_ROOT, postsQueryOptions } from '../api/get-posts';
import { analyticsSummaryQueryOptions } from '../../../lib/analytics-summary';
import { metricTypesQueryOptions } from '../api/get-metric-types';
import {
  ANALYTICS_PLATFORM_OPTIONS,
  CLEARED_FILTERS,
  filterCorrections,
  filtersFromSearchParams,
  searchParamsWithFilters,
  type AnalyticsFilters,
} from '../../../lib/analytics-filters';
import { emptyPanelText, engagementChartData, followersGrowthChart, isEmptySeries, platformDistributionData, rankTopContent } from '../utils/chart-data';
import { TrendPanel } from './trend-panel';
import { postsCorrections, postsStateFromSearchParams, searchParamsWithPosts, type PostsTableState } from '../utils/posts-table-state';
import { AddressCorrectionNotice, useAddressCorrections } from '../../../lib/use-address-corrections';
import { AnalyticsFilterBar } from './analytics-filter-bar';
import { AnalyticsSkeleton } from './analytics-skeleton';
import { ForecastsCard } from '../../forecasts/components/forecasts-card';
import { BestTimesPanel } from './best-times-panel';
import { PostsPanel } from './posts-panel';
import { StatCard } from '../../../components/ui/stat-card';
import { WhatChangedPanel } from '../../../components/what-changed/what-changed-panel';
import { CHART_HEIGHT_CLASS } from '../../../components/charts/chart-slot';
import { FreshnessNote } from '../../../components/freshness-note';
import { LEFT_OUT_SUMMARY, PanelNotes } from '../../../components/ui/panel-notes';
import { cardChange, CHANGE_RULES, comparisonLabel, leftOutNote } from '../../../lib/period-change';

// Chart.js is only downloaded when a chart is about to be drawn: the landing and login bundles stay light.
const LineChart = lazy(async () => ({ default: (await import('../../../components/charts/line-chart')).LineChart }));
const BarChart = lazy(async () => ({ default: (await import('../../../components/charts/bar-chart')).BarChart }));
const DoughnutChart = lazy(async () => ({ default: (await import('../../../components/charts/doughnut-chart')).DoughnutChart }));

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

/** The line and bar charts' height (ChartFrame's default, chart-slot.tsx); the doughnut's is DOUGHNUT_HEIGHT. */
const CHART_HEIGHT = CHART_HEIGHT_CLASS;
const DOUGHNUT_HEIGHT = 'h-72 sm:h-80';

/** A chart's loading, empty or failed state: exactly the chart's height, so the chart replaces it without a shift. */
function Message({ children, tone = 'muted', height = CHART_HEIGHT }: { children: ReactNode; tone?: 'muted' | 'loading'; height?: string }) {
  return (
    <div
      role={tone === 'loading' ? 'status' : undefined}
      className={`flex items-center justify-center gap-2 rounded-lg border border-dashed border-slate-700 px-4 text-center text-sm text-slate-400 ${height}`}
    >
      {tone === 'loading' ? <Spinner /> : null}
      {children}
    </div>
  );
}

const loadingChart = <Message tone="loading">Loading chart...</Message>;
const loadingDoughnut = (
  <Message tone="loading" height={DOUGHNUT_HEIGHT}>
    Loading chart...
  </Message>
);

function periodLabel(filters: AnalyticsFilters): string {
  const platform = ANALYTICS_PLATFORM_OPTIONS.find((option) => option.id === filters.platformId)?.name;
  return `last ${filters.days} days${platform ? `, ${platform}` : ''}`;
}

/** /analytics: the four numbers, the filters (kept in the URL) and the charts (spec section 2). */
const FOLLOWER_METRICS = ['followers', 'subscribers'];
const ENGAGEMENT_METRICS = ['likes', 'comments', 'shares'];
/** The metric types each panel draws (the server's follower types and engagement parts), for its empty text. */
const FOLLOWER_PANEL_METRICS = ['followers', 'subscribers', 'patrons'];
const ENGAGEMENT_PANEL_METRICS = ['engagements', 'likes', 'reactions', 'comments', 'shares'];


/**
 * Which part of a chart we derived rather than read as the platform's daily figure (TikTok and X keep lifetime
 * counters only; Instagram's follower history is follows minus unfollows), and since when.
 */
const derivedFor = (series: DerivedSeries[], metrics: readonly string[]) =>
  series.map((entry) => ({ ...entry, metrics: entry.metrics.filter((metric) => metrics.includes(metric)) })).filter((entry) => entry.metrics.length > 0);

function DerivedNote({ series, metrics }: { series: DerivedSeries[]; metrics: readonly string[] }) {
  const shown = derivedFor(series, metrics);
  if (shown.length === 0) return null;
  return (
    <div>
      <p className="font-medium text-slate-300">Derived by Analytics Hub:</p>
      <ul className="list-disc pl-5">
        {shown.map((entry) => (
          <li key={`${entry.platform}-${entry.method}`}>{derivedSeriesSentence(entry, formatCalendarDay)}</li>
        ))}
      </ul>
      <HowCalculated className="mt-1">
        {[...new Set(shown.map((entry) => entry.method))].map((method) => (
          <p key={method}>{DERIVATION_EXPLANATIONS[method] ?? method}</p>
        ))}
      </HowCalculated>
    </div>
  );
}

/** Where follower histories begin when a platform's starts inside the range (the total is drawn from the last start). */
function FollowerHistoryNote({ data }: { data: AnalyticsResponse }) {
  const note = followerHistoryNote(data.followerHistoryStarts, data.startDate, formatCalendarDay);
  return note ? <p>{note}</p> : null;
}

/** A chart's notes as one line that opens to them (PanelNotes); only under a chart that has a note. */
function ChartNotes({ derived, children }: { derived: boolean; children: ReactNode }) {
  return (
    <PanelNotes className="mt-3" summary={derived ? 'Part of this line is worked out by Analytics Hub — how?' : 'About this chart'}>
      {children}
    </PanelNotes>
  );
}

export function AnalyticsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromSearchParams(searchParams);
  // The summary says how recent each platform's figures are; the cards follow the filters (GET /api/analytics totals).
  const summary = useQuery(analyticsSummaryQueryOptions());
  const metricTypes = useQuery(metricTypesQueryOptions());
  const analytics = useQuery(analyticsQueryOptions(filters));
  const postsState = postsStateFromSearchParams(searchParams);
  // The same query as the posts panel's (one fetch): the panel below it waits for the table's height to be known.
  const posts = useQuery(postsQueryOptions(postsState));
  const postsAnswered = useOnceTrue(!posts.isPending);
  // What the address asked for and the page cannot show is replaced by what it shows, and said in one line.
  const addressNotice = useAddressCorrections([...filterCorrections(searchParams, metricTypes.data), ...postsCorrections(searchParams)]);
  const [explaining, setExplaining] = useState<WhatChangedMetric | null>(null);
  const queryClient = useQueryClient();

  function changeFilters(change: Partial<AnalyticsFilters>) {
    // Same value → no navigation, same query key → no refetch (spec section 4).
    const next = searchParamsWithFilters(searchParams, change);
    if (next) setSearchParams(next);
  }

  function changePosts(change: Partial<PostsTableState>) {
    const next = searchParamsWithPosts(searchParams, change);
    if (next) setSearchParams(next);
  }

  function refresh() {
    // cancelRefetch false: a fetch already running is joined, not restarted (spec section 4).
    void analytics.refetch({ cancelRefetch: false });
    void summary.refetch({ cancelRefetch: false });
    void queryClient.invalidateQueries({ queryKey: POSTS_QUERY_ROOT });
  }

  const refreshing = analytics.isFetching || summary.isFetching;
  const data = analytics.data;
  const failedText = filters.platformId === null ? 'Failed to load analytics data' : 'Failed to load platform analytics';
  const period = periodLabel(filters);

  function chartBody(content: () => ReactNode, empty: boolean, emptyText: string, loadingText = 'Loading chart...', height = CHART_HEIGHT) {
    if (data === undefined) {
      return analytics.isError ? (
        <Message height={height}>{failedText}</Message>
      ) : (
        <Message tone="loading" height={height}>
          {loadingText}
        </Message>
      );
    }
    if (empty) return <Message height={height}>{emptyText}</Message>;
    return content();
  }
  // Which filters the charts show: written to each chart's container once drawn (data-chart-key), blank while the
  // previous filters' charts stay up as a placeholder. The e2e test and the web bench time a filter change with it.
  const chartKey = analytics.isPlaceholderData ? undefined : JSON.stringify(analyticsQueryOptions(filters).queryKey);

  const totals = data?.totals;
  const comparison = data?.comparison;
  // The "What changed" panel splits a card's change (views or revenue) over the same two periods.
  const explainRequest =
    explaining && data && comparison
      ? {
          metric: explaining,
          startDate: data.startDate,
          endDate: data.endDate,
          compareStartDate: comparison.startDate,
          compareEndDate: comparison.endDate,
          platform: filters.platformId === null ? undefined : platformById(filters.platformId),
        }
      : null;
  const cardsFailed = analytics.isError && !data;
  const days = filters.days;
  const platformName = ANALYTICS_PLATFORM_OPTIONS.find((option) => option.id === filters.platformId)?.name;
  const freshness = summary.data?.freshness.filter((entry) => platformName === undefined || entry.platform === platformName) ?? [];
  const comparisonName = comparison ? comparisonLabel(comparison, days) : null;
  const trendComparison = comparison && comparisonName ? { startDate: comparison.startDate, label: comparisonName.short.charAt(0).toUpperCase() + comparisonName.short.slice(1) } : undefined;
  // One line per platform, and the total over the days every platform's history has begun (issue 24).
  const followers = data ? followersGrowthChart(data, trendComparison) : undefined;
  const currencyNote = totals ? revenueCurrencyNote(totals.pledgesNotInUsd) : null;
  const comparisonNote = leftOutNote(comparison, days);
  const engagement = data ? engagementChartData(data.engagementOverTime) : undefined;
  const followerNotes =
    data !== undefined &&
    (followerHistoryNote(data.followerHistoryStarts, data.startDate, formatCalendarDay) !== null ||
      Boolean(comparison && comparisonName && comparison.followersOverTime.length === 0) ||
      derivedFor(data.derivedSeries, FOLLOWER_METRICS).length > 0);
  const distribution = data ? platformDistributionData(data.platformBreakdown) : undefined;
  const topContent = data ? rankTopContent(data.topContent) : [];

  const header = (
    <PageHeader
        title="Analytics"
        description="Followers, views, revenue and engagement across your platforms"
        actions={
          <>
            <ExportMenu onExport={(format) => exportAnalytics(filters, format)} fallbackName="analytics-hub-export" />
            <Button variant="secondary" className="self-start" onClick={refresh} disabled={refreshing} aria-busy={refreshing}>
              {refreshing ? (
                // The icon's size: the button keeps its width, so the buttons beside it do not move.
                <Spinner className="size-5" />
              ) : (
                <Icon>
                  <path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" />
                </Icon>
              )}
              Refresh
            </Button>
          </>
        }
      />
  );
  const correctionNotice = <AddressCorrectionNotice message={addressNotice} className="mb-4" />;

  // No layout shift: until the numbers and the summary have answered the first time, the screen below the header is a
  // skeleton; then it is drawn in one piece (the notes under the cards decide where everything below them goes).
  // The best-times panel likewise waits under the posts table until the table's height is known.
  if ((analytics.isPending && !analytics.isError) || summary.isPending) {
    return (
      <>
        <title>Analytics · Analytics Hub</title>
        {header}
        {correctionNotice}
        <AnalyticsSkeleton />
      </>
    );
  }

  return (
    <>
      <title>Analytics · Analytics Hub</title>
      {header}
      {correctionNotice}
      <div className="space-y-6">
        <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <StatCard dense
            label="Total Followers"
            value={totals ? formatCompactNumber(totals.totalFollowers) : undefined}
            failed={cardsFailed}
            change={cardChange(comparison, (compared) => compared.totalFollowers, CHANGE_RULES.count, days)}
            icon={
              <Icon>
                <circle cx="9" cy="8" r="3.5" />
                <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />
              </Icon>
            }
          />
          <StatCard dense
            label="Total Views"
            value={totals ? formatCompactNumber(totals.totalViews) : undefined}
            failed={cardsFailed}
            change={cardChange(comparison, (compared) => compared.totalViews, CHANGE_RULES.count, days)}
            onExplainChange={() => setExplaining('views')}
            icon={
              <Icon>
                <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
                <circle cx="12" cy="12" r="3" />
              </Icon>
            }
          />
          <StatCard dense
            label="Total Revenue"
            value={totals ? formatMoney(totals.totalRevenue) : undefined}
            failed={cardsFailed}
            change={cardChange(comparison, (compared) => compared.totalRevenue, CHANGE_RULES.revenue, days)}
            onExplainChange={() => setExplaining('revenue')}
            icon={
              <Icon>
                <path d="M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" />
              </Icon>
            }
          />
          <StatCard dense
            label="Connected Platforms"
            value={totals ? String(totals.connectedPlatforms) : undefined}
            failed={cardsFailed}
            icon={
              <Icon>
                <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1.5 1.5" />
                <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1.5-1.5" />
              </Icon>
            }
          />
        </section>
        <WhatChangedPanel request={explainRequest} onClose={() => setExplaining(null)} />
        {totals ? (
          <PanelNotes className="-mt-3" summary={comparisonNote ? LEFT_OUT_SUMMARY : 'About these figures'} testId="analytics-card-notes">
            <p>
              Figures for the last {days} days{platformName ? ` on ${platformName}` : ''}
              {comparisonName ? `, compared with ${comparisonName.words}` : ''}.{comparisonNote ? ` ${comparisonNote}` : ''}
            </p>
            {currencyNote ? <p>{currencyNote}</p> : null}
            {totals.totalImpressions > 0 ? (
              <p>
                Total Views counts views only. {IMPRESSION_PLATFORM_NAMES} report impressions instead: {formatCompactNumber(totals.totalImpressions)} in the last {days} days.
              </p>
            ) : null}
            <FreshnessNote entries={freshness} />
          </PanelNotes>
        ) : null}

        {summary.data?.connectedPlatforms === 0 ? (
          // Every card and chart below says only that it has no data (the spec's words): say why, and where to go.
          <Notice tone="info" title="No platform connected yet">
            <p>Connect YouTube, Instagram, TikTok, Twitter, LinkedIn or Patreon: after its first sync its numbers appear here.</p>
            <ButtonLink to="/platforms" size="sm">
              Connect Platform
            </ButtonLink>
          </Notice>
        ) : null}

        <AnalyticsFilterBar
          filters={filters}
          metricTypes={metricTypes.data}
          onChange={changeFilters}
          onClear={() => changeFilters(CLEARED_FILTERS)}
        />

        {analytics.isError ? (
          <p role="alert" className="rounded-lg border border-red-500/40 bg-red-950/40 px-4 py-3 text-sm text-red-200">
            {failedText}
            {data ? '. Showing the last numbers that loaded.' : ''}
          </p>
        ) : null}

        <TrendPanel data={data} failed={analytics.isError} period={period} comparison={trendComparison} dataKey={chartKey} />

        <div className="grid gap-6 lg:grid-cols-2" aria-busy={analytics.isFetching}>
          <Card title="Followers Growth" className="min-w-0">
            {chartBody(
              () => (
                <Suspense fallback={loadingChart}>
                  <LineChart
                    label={`Followers growth, ${period}`}
                    dataKey={chartKey}
                    data={followers!.data} columns={['Date', 'Followers']} rows={followers!.rows} />
                  {followers!.totalFrom ? (
                    <p className="sr-only">The total starts on {formatCalendarDay(followers!.totalFrom)}, when every platform's follower history has begun.</p>
                  ) : null}
                </Suspense>
              ),
              isEmptySeries(data?.followersOverTime),
              emptyPanelText(filters.metricType, FOLLOWER_PANEL_METRICS, 'Followers', 'No followers data available'),
            )}
            {data && !isEmptySeries(data.followersOverTime) && followerNotes ? (
              <ChartNotes derived={derivedFor(data.derivedSeries, FOLLOWER_METRICS).length > 0}>
                <FollowerHistoryNote data={data} />
                {comparison && comparisonName && comparison.followersOverTime.length === 0 ? (
                  <p>No line for {comparisonName.words}: not every account here has follower figures then.</p>
                ) : null}
                <DerivedNote series={data.derivedSeries} metrics={FOLLOWER_METRICS} />
              </ChartNotes>
            ) : null}
          </Card>
          <Card title="Engagement Rate" className="min-w-0">
            {chartBody(
              () => (
                <Suspense fallback={loadingChart}>
                  <BarChart
                    label={`Engagements per day, ${period}`}
                    dataKey={chartKey}
                    data={engagement!.data} columns={['Date', 'Engagements']} rows={engagement!.rows} />
                </Suspense>
              ),
              isEmptySeries(data?.engagementOverTime),
              emptyPanelText(filters.metricType, ENGAGEMENT_PANEL_METRICS, 'Engagements', 'No engagement data available'),
            )}
            {/* The spec's title over a count: say what the bars are, so a bar of 40 is not read as 40 % (issue 25). Under
                the chart, so it lines up with Followers Growth beside it. */}
            {data && !isEmptySeries(data.engagementOverTime) ? <p className="mt-2 text-xs text-slate-400">Each bar is a day's engagements.</p> : null}
            {data && !isEmptySeries(data.engagementOverTime) && derivedFor(data.derivedSeries, ENGAGEMENT_METRICS).length > 0 ? (
              <ChartNotes derived>
                <DerivedNote series={data.derivedSeries} metrics={ENGAGEMENT_METRICS} />
              </ChartNotes>
            ) : null}
          </Card>
          <Card title="Platform Distribution" className="min-w-0">
            {chartBody(
              () => (
                <Suspense fallback={loadingDoughnut}>
                  <DoughnutChart
                    label={`Followers by platform, ${period}`}
                    dataKey={chartKey}
                    data={distribution!.data}
                    columns={['Platform', 'Followers']}
                    rows={distribution!.rows}
                  />
                </Suspense>
              ),
              distribution?.rows.length === 0,
              'No platform data available',
              'Loading chart...',
              DOUGHNUT_HEIGHT,
            )}
          </Card>
          <Card title="Top Content" className="min-w-0">
            <p className="-mt-2 mb-3 text-xs text-slate-400">Your posts published in the {period}, most engagement first.</p>
            {chartBody(
              () => (
                <ol className="space-y-2">
                  {topContent.map((item) => (
                    <li key={item.id} className="flex items-start gap-3 rounded-lg border border-slate-800 bg-slate-950/60 px-4 py-3 sm:items-center">
                      <span className="w-8 shrink-0 text-sm font-semibold text-indigo-300">#{item.rank}</span>
                      {/* Phones put the count under the title, so long titles keep their room. */}
                      <div className="min-w-0 flex-1 sm:flex sm:items-center sm:justify-between sm:gap-3">
                        <div className="min-w-0">
                          <p className="line-clamp-2 font-medium break-words text-white sm:truncate" title={item.heading}>
                            {item.url ? (
                              <a href={item.url} target="_blank" rel="noreferrer" className="hover:underline">
                                {item.heading}
                              </a>
                            ) : (
                              item.heading
                            )}
                          </p>
                          <p className="text-sm text-slate-400">
                            {item.platform}
                            {item.published ? ` · ${item.published}` : ''}
                          </p>
                        </div>
                        <p className="mt-1 shrink-0 text-sm text-slate-300 sm:mt-0 sm:text-right">
                          <span className="font-semibold text-white">{item.engagement}</span> {item.engagementWord}
                        </p>
                      </div>
                    </li>
                  ))}
                </ol>
              ),
              topContent.length === 0,
              'No content data available',
              'Loading content...',
            )}
          </Card>
        </div>

        <PostsPanel state={postsState} onChange={changePosts} />
        {postsAnswered ? <BestTimesPanel /> : null}
        {/* Last: it answers after the rest (a refit per series), and growing at the bottom shifts nothing. */}
        {postsAnswered ? <ForecastsCard /> : null}
      </div>
    </>
  );
}
