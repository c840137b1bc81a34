// Turning /api/analytics answers into what the charts draw and what screen readers read instead. Pure: the
// chart components only pass these results to Chart.js.
import type { ChartData } from 'chart.js';
import type { AnalyticsResponse, BreakdownItem, SeriesPoint, TopContentItem } from '#contract/analytics.ts';
import { followersTrendChart, periodDays, type TrendComparison, valuesOnDays } from '../../../components/charts/trend-lines';
import { chartColors } from '../../../components/charts/chart-theme';
import { platformColour } from '../../../lib/platform-palette';
import { type ComparisonOverlay, overlaidLineChart } from '../../../components/charts/comparison-overlay';
import { metricTypeLabel } from '../../../lib/analytics-filters';
import { formatCalendarDay, formatCompactNumber, formatPercentage } from '../../../lib/format';

/** Spec section 9: the Top Content list shows 5 items. */
export const TOP_CONTENT_LIMIT = 5;

/** One row of a chart's text alternative. */
export interface ChartTableRow {
  label: string;
  value: string;
}

export interface SeriesChart<T extends 'line' | 'bar'> {
  /** A line may leave a day out (null) where only the comparison has it. */
  data: ChartData<T, T extends 'line' ? (number | null)[] : number[], string>;
  rows: ChartTableRow[];
}

function sortedByDate(points: readonly SeriesPoint[]): SeriesPoint[] {
  return [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function seriesRows(points: readonly SeriesPoint[]): ChartTableRow[] {
  return points.map((point) => ({ label: formatCalendarDay(point.date), value: formatCompactNumber(point.value) }));
}

/**
 * Followers Growth: a filled line, oldest day first; with an overlay, the comparison period's followers as a dashed
 * line under the same days (its n-th day under the n-th), and in the text alternative beside each day.
 */
export function followersChartData(points: readonly SeriesPoint[], overlay?: ComparisonOverlay): SeriesChart<'line'> {
  const sorted = sortedByDate(points);
  const current = {
    label: 'Followers',
    fill: true,
    borderColor: chartColors.line,
    backgroundColor: chartColors.lineFill,
    pointBackgroundColor: chartColors.line,
    pointRadius: sorted.length > 31 ? 0 : 3,
    tension: 0.3,
  };
  return overlaidLineChart(sorted, current, overlay, formatCompactNumber);
}

/**
 * Followers Growth (issue 24): one line per platform, and the total (filled) over the days where every platform's
 * history has begun, its legend entry saying from when; the comparison period's total dashed under it. One platform
 * alone is a single filled line.
 */
export function followersGrowthChart(answer: AnalyticsResponse, comparison?: TrendComparison) {
  const days = periodDays(answer.startDate, daysBetween(answer.startDate, answer.endDate));
  const comparisonDays = answer.comparison ? periodDays(answer.comparison.startDate, days.length) : [];
  return followersTrendChart(
    {
      platforms: answer.followersByPlatform,
      combined: valuesOnDays(answer.followersOverTime, days),
      comparison: answer.comparison ? valuesOnDays(answer.comparison.followersOverTime, comparisonDays) : [],
    },
    { startDate: answer.startDate, ...(comparison ? { comparison } : {}), derived: answer.derivedSeries },
  );
}

/** Days from `startDate` to `endDate`, both counted. */
function daysBetween(startDate: string, endDate: string): number {
  return Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Engagement: a bar per day, oldest day first. */
export function engagementChartData(points: readonly SeriesPoint[]): SeriesChart<'bar'> {
  const sorted = sortedByDate(points);
  return {
    data: {
      labels: sorted.map((point) => formatCalendarDay(point.date)),
      datasets: [
        {
          label: 'Engagements',
          data: sorted.map((point) => point.value),
          backgroundColor: chartColors.bar,
          borderRadius: 4,
          maxBarThickness: 32,
        },
      ],
    },
    rows: seriesRows(sorted),
  };
}

/** A series is empty when it has no points or every point is 0 (nothing to draw). */
export function isEmptySeries(points: readonly SeriesPoint[] | undefined): boolean {
  return !points || points.every((point) => point.value === 0);
}

/**
 * Platform Distribution: one slice per platform with followers; the legend label carries the percentage
 * ('YouTube (50.0%)'). Each slice is its platform's colour of every chart (the platform palette), whatever its rank.
 */
export function platformDistributionData(items: readonly BreakdownItem[]): { data: ChartData<'doughnut', number[], string>; rows: ChartTableRow[] } {
  const slices = items.filter((item) => item.followers > 0);
  return {
    data: {
      labels: slices.map((item) => `${item.name} (${formatPercentage(item.percentage)})`),
      datasets: [
        {
          label: 'Followers',
          data: slices.map((item) => item.followers),
          backgroundColor: slices.map((item) => platformColour(item.name)),
          borderColor: chartColors.tooltipBackground,
          borderWidth: 2,
        },
      ],
    },
    rows: slices.map((item) => ({
      label: item.name,
      value: `${formatCompactNumber(item.followers)} followers, ${formatPercentage(item.percentage)}`,
    })),
  };
}

export interface RankedContent {
  id: string;
  rank: number;
  /** The title, or the description when the title is blank. */
  heading: string;
  platform: string;
  engagement: string;
  /** The word after the count: 'engagement' for one, else 'engagements' (issue 25: the list read '1 engagements'). */
  engagementWord: 'engagement' | 'engagements';
  url: string | null;
  /** The day it was published, e.g. 'Nov 3, 2026'; null when the platform gave none. */
  published: string | null;
}

/** Top Content: most engaging first, at most 5, ranked #1..#5; the engagement as a compact number. */
export function rankTopContent(items: readonly TopContentItem[]): RankedContent[] {
  return [...items]
    .sort((a, b) => b.engagement - a.engagement)
    .slice(0, TOP_CONTENT_LIMIT)
    .map((item, index) => ({
      id: item.id,
      rank: index + 1,
      heading: item.title.trim() || item.description?.trim() || 'Untitled',
      platform: item.platform,
      engagement: formatCompactNumber(item.engagement),
      engagementWord: item.engagement === 1 ? 'engagement' : 'engagements',
      url: item.url,
      published: item.publishedAt ? formatCalendarDay(item.publishedAt.slice(0, 10)) : null,
    }));
}

/**
 * What an empty panel says: with a Metric chosen that the panel does not draw (Metric = Revenue has no followers),
 * that it does not apply and how to see it, rather than "no data" under cards that show the figures.
 */
export function emptyPanelText(metricType: string | null, panelMetrics: readonly string[], panel: string, noData: string): string {
  if (metricType === null || panelMetrics.includes(metricType)) return noData;
  return `${panel} are not part of Metric = ${metricTypeLabel(metricType)}: clear the Metric filter to see them.`;
}
