// The Dashboard's followers and views trends over its period (the last 30 days, issue 25): one line per platform,
// all platforms together, and the previous 30 days dashed. The same answer as the Analytics screen's default view
// (one request, computed ahead of the visit after a sync), so opening Analytics next costs nothing.
import { useQuery } from '@tanstack/react-query';
import { lazy } from 'react';
import { ANALYTICS_SUMMARY_DAYS, type AnalyticsResponse, type MetricTrend } from '#contract/analytics.ts';
import { followersTrendChart, metricTrendChart, type TrendComparison } from '../../../components/charts/trend-lines';
import { ChartSlot } from '../../../components/charts/chart-slot';
import { Card } from '../../../components/ui/card';
import { analyticsQueryOptions } from '../../../lib/analytics-query';
import { DEFAULT_FILTERS } from '../../../lib/analytics-filters';

const LineChart = lazy(async () => ({ default: (await import('../../../components/charts/line-chart')).LineChart }));

/** Chart and legend in one fixed height: the cards below do not move when the lines arrive. */
export const TREND_BODY_HEIGHT = 'h-[18rem]';
const BODY_HEIGHT = TREND_BODY_HEIGHT;
const CHART_HEIGHT = 'h-52 sm:h-56';
const PERIOD = `last ${ANALYTICS_SUMMARY_DAYS} days`;

function TrendBody({ answer, metric, label, failed }: { answer: AnalyticsResponse | undefined; metric: 'followers' | 'views'; label: string; failed: boolean }) {
  if (!answer) return <ChartSlot heightClass={BODY_HEIGHT} loading={!failed} message={`Couldn't load the ${label.toLowerCase()} trend`} />;
  const trend: MetricTrend | undefined = answer.trends.find((entry) => entry.metric === metric);
  const comparison: TrendComparison | undefined = answer.comparison ? { startDate: answer.comparison.startDate, label: `Previous ${ANALYTICS_SUMMARY_DAYS} days` } : undefined;
  const options = { startDate: answer.startDate, ...(comparison ? { comparison } : {}), derived: answer.derivedSeries };
  const chart = trend ? (metric === 'followers' ? followersTrendChart(trend, options) : metricTrendChart(trend, options)) : undefined;
  if (!chart?.hasData) return <ChartSlot heightClass={BODY_HEIGHT} message={`No ${label.toLowerCase()} reported in the ${PERIOD}`} />;
  return (
    <ChartSlot heightClass={BODY_HEIGHT}>
      <LineChart label={`${label} per day, ${PERIOD}`} data={chart.data} columns={['Date', label]} rows={chart.rows} heightClass={CHART_HEIGHT} />
    </ChartSlot>
  );
}

export function DashboardTrends() {
  const analytics = useQuery(analyticsQueryOptions(DEFAULT_FILTERS));
  return (
    <section aria-label="Trends" className="grid gap-6 lg:grid-cols-2">
      <Card title="Followers trend" className="min-w-0">
        <TrendBody answer={analytics.data} metric="followers" label="Followers" failed={analytics.isError} />
      </Card>
      <Card title="Views trend" className="min-w-0">
        <TrendBody answer={analytics.data} metric="views" label="Views" failed={analytics.isError} />
      </Card>
    </section>
  );
}
