// The statistics the insights rest on: medians, the Mann-Whitney U test and one confidence formula. Pure and
// deterministic (no resampling, no random numbers), so the same data always gives the same insights.

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median absolute deviation scaled to estimate a standard deviation (1.4826 × MAD); null for fewer than 2 values. */
export function robustSpread(values: readonly number[]): number | null {
  const centre = median(values);
  if (centre === null || values.length < 2) return null;
  return 1.4826 * median(values.map((value) => Math.abs(value - centre)))!;
}

/** Standard normal cumulative distribution (Abramowitz & Stegun 7.1.26 for erf; error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface MannWhitneyResult {
  /** U of the first group: pairs (a, b) with a > b, ties counting one half. */
  u: number;
  /** U / (n1 · n2): the probability that a value of the first group beats one of the second. */
  probabilityOfSuperiority: number;
  /** Rank-biserial correlation 2·PS − 1, from −1 (always lower) to 1 (always higher). */
  rankBiserial: number;
  /** Normal approximation with tie and continuity corrections. */
  z: number;
  /** One-sided p-value that the first group is not higher (use 1 − p for "not lower"). */
  pGreater: number;
}

/** Mann-Whitney U test of `first` against `second` (no distribution assumed: view counts are heavily skewed). */
export function mannWhitney(first: readonly number[], second: readonly number[]): MannWhitneyResult {
  const n1 = first.length;
  const n2 = second.length;
  if (n1 === 0 || n2 === 0) return { u: 0, probabilityOfSuperiority: 0.5, rankBiserial: 0, z: 0, pGreater: 1 };
  const all = [...first.map((value) => ({ value, group: 0 })), ...second.map((value) => ({ value, group: 1 }))].sort((a, b) => a.value - b.value);
  let rankSumFirst = 0;
  let tieTerm = 0;
  for (let start = 0; start < all.length; ) {
    let end = start;
    while (end + 1 < all.length && all[end + 1]!.value === all[start]!.value) end += 1;
    // Tied values share the average of the ranks they span (ranks are 1-based).
    const rank = (start + end + 2) / 2;
    const tied = end - start + 1;
    tieTerm += tied ** 3 - tied;
    for (let index = start; index <= end; index += 1) if (all[index]!.group === 0) rankSumFirst += rank;
    start = end + 1;
  }
  const u = rankSumFirst - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  const difference = u - mean;
  const z = variance > 0 ? (difference - Math.sign(difference) * 0.5) / Math.sqrt(variance) : 0;
  const probabilityOfSuperiority = u / (n1 * n2);
  return { u, probabilityOfSuperiority, rankBiserial: 2 * probabilityOfSuperiority - 1, z, pGreater: 1 - normalCdf(z) };
}

/** Confidence is never shown as certainty. */
const MAX_CONFIDENCE = 0.99;

/**
 * The confidence of a comparison between two groups, 0–1:
 *
 *   confidence = (1 − √p_adj) × (0.5 + 0.5 × min(1, |r| / 0.5)), capped at 0.99, two decimals
 *
 * p_adj is the one-sided Mann-Whitney p-value in the direction claimed, multiplied by the number of groups that were
 * looked at before this one was picked (Bonferroni: picking the best of seven weekdays is seven chances to be lucky).
 * It carries the sample size: few videos give a large p whatever the effect. The square root keeps weak evidence
 * modest (p 0.1 → 0.68, 0.05 → 0.78, 0.01 → 0.9, 0.001 → 0.97). r is the rank-biserial correlation, the effect size:
 * |r| ≥ 0.5 (a large effect: three pairs in four favour the group) counts fully, a negligible effect halves the
 * confidence.
 */
export function comparisonConfidence(pAdjusted: number, rankBiserial: number): number {
  const evidence = 1 - Math.sqrt(Math.min(1, Math.max(0, pAdjusted)));
  const effect = 0.5 + 0.5 * Math.min(1, Math.abs(rankBiserial) / 0.5);
  return round(Math.min(MAX_CONFIDENCE, evidence * effect), 2);
}

/**
 * The confidence that one value stands out from a channel's distribution, 0–1:
 *
 *   confidence = n / (n + 10) × min(1, robustZ / 4), capped at 0.99, two decimals
 *
 * robustZ = (value − median) / (1.4826 × MAD), a z-score that a few viral outliers cannot inflate. The sample factor
 * n / (n + 10) says how well the median is known: 10 videos give 0.5, 30 give 0.75, 90 give 0.9.
 */
export function outlierConfidence(sampleSize: number, robustZ: number): number {
  const sample = sampleSize / (sampleSize + 10);
  return round(Math.min(MAX_CONFIDENCE, sample * Math.min(1, Math.max(0, robustZ) / 4)), 2);
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
