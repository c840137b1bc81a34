import { describe, expect, it } from 'vitest';
import { funnelSplit, logMean, roundToTotal, variationOf } from './what-changed-math.ts';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('logMean', () => {
  it('is (a − b) / (ln a − ln b), a when equal, 0 with a zero', () => {
    expect(logMean(2, 1)).toBeCloseTo(1 / Math.log(2), 12);
    expect(logMean(5, 5)).toBe(5);
    expect(logMean(0, 3)).toBe(0);
    expect(logMean(3, 0)).toBe(0);
    expect(logMean(1, 2)).toBeCloseTo(logMean(2, 1), 12);
  });
});

describe('funnelSplit (LMDI of revenue = views × RPM)', () => {
  it('splits a change into effects that sum to it exactly, by the log-mean formula', () => {
    const current = { revenue: 150, views: 60_000 };
    const previous = { revenue: 100, views: 50_000 };
    const split = funnelSplit(current, previous);
    if (!split.available) throw new Error('expected a split');
    const weight = (150 - 100) / Math.log(150 / 100);
    expect(split.views).toBeCloseTo(weight * Math.log(60_000 / 50_000), 10);
    expect(split.rpm).toBeCloseTo(weight * Math.log(2.5 / 2), 10);
    expect(split.views + split.rpm).toBe(50);
  });

  it('gives a pure views change to views and a pure RPM change to RPM', () => {
    const views = funnelSplit({ revenue: 20, views: 2000 }, { revenue: 10, views: 1000 });
    expect(views).toEqual({ available: true, views: expect.closeTo(10, 10), rpm: expect.closeTo(0, 10) });
    const rpm = funnelSplit({ revenue: 20, views: 1000 }, { revenue: 10, views: 1000 });
    expect(rpm).toEqual({ available: true, views: 0, rpm: 10 });
  });

  it('follows the analytical limit with zeros: no views on one side → all views; views but no revenue → all RPM', () => {
    expect(funnelSplit({ revenue: 12.5, views: 5000 }, { revenue: 0, views: 0 })).toEqual({ available: true, views: 12.5, rpm: 0 });
    expect(funnelSplit({ revenue: 0, views: 0 }, { revenue: 12.5, views: 5000 })).toEqual({ available: true, views: -12.5, rpm: 0 });
    expect(funnelSplit({ revenue: 12.5, views: 5000 }, { revenue: 0, views: 4000 })).toEqual({ available: true, views: 0, rpm: 12.5 });
    expect(funnelSplit({ revenue: 0, views: 4000 }, { revenue: 7, views: 5000 })).toEqual({ available: true, views: 0, rpm: -7 });
    expect(funnelSplit({ revenue: 0, views: 0 }, { revenue: 0, views: 0 })).toEqual({ available: true, views: 0, rpm: 0 });
  });

  it('the limit rule is the limit: a tiny ε in place of the zero gives nearly the same split', () => {
    // The limit is approached like 1 / ln ε: slowly, hence the very small ε.
    const epsilon = 1e-300;
    const limit = funnelSplit({ revenue: 12.5, views: 5000 }, { revenue: 0, views: 4000 });
    const near = funnelSplit({ revenue: 12.5, views: 5000 }, { revenue: epsilon, views: 4000 });
    if (!limit.available || !near.available) throw new Error('expected splits');
    expect(near.views).toBeCloseTo(limit.views, 1);
    expect(near.rpm).toBeCloseTo(limit.rpm, 1);
  });

  it('refuses negative revenue and revenue without views, in words', () => {
    expect(funnelSplit({ revenue: -3, views: 100 }, { revenue: 5, views: 100 })).toMatchObject({ available: false, reason: expect.stringContaining('negative') });
    expect(funnelSplit({ revenue: 3, views: 0 }, { revenue: 5, views: 100 })).toMatchObject({ available: false, reason: expect.stringContaining('without views') });
  });
});

describe('roundToTotal (largest remainder)', () => {
  it('rounds parts so they add up exactly to the rounded total', () => {
    const parts = [1.4, 1.4, 1.4, 1.8];
    const rounded = roundToTotal(parts, 6);
    expect(sum(rounded)).toBe(6);
    expect(rounded).toEqual([2, 1, 1, 2]);
  });

  it('works in cents with negative parts and a total that is not the naive sum of rounded parts', () => {
    const dollars = [10.005, -3.335, 0.333, 0.333, 0.334];
    const target = Math.round(sum(dollars) * 100);
    const cents = roundToTotal(dollars.map((value) => value * 100), target);
    expect(sum(cents)).toBe(target);
    cents.forEach((value, index) => expect(Math.abs(value - dollars[index]! * 100)).toBeLessThan(1));
  });

  it('meets a target below the sum of floors (the sub-split of an already rounded part)', () => {
    const rounded = roundToTotal([0.9, 0.9, 0.9], 1);
    expect(sum(rounded)).toBe(1);
  });

  it('zero totals: parts that cancel round to parts that cancel', () => {
    const rounded = roundToTotal([120.6, -120.6, 0], 0);
    expect(sum(rounded)).toBe(0);
    expect(rounded).toEqual([121, -121, 0]);
    expect(roundToTotal([], 0)).toEqual([]);
  });
});

describe('variationOf (robust z on the MAD)', () => {
  const history = [10, 12, 8, 11, 9, 10, 13, 7, 10, 11];

  it('says not enough history under 8 past changes', () => {
    expect(variationOf(100, [1, 2, 3, 4, 5, 6, 7])).toEqual({ status: 'notEnoughHistory', changes: 7 });
  });

  it('is usual inside |z| ≤ 2 and unusual beyond', () => {
    // median 10, MAD 1 → scale 1.4826.
    expect(variationOf(12, history)).toMatchObject({ status: 'usual', median: 10, robustZ: expect.closeTo(2 / 1.4826, 6) });
    expect(variationOf(14, history)).toMatchObject({ status: 'unusual', robustZ: expect.closeTo(4 / 1.4826, 6) });
    expect(variationOf(5, history)).toMatchObject({ status: 'unusual' });
  });

  it('falls back to the mean absolute deviation when the MAD is 0, and to equality when every change was the same', () => {
    const mostlyZero = [0, 0, 0, 0, 0, 0, 0, 0, 50, -50];
    expect(variationOf(5, mostlyZero)).toMatchObject({ status: 'usual', robustZ: expect.closeTo(5 / (1.2533 * 10), 6) });
    expect(variationOf(0, [3, 3, 3, 3, 3, 3, 3, 3])).toMatchObject({ status: 'unusual', robustZ: null });
    expect(variationOf(3, [3, 3, 3, 3, 3, 3, 3, 3])).toMatchObject({ status: 'usual', robustZ: null });
  });
});
