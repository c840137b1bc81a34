// Turns the benchmark query's rows into the contract's answer: which ages the post has not reached, which have no
// reading, which have too few comparable posts, and the ratio and percentile of the rest (decision 014).
import { BENCHMARK_AGES, BENCHMARK_MIN_SAMPLE, type BenchmarkFigure, type BenchmarkResponse } from '#contract/benchmark.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BenchmarkRepository, BenchmarkRow } from './benchmark.repository.ts';

const HOUR_MS = 3_600_000;

export function createBenchmarkService({ repository, clock }: { repository: BenchmarkRepository; clock: Clock }) {
  return {
    async benchmark(userId: number, contentItemId: number): Promise<BenchmarkResponse> {
      const item = await repository.ownedItem(userId, contentItemId);
      // Another user's post answers like a missing one, so ids say nothing about other accounts.
      if (!item) throw new AppError('not_found', 'No such post.');
      const now = clock.now();
      const rows = item.publishedAt ? await repository.benchmark(userId, contentItemId, now) : [];
      const figure = (row: BenchmarkRow | undefined, hours: number): BenchmarkFigure => {
        const empty = { value: null, median: null, ratio: null, percentile: null, n: row?.n ?? 0 };
        if (!item.publishedAt) return { status: 'noData', ...empty };
        if (now.getTime() - item.publishedAt.getTime() < hours * HOUR_MS) return { status: 'notReached', ...empty };
        if (!row || row.value === null) return { status: 'noData', ...empty };
        if (row.n < BENCHMARK_MIN_SAMPLE || row.median === null) return { status: 'notEnough', ...empty, value: row.value };
        return {
          status: 'ok',
          value: row.value,
          median: row.median,
          ratio: row.median > 0 ? row.value / row.median : null,
          percentile: (100 * (row.below + row.ties / 2)) / row.n,
          n: row.n,
        };
      };
      return {
        contentItemId: item.id,
        platform: item.platform,
        publishedAt: item.publishedAt?.toISOString() ?? null,
        ages: BENCHMARK_AGES.map(({ age, hours }) => {
          const of = (metric: BenchmarkRow['metric']) => rows.find((row) => row.age === age && row.metric === metric);
          return { age, hours, views: figure(of('views'), hours), engagements: figure(of('engagements'), hours) };
        }),
      };
    },
  };
}

export type BenchmarkService = ReturnType<typeof createBenchmarkService>;
