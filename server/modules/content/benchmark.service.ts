// Turns the benchmark query's rows into the contract's answer: which ages a post has not reached, which have no
// reading, which have too few comparable posts, and the ratio and percentile of the rest (decision 014). One post
// (GET /api/content/{id}/benchmark) or many at once (the per-post table, best times, alerts) in one query.
import { BENCHMARK_AGES, BENCHMARK_MIN_SAMPLE, type BenchmarkFigure, type BenchmarkResponse } from '#contract/benchmark.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BenchmarkedItem, BenchmarkRepository, BenchmarkTargets } from './benchmark.repository.ts';
import { type BenchmarkRow, compareWithinPlatforms } from './benchmark-samples.ts';

const HOUR_MS = 3_600_000;
const AGES = BENCHMARK_AGES.map((entry) => entry.age);

/** One post's answer from its rows of the benchmark query (none when it has no publishing date). */
function responseOf(item: BenchmarkedItem, rows: readonly BenchmarkRow[], now: Date): BenchmarkResponse {
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
}

export function createBenchmarkService({ repository, clock }: { repository: BenchmarkRepository; clock: Clock }) {
  return {
    async benchmark(userId: number, contentItemId: number): Promise<BenchmarkResponse> {
      const item = await repository.ownedItem(userId, contentItemId);
      // Another user's post answers like a missing one, so ids say nothing about other accounts.
      if (!item) throw new AppError('not_found', 'No such post.');
      const now = clock.now();
      const rows = item.publishedAt ? compareWithinPlatforms([item], await repository.countsAtAges(userId, { contentItemIds: [contentItemId] }, now), AGES) : [];
      return responseOf(item, rows, now);
    },

    /**
     * Every post of the user picked by `targets` (one platform's, or the given ids; ids of other users' posts are left
     * out), newest first, each answered as GET /api/content/{id}/benchmark would answer it, from one query.
     */
    async forPosts(userId: number, targets: BenchmarkTargets = {}): Promise<BenchmarkResponse[]> {
      if (targets.contentItemIds?.length === 0) return [];
      const now = clock.now();
      const items = await repository.ownedItems(userId, targets);
      if (items.length === 0) return [];
      const dated = items.filter((item) => item.publishedAt && item.publishedAt <= now);
      const rows = dated.length > 0 ? compareWithinPlatforms(dated, await repository.countsAtAges(userId, targets, now), AGES) : [];
      const rowsByItem = new Map<number, BenchmarkRow[]>();
      for (const row of rows) {
        const itemRows = rowsByItem.get(row.contentItemId);
        if (itemRows) itemRows.push(row);
        else rowsByItem.set(row.contentItemId, [row]);
      }
      return items.map((item) => responseOf(item, rowsByItem.get(item.id) ?? [], now));
    },
  };
}

export type BenchmarkService = ReturnType<typeof createBenchmarkService>;
