// The Analytics screen's Trends card (issue 25): the daily trend of one metric per platform and all platforms together,
// the comparison period dashed under it. Without a Metric filter the creator picks views, watch time, followers,
// engagements or the engagement rate (kept in the URL as ?trend=); with one, it charts what the filter names.
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { type AnalyticsResponse, derivedSeriesSentence } from '#contract/analytics.ts';
import { followersTrendChart, metricTrendChart, TREND_DERIVED_METRICS, TREND_LABELS, type TrendComparison, trendValueFormat } from '../../../components/charts/trend-lines';
import { ChartSlot } from '../../../components/charts/chart-slot';
import { Card } from '../../../components/ui/card';
import { formatCalendarDay } from '../../../lib/format';
import { metricTypeLabel } from '../../../lib/analytics-filters';
import { platformConnectionsQueryOptions, TRACKED_YOUTUBE_HISTORY_NOTE, tracksPublicYouTubeChannel } from '../../../lib/platform-connections';

const LineChart = lazy(async () => ({ default: (await import('../../../components/charts/line-chart')).LineChart }));

/** The chart and its legend: one fixed height, so nothing below moves when the lines (or their legend) arrive. */
export const TREND_BODY_HEIGHT = 'h-[20.5rem] sm:h-[22.5rem]';

export const trendLabel = (metric: string) => TREND_LABELS[metric] ?? metricTypeLabel(metric);

interface TrendPanelProps {
  data: AnalyticsResponse | undefined;
  failed: boolean;
  /** E.g. 'last 30 days'. */
  period: string;
  comparison: TrendComparison | undefined;
  dataKey: string | undefined;
}

export function TrendPanel({ data, failed, period, comparison, dataKey }: TrendPanelProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const trends = data?.trends ?? [];
  const asked = searchParams.get('trend');
  const trend = trends.find((entry) => entry.metric === asked) ?? trends[0];
  // A tracked public YouTube channel's subscribers are part of the followers line, and only 30 days of them are kept.
  const connections = useQuery(platformConnectionsQueryOptions());
  const trackedYouTubeNote =
    trend?.metric === 'followers' && tracksPublicYouTubeChannel(connections.data) ? ` Tracked public YouTube channels: ${TRACKED_YOUTUBE_HISTORY_NOTE}.` : '';

  function choose(metric: string) {
    const next = new URLSearchParams(searchParams);
    if (metric === trends[0]?.metric) next.delete('trend');
    else next.set('trend', metric);
    setSearchParams(next, { replace: true });
  }

  const tabs =
    trends.length > 1 ? (
      <div role="group" aria-label="Trend to chart" className="flex flex-wrap gap-1">
        {trends.map((entry) => (
          <button
            key={entry.metric}
            type="button"
            aria-pressed={entry === trend}
            onClick={() => choose(entry.metric)}
            className={`rounded-md px-2.5 py-1 text-xs font-medium transition-colors ${
              entry === trend ? 'bg-indigo-500 text-white' : 'bg-slate-800 text-slate-300 hover:bg-slate-700'
            }`}
          >
            {trendLabel(entry.metric)}
          </button>
        ))}
      </div>
    ) : null;

  let body: ReactNode;
  let derivedNote: ReactNode = null;
  if (!data || !trend) body = <ChartSlot heightClass={TREND_BODY_HEIGHT} loading={!failed} message="Failed to load analytics data" />;
  else {
    const label = trendLabel(trend.metric);
    const chart =
      trend.metric === 'followers'
        ? followersTrendChart(trend, { startDate: data.startDate, comparison, derived: data.derivedSeries })
        : metricTrendChart(trend, { startDate: data.startDate, comparison, derived: data.derivedSeries });
    const derivedMetrics = TREND_DERIVED_METRICS[trend.metric] ?? [trend.metric];
    const derived = data.derivedSeries.filter((entry) => entry.metrics.some((metric) => derivedMetrics.includes(metric)));
    if (!chart.hasData) body = <ChartSlot heightClass={TREND_BODY_HEIGHT} message={`No ${label.toLowerCase()} reported in the ${period}`} />;
    else {
      body = (
        <ChartSlot heightClass={TREND_BODY_HEIGHT}>
          <LineChart
              label={`${label} per day, ${period}`}
              dataKey={dataKey}
              data={chart.data}
              columns={['Date', label]}
              rows={chart.rows}
            valueFormat={trendValueFormat(trend.metric)}
          />
        </ChartSlot>
      );
      if (derived.length > 0) {
        derivedNote = (
          <ul className="mt-3 list-disc pl-5 text-xs text-slate-400">
            {derived.map((entry) => (
              <li key={`${entry.platform}-${entry.method}`}>Derived by Analytics Hub: {derivedSeriesSentence(entry, formatCalendarDay)}</li>
            ))}
          </ul>
        );
      }
    }
  }

  return (
    <Card title="Trends" className="min-w-0" actions={tabs}>
      <p className="-mt-2 mb-3 text-xs text-slate-400">
        {trend ? `${trendLabel(trend.metric)} per day by platform` : 'Per day by platform'}, {period}
        {trend && trend.platforms.length > 1 ? ', and all platforms together' : ''}. A platform that does not report a figure has no line.
        {comparison && trend && trend.comparison.length === 0 && trend.combined.some((value) => value !== null)
          ? ` No line for ${comparison.label.toLowerCase()}: it holds other accounts than this period, and fewer accounts would read as growth.`
          : ''}
        {trackedYouTubeNote}
      </p>
      {body}
      {derivedNote}
    </Card>
  );
}
