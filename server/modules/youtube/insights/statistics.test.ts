import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, mean, median, robustSpread, variance } from './statistics.ts';

describe('statistics', () => {
  it('medians and robust spread', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    // MAD of 1..5 is 1.
    expect(robustSpread([1, 2, 3, 4, 5])).toBeCloseTo(1.4826);
  });

  it('means, variances and the binomial sign-test distribution', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(variance([1, 2, 3, 6])).toBeCloseTo(14 / 3, 12);
    expect(variance([5])).toBe(0);
    // P(X ≤ 5) for Binomial(20, ½) = 21,700 / 2^20.
    expect(binomialHalfCdf(5, 20)).toBeCloseTo(21_700 / 2 ** 20, 12);
    expect(binomialHalfCdf(20, 20)).toBe(1);
    expect(binomialHalfCdf(-1, 20)).toBe(0);
  });
});
