// The evidence's intervals on synthetic data whose answer is known: each method's 95 % interval covers the true effect
// in close to 95 % of repeated samples (the Bonferroni interval in at least that), and the confidence badge follows the
// p-value the interval implies.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random.ts';
import { buildEvidence, confidenceFromEvidence, excludesNoEffect, meanDifference, ratioOfGeometricMeans, ratioOfMeans } from './evidence.ts';
import { studentTCdf, studentTQuantile } from './statistics.ts';

const REPEATS = 2000;

/** The share of `REPEATS` samples whose interval covers `truth`. */
function coverage(draw: (repeat: number) => { low: number; high: number } | null, truth: number): number {
  let covered = 0;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const interval = draw(repeat)!;
    if (interval.low <= truth && truth <= interval.high) covered += 1;
  }
  return covered / REPEATS;
}

describe('Student t distribution', () => {
  it('matches the tables', () => {
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.2281, 4);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentTQuantile(0.995, 30)).toBeCloseTo(2.75, 3);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 3);
    expect(studentTCdf(0, 7)).toBeCloseTo(0.5, 10);
    expect(studentTCdf(-2.0150, 5)).toBeCloseTo(0.05, 4);
  });
});

describe('ratio of geometric means (per-video views)', () => {
  const random = seededRandom(17);
  /** Log-normal 7-day views around `typical`, with log spread `sd`. */
  const views = (count: number, typical: number, sd: number) => Array.from({ length: count }, () => Math.exp(random.normal(Math.log(typical), sd)));

  it('finds a planted 1.6× with an interval that covers it', () => {
    const estimate = ratioOfGeometricMeans(views(14, 8000 * 1.6, 0.5), views(41, 8000, 0.5));
    expect(estimate.low).toBeLessThan(1.6);
    expect(estimate.high).toBeGreaterThan(1.6);
    expect(estimate.low).toBeGreaterThan(1);
  });

  it('covers the true ratio in about 95 % of samples, with unequal groups and spreads', () => {
    const share = coverage(() => ratioOfGeometricMeans(views(14, 12_800, 0.6), views(41, 8000, 0.9)), 1.6);
    expect(share).toBeGreaterThan(0.93);
    expect(share).toBeLessThan(0.97);
  });

  it('covers at least 95 % for the whole family when adjusted for 7 comparisons', () => {
    const share = coverage(() => ratioOfGeometricMeans(views(8, 8000, 0.8), views(40, 8000, 0.8), 7), 1);
    expect(share).toBeGreaterThan(0.985);
  });

  it('with no effect, excludes 1 in about 5 % of samples only', () => {
    const share = coverage(() => ratioOfGeometricMeans(views(10, 8000, 0.7), views(30, 8000, 0.7)), 1);
    expect(share).toBeGreaterThan(0.93);
    expect(share).toBeLessThan(0.97);
  });
});

describe('ratio of daily means (traffic sources, RPM)', () => {
  const random = seededRandom(28);
  /** 28 daily totals with mean `level` (log-normal day-to-day variation of spread `sd`). */
  const days = (level: number, sd: number) => Array.from({ length: 28 }, () => level * Math.exp(random.normal(-(sd * sd) / 2, sd)));

  it('covers the true ratio of means in about 95 % of samples', () => {
    const share = coverage(() => ratioOfMeans(days(560, 0.35), days(400, 0.25)), 1.4);
    expect(share).toBeGreaterThan(0.93);
    expect(share).toBeLessThan(0.97);
  });

  it('answers nothing for a series without views', () => {
    expect(ratioOfMeans([0, 0, 0], [1, 2, 3])).toBeNull();
  });
});

describe('mean of paired differences (retention stretches)', () => {
  const random = seededRandom(5);
  it('covers the true difference in about 95 % of samples', () => {
    const share = coverage(() => meanDifference(Array.from({ length: 12 }, () => random.normal(4, 3))), 4);
    expect(share).toBeGreaterThan(0.93);
    expect(share).toBeLessThan(0.97);
  });
});

describe('evidence and confidence', () => {
  it('derives the confidence from the adjusted p-value, and the p-value agrees with the interval', () => {
    const random = seededRandom(3);
    for (let repeat = 0; repeat < 200; repeat += 1) {
      const a = Array.from({ length: 12 }, () => Math.exp(random.normal(0.3, 0.6)));
      const b = Array.from({ length: 30 }, () => Math.exp(random.normal(0, 0.6)));
      const estimate = ratioOfGeometricMeans(a, b, 5);
      const evidence = buildEvidence('ratioOfGeometricMeans', [{ label: 'a', n: 12 }, { label: 'b', n: 30 }], '7-day views', estimate);
      // The interval excludes 1 exactly when the adjusted p-value is below 5 % (rounding aside).
      if (Math.abs(estimate.pValue - 0.05) > 1e-3) expect(excludesNoEffect(evidence)).toBe(estimate.pValue < 0.05);
      expect(confidenceFromEvidence(evidence)).toBeCloseTo(Math.min(0.99, 1 - Math.sqrt(evidence.pValue)), 2);
    }
    expect(confidenceFromEvidence({ pValue: 0.05 })).toBe(0.78);
    expect(confidenceFromEvidence({ pValue: 0.01 })).toBe(0.9);
    expect(confidenceFromEvidence({ pValue: 1e-9 })).toBe(0.99);
  });

  it('names the method and the comparisons it was adjusted for', () => {
    const evidence = buildEvidence('ratioOfGeometricMeans', [{ label: 'a', n: 5 }, { label: 'b', n: 5 }], '7-day views', ratioOfGeometricMeans([2, 3, 4, 5, 6], [1, 2, 3, 4, 5], 5));
    expect(evidence.method).toBe('ratio of geometric means; Welch t interval on log views, Bonferroni-adjusted for 5 comparisons');
    expect(evidence.comparisons).toBe(5);
  });
});
