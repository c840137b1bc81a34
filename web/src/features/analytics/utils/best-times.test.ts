import { describe, expect, it } from 'vitest';
import { bandOf, cellClassName, firstHourWithPosts, gridRows, initialCellIndex, nextCellIndex, RATIO_BANDS } from './best-times';

describe('best-time heatmap shaping', () => {
  it('bands medians around the typical 1×, edges going up', () => {
    expect(bandOf(0.2).label).toBe('Under 0.5×');
    expect(bandOf(0.5).label).toBe('0.5× to 0.8×');
    expect(bandOf(1).label).toBe('0.8× to 1.25×');
    expect(bandOf(1.25).label).toBe('1.25× to 2×');
    expect(bandOf(7).label).toBe('2× or more');
    expect(new Set(RATIO_BANDS.map((band) => band.className)).size).toBe(RATIO_BANDS.length);
  });

  it('tells empty cells from cells with too few posts', () => {
    expect(cellClassName({ weekday: 1, hour: 0, n: 0, settled: 0, median: null })).toContain('bg-slate-950');
    expect(cellClassName({ weekday: 1, hour: 0, n: 2, settled: 0, median: null })).toContain('border-dashed');
    expect(cellClassName({ weekday: 1, hour: 0, n: 3, settled: 0, median: 2.5 })).toBe('bg-amber-300');
  });

  it('lays 168 cells out as 7 rows of 24, filling what the answer leaves out', () => {
    const rows = gridRows([{ weekday: 7, hour: 23, n: 4, settled: 0, median: 1.1 }]);
    expect(rows).toHaveLength(7);
    expect(rows.every((row) => row.length === 24)).toBe(true);
    expect(rows[6]![23]).toEqual({ weekday: 7, hour: 23, n: 4, settled: 0, median: 1.1 });
    expect(rows[0]![0]).toEqual({ weekday: 1, hour: 0, n: 0, settled: 0, median: null });
  });

  it('moves with the arrow keys and stops at the edges', () => {
    expect(nextCellIndex(0, 'ArrowRight')).toBe(1);
    expect(nextCellIndex(0, 'ArrowLeft')).toBe(0);
    expect(nextCellIndex(0, 'ArrowUp')).toBe(0);
    expect(nextCellIndex(0, 'ArrowDown')).toBe(24);
    expect(nextCellIndex(167, 'ArrowDown')).toBe(167);
    expect(nextCellIndex(23, 'ArrowRight')).toBe(23);
    expect(nextCellIndex(30, 'Home')).toBe(24);
    expect(nextCellIndex(30, 'End')).toBe(47);
    expect(nextCellIndex(30, 'Enter')).toBeNull();
  });

  it('starts the focus on the best slot', () => {
    expect(initialCellIndex([], { weekday: 2, hour: 18 })).toBe(42);
    expect(initialCellIndex([{ weekday: 1, hour: 5, n: 3, settled: 0, median: 1 }], undefined)).toBe(5);
    expect(initialCellIndex([], undefined)).toBe(0);
  });

  it('opens a narrow grid on the earliest hour that holds a post, any weekday', () => {
    const cell = (weekday: number, hour: number, n: number) => ({ weekday, hour, n, settled: 0, median: null });
    expect(firstHourWithPosts([cell(1, 2, 0), cell(3, 9, 1), cell(5, 7, 4), cell(2, 20, 6)])).toBe(7);
    expect(firstHourWithPosts([cell(1, 2, 0)])).toBeNull();
    expect(firstHourWithPosts([])).toBeNull();
  });
});
