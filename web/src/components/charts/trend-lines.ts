// The analytics answer's daily lines (contract metricTrend, platformLine) as a line chart: one line per platform, the
// combined line, and the comparison period's combined line dashed under the same days (its n-th day under the n-th).
// Plain data, no chart.js runtime: pure and tested without a canvas. Shared by the Analytics and Dashboard screens.
import type { ChartData, ChartDataset } from 'chart.js';
import type { DailyValues, DerivedSeries, MetricTrend, PlatformLine, SeriesPoint } from '#contract/analytics.ts';
import { shiftDay } from '#contract/comparison.ts';
import { formatCalendarDay, formatCompactNumber, formatMoney, formatPercentage } from '../../lib/format';
import { platformColour } from '../../lib/platform-palette';
import type { ChartTextRow } from './chart-frame';
import { chartColors } from './chart-theme';
import { comparisonLineStyle } from './comparison-overlay';


/** What a trend charts, in a creator's words. */
export const TREND_LABELS: Readonly<Record<string, string>> = {
  views: 'Views',
  watch_time_minutes: 'Watch time (minutes)',
  followers: 'Followers',
  engagements: 'Engagements',
  engagement_rate: 'Engagement rate',
};

/** The metric types behind a trend, as derivedSeries names them (a derived series is marked on its line). */
export const TREND_DERIVED_METRICS: Readonly<Record<string, readonly string[]>> = {
  views: ['views'],
  followers: ['followers', 'subscribers'],
  engagements: ['likes', 'comments', 'shares'],
  engagement_rate: ['views', 'likes', 'comments', 'shares'],
};

export type TrendValueFormat = 'compact' | 'percent' | 'currency';

/** How a trend's values read: the engagement rate in per cent, revenue in US dollars, the rest as counts. */
export function trendValueFormat(metric: string): TrendValueFormat {
  if (metric === 'engagement_rate') return 'percent';
  if (metric === 'revenue') return 'currency';
  return 'compact';
}

const formatters: Record<TrendValueFormat, (value: number) => string> = {
  compact: formatCompactNumber,
  percent: formatPercentage,
  currency: formatMoney,
};

/** The days of a period of `length` days from `startDate`. */
export function periodDays(startDate: string, length: number): string[] {
  return Array.from({ length }, (_, index) => shiftDay(startDate, index));
}

/** Dated points on the period's days (null where there is none). */
export function valuesOnDays(points: readonly SeriesPoint[], days: readonly string[]): DailyValues {
  const byDate = new Map(points.map((point) => [point.date, point.value]));
  return days.map((day) => byDate.get(day) ?? null);
}

/** A point is drawn where the line has no neighbour (a one-day history would otherwise be invisible) or the period is short. */
function pointRadii(values: DailyValues, radius: number): number[] {
  return values.map((value, index) => {
    if (value === null) return 0;
    if (values.length <= 31) return radius;
    return values[index - 1] == null && values[index + 1] == null ? radius : 0;
  });
}

export interface TrendLegendEntry {
  label: string;
  colour: string;
  dashed: boolean;
}

export interface TrendChart {
  data: ChartData<'line', (number | null)[], string>;
  rows: ChartTextRow[];
  legend: TrendLegendEntry[];
  /** False when no line has a single figure (the chart shows its empty message instead). */
  hasData: boolean;
}

export interface TrendComparison {
  /** The comparison period's first day. */
  startDate: string;
  /** E.g. 'Previous 30 days'. */
  label: string;
}

export interface TrendInput {
  /** The answer's first day. */
  startDate: string;
  platforms: readonly PlatformLine[];
  /** The combined line, or null to draw none (one platform is its own total). */
  combined: DailyValues | null;
  /** The combined line's name, e.g. 'All platforms'. */
  combinedLabel: string;
  /** The comparison period's combined line, one value per day of it. */
  comparison?: { values: DailyValues } & TrendComparison;
  format: TrendValueFormat;
  /** Platforms whose line we derived (their name in the legend says so). */
  derivedPlatforms?: ReadonlySet<string>;
  /** The combined line filled under (Followers Growth). */
  fillCombined?: boolean;
}

/**
 * The chart of a trend: the platforms' lines (colour per platform), the combined line (indigo, thicker) and the
 * comparison period's combined line dashed; the text alternative gives each day's figures in words.
 */
export function trendChart(input: TrendInput): TrendChart {
  const length = Math.max(input.combined?.length ?? 0, ...input.platforms.map((line) => line.values.length));
  const days = periodDays(input.startDate, length);
  const format = formatters[input.format];
  const datasets: ChartDataset<'line', (number | null)[]>[] = [];
  const legend: TrendLegendEntry[] = [];
  const named: { label: string; values: DailyValues }[] = [];

  for (const line of input.platforms) {
    const colour = platformColour(line.platform);
    const label = input.derivedPlatforms?.has(line.platform) ? `${line.platform} (derived)` : line.platform;
    datasets.push({
      label,
      data: line.values,
      borderColor: colour,
      backgroundColor: colour,
      pointBackgroundColor: colour,
      pointRadius: pointRadii(line.values, 2.5),
      borderWidth: 1.75,
      spanGaps: true,
      tension: 0.3,
    });
    legend.push({ label, colour, dashed: false });
    named.push({ label: line.platform, values: line.values });
  }
  if (input.combined) {
    datasets.push({
      label: input.combinedLabel,
      data: input.combined,
      fill: input.fillCombined ?? false,
      borderColor: chartColors.line,
      backgroundColor: chartColors.lineFill,
      pointBackgroundColor: chartColors.line,
      pointRadius: pointRadii(input.combined, 3),
      borderWidth: 2.5,
      spanGaps: true,
      tension: 0.3,
    });
    legend.push({ label: input.combinedLabel, colour: chartColors.line, dashed: false });
    named.push({ label: input.combinedLabel.toLowerCase(), values: input.combined });
  }
  const comparison = input.comparison && input.comparison.values.some((value) => value !== null) ? input.comparison : undefined;
  if (comparison) {
    const values = days.map((_, index) => comparison.values[index] ?? null);
    datasets.push({ ...comparisonLineStyle(), label: comparison.label, data: values });
    legend.push({ label: comparison.label, colour: chartColors.tick, dashed: true });
  }

  const rows = days.map((day, index) => {
    // One line alone needs no name beside its figure.
    const parts = named.flatMap(({ label, values }) => (values[index] == null ? [] : [named.length === 1 ? format(values[index]!) : `${label} ${format(values[index]!)}`]));
    const was = comparison?.values[index];
    if (comparison && was != null) parts.push(`${comparison.label.toLowerCase()} (${formatCalendarDay(shiftDay(comparison.startDate, index))}) ${format(was)}`);
    return { label: formatCalendarDay(day), value: parts.length > 0 ? parts.join('; ') : 'no figure' };
  });
  const hasData = named.some(({ values }) => values.some((value) => value !== null));
  return {
    data: { labels: days.map(formatCalendarDay), datasets },
    // Only the days with a figure: the text alternative of a 90-day chart stays readable.
    rows: rows.filter((row) => row.value !== 'no figure'),
    legend: datasets.length > 1 ? legend : [],
    hasData,
  };
}

/** The platforms of `metrics` whose series in the answer we derived. */
export function derivedPlatforms(series: readonly DerivedSeries[], metrics: readonly string[]): Set<string> {
  return new Set(series.filter((entry) => entry.metrics.some((metric) => metrics.includes(metric))).map((entry) => entry.platform));
}

/** A metric trend of the answer as a chart; the combined line only when there is more than one platform. */
export function metricTrendChart(
  trend: MetricTrend,
  { startDate, comparison, derived }: { startDate: string; comparison?: TrendComparison; derived?: readonly DerivedSeries[] },
): TrendChart {
  const several = trend.platforms.length > 1;
  return trendChart({
    startDate,
    platforms: trend.platforms,
    combined: several ? trend.combined : null,
    combinedLabel: 'All platforms',
    ...(comparison && trend.comparison.length > 0 ? { comparison: { ...comparison, values: trend.comparison } } : {}),
    format: trendValueFormat(trend.metric),
    derivedPlatforms: derived ? derivedPlatforms(derived, TREND_DERIVED_METRICS[trend.metric] ?? [trend.metric]) : new Set(),
  });
}

/**
 * The followers' trend: each platform's line, and the total only over the days where every platform's history has
 * begun, its name saying from when ("Total from Nov 3, 2026, when every platform's history begins"). One platform
 * alone is its own total: a single filled line, as Followers Growth always drew it.
 */
export function followersTrendChart(
  trend: Pick<MetricTrend, 'platforms' | 'combined' | 'comparison'>,
  { startDate, comparison, derived }: { startDate: string; comparison?: TrendComparison; derived?: readonly DerivedSeries[] },
): TrendChart & { totalFrom: string | null } {
  const several = trend.platforms.length > 1;
  const first = trend.combined.findIndex((value) => value !== null);
  const totalFrom = several && first > 0 ? shiftDay(startDate, first) : null;
  const chart = trendChart({
    startDate,
    platforms: several ? trend.platforms : [],
    combined: trend.combined,
    combinedLabel: !several ? 'Followers' : totalFrom ? `Total from ${formatCalendarDay(totalFrom)}, when every platform's history begins` : 'Total',
    ...(comparison && trend.comparison.length > 0 ? { comparison: { ...comparison, values: trend.comparison } } : {}),
    format: 'compact',
    derivedPlatforms: derived ? derivedPlatforms(derived, TREND_DERIVED_METRICS.followers!) : new Set(),
    fillCombined: true,
  });
  return { ...chart, totalFrom };
}
