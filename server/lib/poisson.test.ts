import { describe, expect, it } from 'vitest';
import { garwoodInterval, poissonCdf } from './poisson.ts';

describe('exact Poisson interval', () => {
  it('matches published Garwood limits', () => {
    // Garwood (1936) / the chi-square form: k = 0 → [0, 3.689]; 1 → [0.0253, 5.572]; 10 → [4.795, 18.39]; 50 → [37.11, 65.92] (scipy chi2.ppf).
    const cases: [number, number, number][] = [
      [0, 0, 3.6889],
      [1, 0.0253, 5.5716],
      [10, 4.7954, 18.3904],
      [50, 37.111, 65.9188],
    ];
    for (const [count, low, high] of cases) {
      const interval = garwoodInterval(count);
      expect(interval.low).toBeCloseTo(low, 3);
      expect(interval.high).toBeCloseTo(high, 3);
    }
  });

  it('sums the distribution exactly', () => {
    expect(poissonCdf(0, 2)).toBeCloseTo(Math.exp(-2), 12);
    expect(poissonCdf(2, 2)).toBeCloseTo(Math.exp(-2) * (1 + 2 + 2), 12);
    expect(poissonCdf(3000, 3000)).toBeGreaterThan(0.5);
    expect(poissonCdf(3000, 3000)).toBeLessThan(0.51);
    expect(() => garwoodInterval(-1)).toThrow(RangeError);
  });
});
