// The arithmetic of "What changed" (issue 17; docs/decisions/021-what-changed.md), pure so each rule is tested alone:
// the log-mean Divisia (LMDI) split of a product's change with the analytical-limit rule for zeros, rounding parts so
// the rounded parts add up exactly to the rounded total (largest remainder), and whether a change lies outside the
// creator's own window-to-window variation (robust z-score on the median absolute deviation).

/** The logarithmic mean L(a, b) = (a − b) / (ln a − ln b), L(a, a) = a; L(a, 0) = L(0, a) = 0 (its limit). Needs a, b ≥ 0. */
export function logMean(a: number, b: number): number {
  if (a <= 0 || b <= 0) return 0;
  if (Math.abs(a - b) <= 1e-12 * Math.max(a, b)) return a;
  return (a - b) / (Math.log(a) - Math.log(b));
}

export type FunnelSplit =
  | { available: true; views: number; rpm: number }
  | { available: false; reason: string };

/**
 * Revenue R = V × RPM / 1000 split into the effect of views and of RPM (revenue per 1,000 views), two-factor LMDI:
 * ΔR = L(R1, R0)·ln(V1/V0) + L(R1, R0)·ln(RPM1/RPM0), which sums to R1 − R0 exactly. Zeros follow the analytical-limit
 * rule (Ang & Liu 2007: replace a zero by ε and let ε → 0): a factor that is zero on one side takes the whole change;
 * an RPM that is undefined (0 views) is taken as the other side's RPM, so with no views on one side the change is all
 * views; with views on both sides but no revenue on one, the change is all RPM. Negative revenue (refunds) or revenue
 * without views has no logarithm: the split is not available, in words.
 */
export function funnelSplit(current: { revenue: number; views: number }, previous: { revenue: number; views: number }): FunnelSplit {
  const { revenue: r1, views: v1 } = current;
  const { revenue: r0, views: v0 } = previous;
  if (r1 < 0 || r0 < 0) return { available: false, reason: 'revenue is negative in a period (refunds), and a negative amount has no logarithm' };
  if (v1 < 0 || v0 < 0) return { available: false, reason: 'views are negative in a period' };
  if ((r1 > 0 && v1 === 0) || (r0 > 0 && v0 === 0)) return { available: false, reason: 'there is revenue without views in a period' };
  const change = r1 - r0;
  if (change === 0) return { available: true, views: 0, rpm: 0 };
  if (r0 === 0 || r1 === 0) {
    // The side with no revenue: no views (RPM undefined, taken as the other side's) → all views; views but no revenue
    // (RPM 0) → all RPM.
    const zeroSideViews = r0 === 0 ? v0 : v1;
    return zeroSideViews === 0 ? { available: true, views: change, rpm: 0 } : { available: true, views: 0, rpm: change };
  }
  const weight = logMean(r1, r0);
  const views = weight * Math.log(v1 / v0);
  // The RPM effect is the rest: L·ln(RPM1/RPM0) = L·ln(R1/R0) − L·ln(V1/V0) = ΔR − views effect, exactly in reals;
  // taking it as the rest keeps the float sum exact too.
  return { available: true, views, rpm: change - views };
}

/**
 * Rounds `values` to whole units (pass amounts already scaled: views ×1, dollars ×100) so they add up exactly to
 * `target` (a whole number): each is floored, then the units still missing go to the largest remainders (or, when the
 * floors overshoot a target below the raw sum, are taken from the smallest). Ties go to the earlier value.
 */
export function roundToTotal(values: readonly number[], target: number): number[] {
  if (values.length === 0) return [];
  const floors = values.map((value) => Math.floor(value + 1e-9));
  let missing = Math.round(target) - floors.reduce((sum, value) => sum + value, 0);
  const order = values.map((value, index) => ({ index, remainder: value - floors[index]! })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  const rounded = [...floors];
  for (let turn = 0; missing > 0; turn += 1, missing -= 1) rounded[order[turn % order.length]!.index]! += 1;
  for (let turn = 0; missing < 0; turn += 1, missing += 1) rounded[order[order.length - 1 - (turn % order.length)]!.index]! -= 1;
  return rounded;
}

/** Fewer past window-to-window changes than this: "not enough history". */
export const MIN_HISTORY_CHANGES = 8;
/** |robust z| above this is unusual (about the outer 5 % of a normal distribution). */
export const UNUSUAL_Z = 2;
/** MAD × 1.4826 estimates the standard deviation of a normal distribution. */
const MAD_SCALE = 1.4826;
/** Mean absolute deviation × 1.2533 does the same, for when more than half the changes are equal (MAD = 0). */
const MEAN_AD_SCALE = 1.2533;

export type Variation =
  | { status: 'notEnoughHistory'; changes: number }
  | { status: 'usual' | 'unusual'; changes: number; median: number; robustZ: number | null };

const medianOf = (sorted: readonly number[]) => {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Whether `change` lies outside the creator's usual changes between consecutive past windows (`history`): the robust
 * z = (change − median) / (1.4826 × MAD); unusual when |z| > 2. When the MAD is 0 the mean absolute deviation stands
 * in; when that is 0 too (every past change equal) any other change is unusual (z null).
 */
export function variationOf(change: number, history: readonly number[]): Variation {
  if (history.length < MIN_HISTORY_CHANGES) return { status: 'notEnoughHistory', changes: history.length };
  const sorted = [...history].sort((a, b) => a - b);
  const median = medianOf(sorted);
  const deviations = sorted.map((value) => Math.abs(value - median));
  const mad = medianOf([...deviations].sort((a, b) => a - b));
  const scale = mad > 0 ? MAD_SCALE * mad : MEAN_AD_SCALE * (deviations.reduce((sum, value) => sum + value, 0) / deviations.length);
  if (scale === 0) {
    const same = Math.abs(change - median) < 1e-9;
    return { status: same ? 'usual' : 'unusual', changes: history.length, median, robustZ: null };
  }
  const robustZ = (change - median) / scale;
  return { status: Math.abs(robustZ) > UNUSUAL_Z ? 'unusual' : 'usual', changes: history.length, median, robustZ };
}
