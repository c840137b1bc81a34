// The best-time grid's arithmetic without a database: wall-clock buckets across a DST change, empty cells, the
// order-statistic interval on known samples, and the ranking of the top slots (decision 016).
import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, bestTimesGrid, medianInterval, medianOfSorted, medianWithout, settledRatios, weekdayHourIn } from './best-times-grid.ts';

const cellOf = (grid: ReturnType<typeof bestTimesGrid>, weekday: number, hour: number) => grid.cells[(weekday - 1) * 24 + hour]!;

describe('weekdayHourIn', () => {
  it('reads the wall clock of the zone, on both sides of a DST change', () => {
    // Europe/Paris leaves summer time on Sunday 2026-10-25 at 03:00 (back to 02:00): 18:30 local is 16:30Z before
    // and 17:30Z after.
    expect(weekdayHourIn(new Date('2026-10-20T16:30:00Z'), 'Europe/Paris')).toEqual({ weekday: 2, hour: 18 });
    expect(weekdayHourIn(new Date('2026-10-27T17:30:00Z'), 'Europe/Paris')).toEqual({ weekday: 2, hour: 18 });
    // The same UTC hour falls an hour earlier on the clock after the change.
    expect(weekdayHourIn(new Date('2026-10-27T16:30:00Z'), 'Europe/Paris')).toEqual({ weekday: 2, hour: 17 });
    // New York springs forward on 2026-03-08: 02:30 never happens, 07:30Z is 03:30 local.
    expect(weekdayHourIn(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toEqual({ weekday: 7, hour: 3 });
  });

  it('moves a post across midnight into the next weekday', () => {
    expect(weekdayHourIn(new Date('2026-11-02T23:30:00Z'), 'UTC')).toEqual({ weekday: 1, hour: 23 });
    expect(weekdayHourIn(new Date('2026-11-02T23:30:00Z'), 'Asia/Tokyo')).toEqual({ weekday: 2, hour: 8 });
    expect(weekdayHourIn(new Date('2026-11-03T00:15:00Z'), 'UTC')).toEqual({ weekday: 2, hour: 0 });
  });
});

describe('medianInterval', () => {
  it('gives [x(1), x(5)] at 93.75 % for five values: the smallest n with a 90 % interval', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toEqual({ low: 1, high: 5, coverage: 0.9375 });
    expect(medianInterval([1, 2, 3, 4])).toBeNull();
  });

  it('gives [x(2), x(9)] for ten values (coverage 1 − 2·11/1024)', () => {
    const sample = [0.4, 0.6, 0.7, 0.9, 1.0, 1.1, 1.3, 1.6, 2.2, 3.5];
    expect(medianInterval(sample)).toEqual({ low: 0.6, high: 2.2, coverage: 1 - 22 / 1024 });
    expect(medianOfSorted(sample)).toBeCloseTo(1.05);
  });

  it('gives [x(6), x(15)] for twenty values (x(7) would cover only 88.5 %)', () => {
    const sample = Array.from({ length: 20 }, (_, index) => index + 1);
    const interval = medianInterval(sample)!;
    expect([interval.low, interval.high]).toEqual([6, 15]);
    expect(interval.coverage).toBeCloseTo(0.9586, 4);
    expect(1 - 2 * binomialHalfCdf(20, 6)).toBeLessThan(0.9);
  });

  it('sums the binomial without underflow for large n', () => {
    expect(binomialHalfCdf(3000, 1500)).toBeGreaterThan(0.5);
    expect(binomialHalfCdf(3000, 1500)).toBeLessThan(0.52);
    expect(binomialHalfCdf(4, 0)).toBe(1 / 16);
    expect(binomialHalfCdf(4, 4)).toBe(1);
  });
});

describe('bestTimesGrid', () => {
  it('answers 168 cells, empty below five posts, and ranks exactly the coloured cells', () => {
    // One post a week at the same time from the given October day (2026-10-05 is a Monday).
    const weekly = (day: number, hour: number, minute: number, ratios: number[]) =>
      ratios.map((ratio, week) => ({ publishedAt: new Date(Date.UTC(2026, 9, day + 7 * week, hour, minute)), ratio }));
    const posts = [
      // Tuesday 18:00 UTC, five posts: median 1.4.
      ...weekly(6, 18, 10, [1.0, 1.2, 1.4, 1.9, 2.5]),
      // Friday 09:00, six posts: median 0.9.
      ...weekly(2, 9, 45, [0.5, 0.7, 0.8, 1.0, 1.0, 1.1]),
      // Sunday 20:00, three posts: too few for a median, so never coloured above the best slot.
      ...weekly(4, 20, 0, [3, 4, 5]),
      // Monday 07:00, two posts: empty.
      ...weekly(5, 7, 59, [9, 9]),
    ];
    const grid = bestTimesGrid(posts, 'UTC');
    expect(grid.cells).toHaveLength(168);
    expect(grid.cells[0]).toEqual({ weekday: 1, hour: 0, n: 0, settled: 0, median: null });
    expect(cellOf(grid, 2, 18)).toEqual({ weekday: 2, hour: 18, n: 5, settled: 0, median: 1.4 });
    expect(cellOf(grid, 5, 9)).toEqual({ weekday: 5, hour: 9, n: 6, settled: 0, median: 0.9 });
    expect(cellOf(grid, 7, 20)).toEqual({ weekday: 7, hour: 20, n: 3, settled: 0, median: null });
    expect(cellOf(grid, 1, 7)).toEqual({ weekday: 1, hour: 7, n: 2, settled: 0, median: null });
    expect(grid.top).toEqual([
      { weekday: 2, hour: 18, n: 5, settled: 0, median: 1.4, low: 1.0, high: 2.5, coverage: 0.9375 },
      { weekday: 5, hour: 9, n: 6, settled: 0, median: 0.9, low: 0.5, high: 1.1, coverage: 1 - 2 / 64 },
    ]);
    // The best slot is the best coloured cell.
    const coloured = grid.cells.filter((cell) => cell.median !== null).toSorted((a, b) => b.median! - a.median!);
    expect(coloured.map(({ weekday, hour }) => ({ weekday, hour }))).toEqual(grid.top.map(({ weekday, hour }) => ({ weekday, hour })));
  });

  it('keeps a habit of 18:30 local time in one cell across the DST change week', () => {
    // Every day from Wednesday 2026-10-21 to Tuesday 2026-10-27 at 18:30 Paris time (UTC+2, then UTC+1 from the 25th).
    const posts = ['2026-10-21T16:30:00Z', '2026-10-24T16:30:00Z', '2026-10-25T17:30:00Z', '2026-10-26T17:30:00Z', '2026-10-27T17:30:00Z'].map(
      (iso) => ({ publishedAt: new Date(iso), ratio: 1 }),
    );
    const grid = bestTimesGrid(posts, 'Europe/Paris');
    const filled = grid.cells.filter((cell) => cell.n > 0);
    expect(filled.map(({ weekday, hour, n }) => ({ weekday, hour, n }))).toEqual([
      { weekday: 1, hour: 18, n: 1 },
      { weekday: 2, hour: 18, n: 1 },
      { weekday: 3, hour: 18, n: 1 },
      { weekday: 6, hour: 18, n: 1 },
      { weekday: 7, hour: 18, n: 1 },
    ]);
    // Read in UTC the same posts straddle two hours.
    expect(new Set(bestTimesGrid(posts, 'UTC').cells.filter((cell) => cell.n > 0).map((cell) => cell.hour))).toEqual(new Set([16, 17]));
  });

  it('ranks equal medians by the larger sample and keeps at most three', () => {
    const posts = [0, 1, 2, 3].flatMap((hour) =>
      Array.from({ length: 5 + hour }, (_, week) => ({ publishedAt: new Date(Date.UTC(2026, 9, 5 + 7 * week, hour)), ratio: 1 })),
    );
    expect(bestTimesGrid(posts, 'UTC').top.map((slot) => [slot.hour, slot.n])).toEqual([
      [3, 8],
      [2, 7],
      [1, 6],
    ]);
  });

  it('answers every cell empty for no posts', () => {
    const grid = bestTimesGrid([], 'UTC');
    expect(grid.cells.every((cell) => cell.n === 0 && cell.median === null)).toBe(true);
    expect(grid.top).toEqual([]);
  });
});

describe('settled posts', () => {
  it('takes the median without one element', () => {
    expect(medianWithout([1, 2, 3, 4, 100], 4)).toBe(2.5);
    expect(medianWithout([1, 2, 3, 4, 100], 0)).toBe(3.5);
    expect(medianWithout([1, 2, 3, 4], 1)).toBe(3);
    expect(medianWithout([5, 7], 0)).toBe(7);
  });

  it('sets each lifetime total against the posts published nearest to it, so a channel that grew is compared with itself at the time', () => {
    // A channel whose views grew tenfold over 60 posts, with every fifth post twice its neighbours.
    const totals = Array.from({ length: 60 }, (_, index) => (index < 30 ? 100 : 1000) * (index % 5 === 0 ? 2 : 1));
    const ratios = settledRatios(totals, 10);
    // Early and late posts alike: 2× for the standouts, 1× for the rest (not 0.1× for early ones against the whole history).
    expect(ratios.slice(0, 20).filter((_, index) => index % 5 === 0)).toEqual([2, 2, 2, 2]);
    expect(ratios[1]).toBe(1);
    expect(ratios[58]).toBe(1);
    expect(ratios[55]).toBe(2);
    // Fewer posts than neighbours: all the others; against a zero median there is no ratio.
    expect(settledRatios([10, 20, 30], 30)).toEqual([10 / 25, 20 / 20, 30 / 15]);
    expect(settledRatios([0, 0, 5], 30)).toEqual([0, 0, null]);
    expect(settledRatios([7], 30)).toEqual([null]);
  });

  it('counts the settled posts of each cell and slot', () => {
    const posts = Array.from({ length: 5 }, (_, week) => ({ publishedAt: new Date(Date.UTC(2026, 9, 6 + 7 * week, 18)), ratio: 2, settled: week < 3 }));
    const grid = bestTimesGrid(posts, 'UTC');
    expect(cellOf(grid, 2, 18)).toEqual({ weekday: 2, hour: 18, n: 5, settled: 3, median: 2 });
    expect(grid.top[0]).toMatchObject({ weekday: 2, hour: 18, n: 5, settled: 3 });
  });
});
