// Shaping the best-time answer for the heatmap: the colour band of a cell, the rows of the grid, and where the arrow
// keys move the focus. Pure, so they are tested without a browser.
import type { BestTimesCell } from '#contract/best-times.ts';

export const HOURS_PER_DAY = 24;
export const DAYS_PER_WEEK = 7;

export interface RatioBand {
  label: string;
  /** Tailwind classes of the cell's fill (and of its legend swatch). */
  className: string;
  /** The band holds medians below this (the last band has none). */
  below: number | null;
}

/**
 * A diverging scale around 1× (the creator's typical post): blues below, slate near, ambers above. Each step is
 * lighter or darker than the slate-900 card and than its neighbours, so the bands stay apart on the dark theme.
 */
export const RATIO_BANDS: readonly RatioBand[] = [
  { label: 'Under 0.5×', className: 'bg-sky-900', below: 0.5 },
  { label: '0.5× to 0.8×', className: 'bg-sky-600', below: 0.8 },
  { label: '0.8× to 1.25×', className: 'bg-slate-400', below: 1.25 },
  { label: '1.25× to 2×', className: 'bg-amber-600', below: 2 },
  { label: '2× or more', className: 'bg-amber-300', below: null },
];
/** Cells without a median: no posts at all, or too few to say. */
export const NO_POSTS_CLASS = 'bg-slate-950 border border-slate-800';
export const TOO_FEW_CLASS = 'bg-slate-800 border border-dashed border-slate-600';

export function bandOf(median: number): RatioBand {
  return RATIO_BANDS.find((band) => band.below !== null && median < band.below) ?? RATIO_BANDS.at(-1)!;
}

export function cellClassName(cell: BestTimesCell): string {
  if (cell.median !== null) return bandOf(cell.median).className;
  return cell.n === 0 ? NO_POSTS_CLASS : TOO_FEW_CLASS;
}

/** Seven rows (Monday first) of 24 cells, from the answer's 168 cells in any order. */
export function gridRows(cells: readonly BestTimesCell[]): BestTimesCell[][] {
  const rows = Array.from({ length: DAYS_PER_WEEK }, (_, day) =>
    Array.from({ length: HOURS_PER_DAY }, (_, hour): BestTimesCell => ({ weekday: day + 1, hour, n: 0, settled: 0, median: null })),
  );
  for (const cell of cells) rows[cell.weekday - 1]![cell.hour] = cell;
  return rows;
}

/** The cell index (weekday-1)·24 + hour the key moves to from `index`, or null for a key that moves nothing. */
export function nextCellIndex(index: number, key: string): number | null {
  const row = Math.floor(index / HOURS_PER_DAY);
  const column = index % HOURS_PER_DAY;
  const at = (r: number, c: number) => r * HOURS_PER_DAY + c;
  switch (key) {
    case 'ArrowRight':
      return at(row, Math.min(HOURS_PER_DAY - 1, column + 1));
    case 'ArrowLeft':
      return at(row, Math.max(0, column - 1));
    case 'ArrowDown':
      return at(Math.min(DAYS_PER_WEEK - 1, row + 1), column);
    case 'ArrowUp':
      return at(Math.max(0, row - 1), column);
    case 'Home':
      return at(row, 0);
    case 'End':
      return at(row, HOURS_PER_DAY - 1);
    default:
      return null;
  }
}

/** Where the focus starts: the best slot, else the first cell with a median, else Monday 00:00. */
/** The earliest hour of the day that holds a post on any weekday, where a narrow screen's grid opens; null if none. */
export function firstHourWithPosts(cells: readonly BestTimesCell[]): number | null {
  const hours = cells.filter((cell) => cell.n > 0).map((cell) => cell.hour);
  return hours.length > 0 ? Math.min(...hours) : null;
}

export function initialCellIndex(cells: readonly BestTimesCell[], best: { weekday: number; hour: number } | undefined): number {
  const start = best ?? cells.find((cell) => cell.median !== null);
  return start ? (start.weekday - 1) * HOURS_PER_DAY + start.hour : 0;
}
