import { describe, expect, it } from 'vitest';
import { comparisonConfidence, mannWhitney, median, normalCdf, outlierConfidence, robustSpread } from './statistics.ts';

describe('statistics', () => {
  it('medians and robust spread', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    // MAD of 1..5 is 1.
    expect(robustSpread([1, 2, 3, 4, 5])).toBeCloseTo(1.4826);
  });

  it('normal distribution', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 5);
  });

  it('Mann-Whitney U on known cases', () => {
    const separated = mannWhitney([4, 5, 6, 7, 8], [1, 2, 3, 3.5, 0]);
    expect(separated.u).toBe(25);
    expect(separated.probabilityOfSuperiority).toBe(1);
    expect(separated.rankBiserial).toBe(1);
    // Exact one-sided p for complete separation with 5 vs 5 is 1/252 ≈ 0.004; the normal approximation is close.
    expect(separated.pGreater).toBeLessThan(0.01);
    expect(mannWhitney([1, 2, 3], [4, 5, 6]).u).toBe(0);
    // Ties count one half.
    expect(mannWhitney([1, 2], [2, 3]).u).toBe(0.5);
    const same = mannWhitney([1, 2, 3, 4], [1, 2, 3, 4]);
    expect(same.rankBiserial).toBe(0);
    expect(same.pGreater).toBeCloseTo(0.5, 5);
  });

  it('confidence grows with evidence and effect size', () => {
    expect(comparisonConfidence(0, 0.9)).toBe(0.99);
    expect(comparisonConfidence(0.1, 0.6)).toBe(0.68);
    expect(comparisonConfidence(0.01, 0.6)).toBe(0.9);
    expect(comparisonConfidence(0.01, 0.25)).toBe(0.68);
    expect(comparisonConfidence(1, 1)).toBe(0);
    expect(outlierConfidence(10, 4)).toBe(0.5);
    expect(outlierConfidence(90, 8)).toBe(0.9);
    expect(outlierConfidence(90, 2)).toBe(0.45);
  });
});
