import { lazy } from 'react';
import type { PerformanceSummary } from '#contract/youtube.ts';
import { ChartSlot } from '../../../components/charts/chart-slot';
import { Card } from '../../../components/ui/card';
import { formatCalendarDay } from '../../../lib/format';
import { CHANNEL_TREND_SERIES, type ChannelTrendMetric, channelTrendChartData } from '../utils/youtube-trend-data';

// Chart.js is only downloaded when a chart is about to be drawn.
const LineChart = lazy(async () => ({ default: (await import('../../../components/charts/line-chart')).LineChart }));

const METRICS: ChannelTrendMetric[] = ['views', 'watchTime', 'subscribers'];
const CHART_HEIGHT = 'h-48';

/** The channel's views, watch time and subscriber gains per day over the period, through the report's last complete day. */
export function ChannelTrendPanel({ summary }: { summary: PerformanceSummary }) {
  const days = summary.channelTrend;
  const through = days.at(-1)?.date;
  let caption: string;
  if (!summary.analyticsAccess) caption = "YouTube didn't give Analytics Hub access to your channel's daily reports, so there is nothing to draw.";
  else if (!through) caption = 'YouTube has not reported any day of this period yet.';
  else if (through < summary.endDate)
    caption = `Through ${formatCalendarDay(through)}, the last day YouTube has reported: it counts each day two or three days later, so the last days of the period aren't in yet.`;
  else caption = `Through ${formatCalendarDay(through)}.`;
  return (
    <Card title="Channel Trends">
      <p className="-mt-2 mb-4 text-xs text-slate-400">{caption}</p>
      <div className="grid gap-6 lg:grid-cols-3">
        {METRICS.map((metric) => {
          const series = CHANNEL_TREND_SERIES[metric];
          const model = channelTrendChartData(days, metric);
          const hasData = model.data.datasets[0]!.data.some((value) => value !== null);
          const total = days.reduce((sum, day) => sum + (series.pick(day) ?? 0), 0);
          return (
            <section key={metric} className="min-w-0" aria-labelledby={`channel-trend-${metric}`}>
              <h3 id={`channel-trend-${metric}`} className="mb-2 flex items-baseline justify-between gap-2 text-sm font-medium text-slate-200">
                {series.title}
                {hasData ? <span className="text-xs font-normal text-slate-400 tabular-nums">{series.format(total)} in all</span> : null}
              </h3>
              <ChartSlot heightClass={CHART_HEIGHT} message={hasData ? undefined : 'No days reported yet.'}>
                <LineChart
                  label={`${series.title}, ${days[0] ? formatCalendarDay(days[0].date) : ''} to ${through ? formatCalendarDay(through) : ''}`}
                  data={model.data}
                  columns={['Date', series.column]}
                  rows={model.rows}
                  heightClass={CHART_HEIGHT}
                />
              </ChartSlot>
            </section>
          );
        })}
      </div>
    </Card>
  );
}
