// The detail modal's "against your typical video" lines: one per age, the contract's sentence, and the numbers
// behind it when there are some.
import { BENCHMARK_AGES, benchmarkSentence, type BenchmarkResponse } from '#contract/benchmark.ts';
import { formatCompactNumber } from '../../../lib/format';

export type BenchmarkTone = 'above' | 'below' | 'typical' | 'none';

export interface BenchmarkLine {
  age: string;
  sentence: string;
  /** "1.3K views · typical 1.2K · 51st percentile"; null when there is no comparison. */
  detail: string | null;
  tone: BenchmarkTone;
}

function ordinal(value: number): string {
  const rounded = Math.round(value);
  const lastTwo = rounded % 100;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][rounded % 10] ?? 'th');
  return `${rounded}${suffix}`;
}

/** Within 10 % of the median reads as typical; the colour only says above or below beyond that. */
function toneOf(ratio: number | null): BenchmarkTone {
  if (ratio === null) return 'none';
  if (ratio >= 1.1) return 'above';
  if (ratio <= 0.9) return 'below';
  return 'typical';
}

export function benchmarkLines(benchmark: BenchmarkResponse): BenchmarkLine[] {
  return benchmark.ages.map(({ age, views }) => ({
    age: BENCHMARK_AGES.find((entry) => entry.age === age)!.label,
    sentence: benchmarkSentence(age, views),
    detail:
      views.status === 'ok' && views.value !== null && views.median !== null && views.percentile !== null
        ? // Interpolated counts are fractional; a view is not.
          `${formatCompactNumber(Math.round(views.value))} views · typical ${formatCompactNumber(Math.round(views.median))} · ${ordinal(views.percentile)} percentile`
        : null,
    tone: views.status === 'ok' ? toneOf(views.ratio) : 'none',
  }));
}
