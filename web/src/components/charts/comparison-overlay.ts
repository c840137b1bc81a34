// A line chart's comparison period, overlaid day by day on the current one (issue 15): plain data, no chart.js
// runtime, so the shaping functions stay pure and tested without a canvas.
import { shiftDay } from '#contract/comparison.ts';
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
