import { describe, expect, it } from 'vitest';
import { ROUND_FIGURES, roundFigureLabel } from './round-figures.ts';

const nextAbove = (count: number) => ROUND_FIGURES.find((figure) => figure > count)!;

describe('the round figures a forecast milestone is chosen from', () => {
  it('is the nearest round figure above today’s count, on the scale people say', () => {
    expect(nextAbove(112_000)).toBe(120_000);
    expect(nextAbove(1_314)).toBe(1_500);
    expect(nextAbove(38_000)).toBe(40_000);
    expect(nextAbove(99)).toBe(100);
    expect(nextAbove(1_000)).toBe(1_200);
    expect(nextAbove(2_450_000)).toBe(2_500_000);
  });

  it('steps up by a third at most (the alerts’ 1-2-5 steps double), so the next one is near', () => {
    for (let index = 1; index < ROUND_FIGURES.length; index += 1) {
      const [before, after] = [ROUND_FIGURES[index - 1]!, ROUND_FIGURES[index]!];
      expect(after).toBeGreaterThan(before);
      expect(after / before).toBeLessThanOrEqual(4 / 3 + 1e-9);
    }
  });

  it('is named as a creator writes it', () => {
    expect([1_500, 120_000, 2_500_000, 40_000, 100].map(roundFigureLabel)).toEqual(['1.5K', '120K', '2.5M', '40K', '100']);
  });
});
