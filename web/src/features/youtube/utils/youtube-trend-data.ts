// The YouTube page's series over time as Chart.js data and text alternatives: the channel's views, watch time and
// subscribers per day, and a video's views. Pure; a day without a figure stays null (a gap), never 0.
import type { VideoViewsDay, YoutubeChannelDay } from '#contract/youtube.ts';
import { formatCalendarDay, formatCompactNumber } from '../../../lib/format';
import { PLATFORM_PALETTE } from '../../../lib/platform-palette';
import type { LineChartModel } from './youtube-chart-data';

export interface DailySeries {
  label: string;
  color: string;
  /** How a value reads in the text alternative. */
  format: (value: number) => string;
}

/** One dated series; `joinGaps` draws a dashed line across the missing days (a running total read now and then). */
export function datedLineChartData(points: readonly { date: string; value: number | null }[], series: DailySeries, joinGaps = false): LineChartModel {
  const values = points.map((point) => point.value);
  return {
    data: {
      labels: points.map((point) => formatCalendarDay(point.date)),
      datasets: [
        {
          label: series.label,
          data: values,
          borderColor: series.color,
          backgroundColor: series.color,
          pointRadius: points.length > 31 ? 0 : 2,
          pointHitRadius: 6,
          tension: 0.25,
          spanGaps: joinGaps,
          ...(joinGaps ? { segment: { borderDash: (context: { p0DataIndex: number; p1DataIndex: number }) => (context.p1DataIndex - context.p0DataIndex > 1 ? [4, 4] : undefined) } } : {}),
        },
      ],
    },
    rows: points.map((point) => ({ label: formatCalendarDay(point.date), value: point.value === null ? 'Not reported' : series.format(point.value) })),
  };
}

/** Watch time is reported in minutes and shown in hours (one decimal under 10). */
export const minutesToHours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

export type ChannelTrendMetric = 'views' | 'watchTime' | 'subscribers';

export const CHANNEL_TREND_SERIES: Record<ChannelTrendMetric, DailySeries & { pick: (day: YoutubeChannelDay) => number | null; title: string; column: string }> = {
  views: { title: 'Views per day', column: 'Views', label: 'Views', color: PLATFORM_PALETTE.youtube, format: formatCompactNumber, pick: (day) => day.views },
  watchTime: {
    title: 'Watch time per day (hours)',
    column: 'Hours watched',
    label: 'Hours watched',
    color: '#fbbf24',
    format: (hours) => `${formatCompactNumber(hours)} hours`,
    pick: (day) => (day.watchTimeMinutes === null ? null : minutesToHours(day.watchTimeMinutes)),
  },
  // Net gains per day, YouTube's own gained and lost counts: a total of 100K+ drawn from zero would be a flat line.
  subscribers: {
    title: 'Subscribers gained per day',
    column: 'Subscribers gained (net)',
    label: 'Subscribers gained (net)',
    color: '#818cf8',
    format: (value) => (value > 0 ? `+${formatCompactNumber(value)}` : formatCompactNumber(value)),
    pick: (day) => (day.subscribersGained === null || day.subscribersLost === null ? null : day.subscribersGained - day.subscribersLost),
  },
};

export function channelTrendChartData(days: readonly YoutubeChannelDay[], metric: ChannelTrendMetric): LineChartModel {
  const series = CHANNEL_TREND_SERIES[metric];
  return datedLineChartData(
    days.map((day) => ({ date: day.date, value: series.pick(day) })),
    series,
  );
}

/** Whether a series has anything to draw. */
export const hasValues = (points: readonly { value: number | null }[] | readonly VideoViewsDay[]) =>
  points.some((point) => ('value' in point ? point.value : point.views) !== null);

export function videoViewsChartData(days: readonly VideoViewsDay[], label: string, joinGaps: boolean): LineChartModel {
  return datedLineChartData(
    days.map((day) => ({ date: day.date, value: day.views })),
    { label, color: PLATFORM_PALETTE.youtube, format: formatCompactNumber },
    joinGaps,
  );
}
