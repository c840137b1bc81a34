import { describe, expect, it } from 'vitest';
import type { BenchmarkFigure, BenchmarkResponse } from '#contract/benchmark.ts';
import { benchmarkLines } from './benchmark-lines';

const none = { value: null, median: null, ratio: null, percentile: null };
const figure = (overrides: Partial<BenchmarkFigure>): BenchmarkFigure => ({ status: 'noData', ...none, n: 0, ...overrides });

function benchmark(views: [BenchmarkFigure, BenchmarkFigure, BenchmarkFigure]): BenchmarkResponse {
  return {
    contentItemId: 1,
    platform: 'youtube',
    publishedAt: '2026-10-01T00:00:00.000Z',
    ages: (['24h', '7d', '28d'] as const).map((age, index) => ({ age, hours: [24, 168, 672][index]!, views: views[index]!, engagements: figure({}) })),
  };
}

describe('benchmarkLines', () => {
  it('says the ratio with n, the numbers behind it, and words instead of numbers', () => {
    const lines = benchmarkLines(
      benchmark([
        figure({ status: 'notEnough', value: 100, n: 6 }),
        figure({ status: 'ok', value: 2_520, median: 1_200, ratio: 2.1, percentile: 91.5, n: 50 }),
        figure({ status: 'notReached' }),
      ]),
    );
    expect(lines).toEqual([
      { age: '24 hours', sentence: 'Not enough posts to compare at 24 hours (6 of 10 needed)', detail: null, tone: 'none' },
      { age: '7 days', sentence: '2.1× your typical at 7 days (n = 50)', detail: '2.5K views · typical 1.2K · 92nd percentile', tone: 'above' },
      { age: '28 days', sentence: 'Not 28 days old yet', detail: null, tone: 'none' },
    ]);
  });

  it('reads near the median as typical, a small ratio without rounding to zero, and a zero median in words', () => {
    const [typical, low, zero] = benchmarkLines(
      benchmark([
        figure({ status: 'ok', value: 104.6, median: 99.5, ratio: 1.05, percentile: 11, n: 10 }),
        figure({ status: 'ok', value: 3, median: 100, ratio: 0.03, percentile: 0, n: 12 }),
        figure({ status: 'ok', value: 5, median: 0, ratio: null, percentile: 100, n: 10 }),
      ]),
    );
    expect([typical!.sentence, typical!.tone, typical!.detail]).toEqual(['1.1× your typical at 24 hours (n = 10)', 'typical', '105 views · typical 100 · 11th percentile']);
    expect([low!.sentence, low!.tone]).toEqual(['0.030× your typical at 7 days (n = 12)', 'below']);
    expect([zero!.sentence, zero!.tone]).toEqual(['Your typical at 28 days is 0 (n = 10)', 'none']);
  });
});
