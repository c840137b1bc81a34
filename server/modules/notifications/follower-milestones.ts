// The follower milestones (decision 015): 100 and then the 1-2-5 steps of each power of ten (100, 200, 500, 1K, 2K,
// 5K, 10K … 1B). Each step is 2 to 2.5 times the one before, so an account hears about growth at every size without
// an alert every week, and every milestone is a number people say.
const FIRST = 100;
const LAST = 1_000_000_000;

export const FOLLOWER_MILESTONES: readonly number[] = (() => {
  const steps: number[] = [];
  for (let power = FIRST; power <= LAST; power *= 10) for (const step of [1, 2, 5]) if (power * step <= LAST) steps.push(power * step);
  return steps;
})();

/** The highest milestone passed going from `before` to `after` (reached counts: 999 → 1,000 passes 1K); null if none. */
export function milestoneCrossed(before: number, after: number): number | null {
  let crossed: number | null = null;
  for (const milestone of FOLLOWER_MILESTONES) if (before < milestone && after >= milestone) crossed = milestone;
  return crossed;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 0 });
/** "100", "2K", "1M". */
export const milestoneLabel = (milestone: number) => compact.format(milestone);
