import { describe, expect, it } from 'vitest';
import { mean, median, variance } from './statistics.ts';

describe('statistics', () => {
  it('medians', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('means and variances', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(variance([1, 2, 3, 6])).toBeCloseTo(14 / 3, 12);
    expect(variance([5])).toBe(0);
  });
});
