// The best-time grid's arithmetic (decision 016), pure so it is tested on its own: a post's weekday and hour on the
// wall clock of a zone, the median of each cell, and a distribution-free interval for the median of the best cells.
import {
  BEST_TIMES_CONFIDENCE,
  BEST_TIMES_MIN_CELL_POSTS,
  BEST_TIMES_MIN_SLOT_POSTS,
  BEST_TIMES_TOP_SLOTS,
  type BestTimesCell,
  type BestTimesSlot,
} from '#contract/best-times.ts';

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The ISO weekday (1 = Monday) and hour (0–23) of an instant on the zone's wall clock. Intl applies the zone's rules
 * for that very instant, so a post at 18:30 local time lands in the 18:00 cell on both sides of a DST change.
 */
export function weekdayHourIn(instant: Date, zone: string): { weekday: number; hour: number } {
  const parts = formatterOf(zone).formatToParts(instant);
  const weekday = WEEKDAYS[parts.find((part) => part.type === 'weekday')!.value]!;
  // Some runtimes print midnight as "24" even with h23.
  const hour = Number(parts.find((part) => part.type === 'hour')!.value) % 24;
  return { weekday, hour };
}

/** The median of ascending values (the mean of the middle two for an even count). */
export function medianOfSorted(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** P(B ≤ k) for B ~ Binomial(n, ½), summed in log space so large n does not underflow. */
export function binomialHalfCdf(n: number, k: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let logTerm = n * Math.log(0.5);
  let total = Math.exp(logTerm);
  for (let i = 0; i < k; i += 1) {
    logTerm += Math.log(n - i) - Math.log(i + 1);
    total += Math.exp(logTerm);
  }
  return Math.min(1, total);
}

/**
 * The order-statistic confidence interval for the median: [x₍ⱼ₎, x₍ₙ₊₁₋ⱼ₎] with the largest j whose exact coverage
 * 1 − 2·P(B ≤ j − 1), B ~ Binomial(n, ½), is at least `confidence`. It assumes nothing about the distribution of the
 * ratios. Null when even [min, max] covers less (n too small).
 */
export function medianInterval(sorted: readonly number[], confidence = BEST_TIMES_CONFIDENCE): { low: number; high: number; coverage: number } | null {
  const n = sorted.length;
  let j = 0;
  while (j + 1 <= Math.floor(n / 2) && 1 - 2 * binomialHalfCdf(n, j) >= confidence) j += 1;
  if (j === 0) return null;
  return { low: sorted[j - 1]!, high: sorted[n - j]!, coverage: 1 - 2 * binomialHalfCdf(n, j - 1) };
}

export interface RatedPost {
  publishedAt: Date;
  ratio: number;
  /** Counted with its lifetime total (an old post) rather than a count at an age. */
  settled?: boolean;
}

/** The median of `sorted` without its element at `skip` (sorted ascending; at least two elements). */
export function medianWithout(sorted: readonly number[], skip: number): number {
  const rest = sorted.length - 1;
  const at = (index: number) => sorted[index >= skip ? index + 1 : index]!;
  const middle = Math.floor(rest / 2);
  return rest % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

/**
 * Each post's lifetime total against the median of the `neighbours` other posts published nearest to it (posts sorted
 * by publishing time): a channel that grew is compared with itself at the time, not with its later or earlier size.
 * Null where that median is 0. Needs more than `neighbours` posts to give every post a full set; with fewer, all others.
 */
export function settledRatios(totals: readonly number[], neighbours: number): (number | null)[] {
  const count = totals.length;
  if (count < 2) return totals.map(() => null);
  const size = Math.min(neighbours + 1, count);
  return totals.map((total, index) => {
    const start = Math.min(Math.max(0, index - Math.floor(neighbours / 2)), count - size);
    const window = totals.slice(start, start + size);
    const sorted = window.toSorted((a, b) => a - b);
    const median = medianWithout(sorted, sorted.indexOf(total));
    return median > 0 ? total / median : null;
  });
}

/**
 * The 7 × 24 cells (Monday 00:00 first) with each cell's n and median ratio (null under the minimum), and the best
 * cells with enough posts for an interval, by median, then by more posts.
 */
export function bestTimesGrid(posts: readonly RatedPost[], zone: string): { cells: BestTimesCell[]; top: BestTimesSlot[] } {
  const ratios: number[][] = Array.from({ length: 7 * 24 }, () => []);
  const settled = Array.from({ length: 7 * 24 }, () => 0);
  for (const post of posts) {
    const { weekday, hour } = weekdayHourIn(post.publishedAt, zone);
    const index = (weekday - 1) * 24 + hour;
    ratios[index]!.push(post.ratio);
    if (post.settled) settled[index]! += 1;
  }
  const cells: BestTimesCell[] = [];
  const candidates: BestTimesSlot[] = [];
  ratios.forEach((values, index) => {
    const sorted = values.toSorted((a, b) => a - b);
    const weekday = Math.floor(index / 24) + 1;
    const hour = index % 24;
    const median = sorted.length >= BEST_TIMES_MIN_CELL_POSTS ? medianOfSorted(sorted) : null;
    cells.push({ weekday, hour, n: sorted.length, settled: settled[index]!, median });
    const interval = sorted.length >= BEST_TIMES_MIN_SLOT_POSTS ? medianInterval(sorted) : null;
    if (median !== null && interval) candidates.push({ weekday, hour, n: sorted.length, settled: settled[index]!, median, ...interval });
  });
  const top = candidates.toSorted((a, b) => b.median - a.median || b.n - a.n).slice(0, BEST_TIMES_TOP_SLOTS);
  return { cells, top };
}
