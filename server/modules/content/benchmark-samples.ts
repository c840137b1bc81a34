// Each post's count at an age beside its comparables (decision 014): the newest BENCHMARK_SAMPLE_SIZE other posts of its
// platform with a count at that age; their median, and how many are below it and tied with it. Done here rather than
// in SQL: the sample of every post outside a platform's newest 51 is the same 50 posts, so it is sorted once, where a
// join of targets × samples made PostgreSQL sort and aggregate 50 rows per post, age and metric (a second per 1,000 posts).
import { BENCHMARK_SAMPLE_SIZE, type BenchmarkAge } from '#contract/benchmark.ts';
import { ascending, countBelow, medianOfSorted } from '../../lib/sorted-numbers.ts';
import type { BenchmarkMetric, ValuedCount } from './benchmark.repository.ts';

export interface BenchmarkRow {
  contentItemId: number;
  age: BenchmarkAge;
  metric: BenchmarkMetric;
  /** The post's own count at that age; null when it has none. */
  value: number | null;
  /** Comparable posts (0–BENCHMARK_SAMPLE_SIZE). */
  n: number;
  median: number | null;
  below: number;
  ties: number;
}

/**
 * For each target (id and platform), each age and metric: its count and its comparables' median, below and ties.
 * `counts`: every post of the targets' platforms with a count (as the repository reads them).
 */
export function compareWithinPlatforms(targets: readonly { id: number; platform: string }[], counts: readonly ValuedCount[], ages: readonly BenchmarkAge[]): BenchmarkRow[] {
  // Per platform, metric and age: the posts with a count, newest first (ties by id, newest first).
  const groups = new Map<string, ValuedCount[]>();
  const own = new Map<string, number>();
  for (const count of counts) {
    const key = `${count.platform}\u0000${count.metric}\u0000${count.age}`;
    const group = groups.get(key);
    if (group) group.push(count);
    else groups.set(key, [count]);
    if (count.isTarget) own.set(`${count.itemId}\u0000${count.metric}\u0000${count.age}`, count.value);
  }
  const newest = new Map<string, { ids: number[]; values: number[]; sharedSample: number[] }>();
  for (const [key, members] of groups) {
    members.sort((a, b) => b.publishedAt - a.publishedAt || b.itemId - a.itemId);
    const head = members.slice(0, BENCHMARK_SAMPLE_SIZE + 1);
    newest.set(key, { ids: head.map((member) => member.itemId), values: head.map((member) => member.value), sharedSample: ascending(head.slice(0, BENCHMARK_SAMPLE_SIZE).map((member) => member.value)) });
  }
  const rows: BenchmarkRow[] = [];
  for (const target of targets) {
    for (const age of ages) {
      for (const metric of ['views', 'engagements'] as const) {
        const group = newest.get(`${target.platform}\u0000${metric}\u0000${age}`);
        const value = own.get(`${target.id}\u0000${metric}\u0000${age}`) ?? null;
        // Outside the newest 51 the sample is the newest 50; inside, the newest 51 less the post itself.
        const position = group ? group.ids.indexOf(target.id) : -1;
        const sample = !group ? [] : position === -1 ? group.sharedSample : ascending(group.values.filter((_, index) => index !== position).slice(0, BENCHMARK_SAMPLE_SIZE));
        const below = value === null ? 0 : countBelow(sample, value);
        const ties = value === null ? 0 : countBelow(sample, value, true) - below;
        rows.push({ contentItemId: target.id, age, metric, value, n: sample.length, median: medianOfSorted(sample), below, ties });
      }
    }
  }
  return rows;
}
