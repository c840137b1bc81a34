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

export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Sample variance (n − 1 in the denominator); 0 for fewer than 2 values. */
export function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const centre = mean(values);
  return values.reduce((sum, value) => sum + (value - centre) ** 2, 0) / (values.length - 1);
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients; relative error below 1e-13). */
function lnGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const shifted = x - 1;
  let sum = coefficients[0]!;
  for (let index = 1; index < coefficients.length; index += 1) sum += coefficients[index]! / (shifted + index);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The continued fraction of the incomplete beta function (Numerical Recipes, modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let result = d;
  for (let m = 1; m <= 300; m += 1) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    c = 1 + even / c;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = Math.abs(c) < tiny ? tiny : c;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    c = 1 + odd / c;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = Math.abs(c) < tiny ? tiny : c;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-14) break;
  }
  return result;
}

/** The regularized incomplete beta function I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Student's t cumulative distribution with `df` degrees of freedom (df may be fractional, as Welch's is). */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t value below which a share `p` of Student's t distribution lies (bisection on the CDF, to 1e-10). */
export function studentTQuantile(p: number, df: number): number {
  if (p <= 0 || p >= 1) throw new RangeError('p must lie strictly between 0 and 1');
  let low = -1;
  let high = 1;
  while (studentTCdf(low, df) > p) low *= 2;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let iteration = 0; iteration < 200 && high - low > 1e-10; iteration += 1) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed exactly in log space. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let total = 0;
  for (let i = 0; i <= k; i += 1) total += Math.exp(lnGamma(n + 1) - lnGamma(i + 1) - lnGamma(n - i + 1) - n * Math.LN2);
  return Math.min(1, total);
}
