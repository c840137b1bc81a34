// A line chart's comparison period, overlaid day by day on the current one (issue 15): plain data, no chart.js
// runtime, so the shaping functions stay pure and tested without a canvas.
import type { ChartData, ChartDataset } from 'chart.js';
import { shiftDay } from '#contract/comparison.ts';
import { formatCalendarDay } from '../../lib/format';
import type { ChartTextRow } from './chart-frame';
import { chartColors } from './chart-theme';

export interface DatedValue {
  date: string;
  value: number;
}

/** The comparison series and where the two periods start, for aligning them day by day. */
export interface ComparisonOverlay {
  points: readonly DatedValue[];
  currentStart: string;
  comparisonStart: string;
  /** The dataset's name, e.g. 'Previous 30 days'. */
  label: string;
}

export interface AlignedSeries {
  /** Every day of either series on the current period's calendar, oldest first. */
  dates: string[];
  current: (number | null)[];
  comparison: (number | null)[];
  /** The comparison period's own day under each date (null where it has no point). */
  comparisonDates: (string | null)[];
}

const DAY_MS = 86_400_000;
const dayGap = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * The two series on one calendar: the comparison's first day under the current period's first day, the n-th under
 * the n-th. A day either series lacks is null (the line is drawn across it).
 */
export function alignComparison(current: readonly DatedValue[], overlay: ComparisonOverlay): AlignedSeries {
  const shift = dayGap(overlay.comparisonStart, overlay.currentStart);
  const currentByDate = new Map(current.map((point) => [point.date, point.value]));
  const comparisonByDate = new Map(overlay.points.map((point) => [shiftDay(point.date, shift), point]));
  const dates = [...new Set([...currentByDate.keys(), ...comparisonByDate.keys()])].sort();
  return {
    dates,
    current: dates.map((date) => currentByDate.get(date) ?? null),
    comparison: dates.map((date) => comparisonByDate.get(date)?.value ?? null),
    comparisonDates: dates.map((date) => comparisonByDate.get(date)?.date ?? null),
  };
}

/** The comparison line: dashed, grey, no fill and no points, drawn across missing days. */
export function comparisonLineStyle() {
  return {
    fill: false,
    borderColor: chartColors.tick,
    backgroundColor: chartColors.tick,
    borderDash: [6, 4],
    borderWidth: 1.5,
    pointRadius: 0,
    pointHitRadius: 6,
    spanGaps: true,
    tension: 0.3,
  };
}

/**
 * A line chart of `points` (oldest first) in the `current` style, with the comparison period dashed under it when
 * there is one; the text alternative says each day's figure and, where it has one, the comparison day's.
 */
export function overlaidLineChart(
  points: readonly DatedValue[],
  current: Omit<ChartDataset<'line', (number | null)[]>, 'data'>,
  overlay: ComparisonOverlay | undefined,
  formatValue: (value: number) => string,
): { data: ChartData<'line', (number | null)[], string>; rows: ChartTextRow[] } {
  if (!overlay || overlay.points.length === 0) {
    return {
      data: { labels: points.map((point) => formatCalendarDay(point.date)), datasets: [{ ...current, data: points.map((point) => point.value) }] },
      rows: points.map((point) => ({ label: formatCalendarDay(point.date), value: formatValue(point.value) })),
    };
  }
  const aligned = alignComparison(points, overlay);
  return {
    data: {
      labels: aligned.dates.map(formatCalendarDay),
      datasets: [
        { ...current, data: aligned.current, spanGaps: true },
        { ...comparisonLineStyle(), label: overlay.label, data: aligned.comparison },
      ],
    },
    rows: aligned.dates.map((date, index) => {
      const value = aligned.current[index];
      const was = aligned.comparison[index];
      const wasDate = aligned.comparisonDates[index];
      const shown = value === null || value === undefined ? 'no figure' : formatValue(value);
      return {
        label: formatCalendarDay(date),
        value: was === null || was === undefined || !wasDate ? shown : `${shown}; ${overlay.label.toLowerCase()} (${formatCalendarDay(wasDate)}): ${formatValue(was)}`,
      };
    }),
  };
}
