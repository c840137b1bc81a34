// Effects with their 95 % intervals, computed before any text: the evidence an insight words (decision 025). Every
// interval is a closed formula (no resampling), so the same data always gives the same evidence. When an insight was
// picked from k comparisons (the best of seven weekdays), its interval is the Bonferroni interval at level 1 − 0.05/k
// and its p-value is multiplied by k: the 95 % then holds for the whole family, not for a lucky pick.
import type { EvidenceEffectKind, InsightEvidence } from '#contract/insight-evidence.ts';
import { mean, round, studentTCdf, studentTQuantile, variance } from './statistics.ts';

export const CONFIDENCE_LEVEL = 0.95;

export interface Estimate {
  estimate: number;
  low: number;
  high: number;
  /** Two-sided p-value of "no effect", Bonferroni-adjusted for `comparisons`. */
  pValue: number;
  comparisons: number;
}

/** A t interval for a difference `difference` with standard error `se` and `df` degrees of freedom, on some scale. */
function tInterval(difference: number, se: number, df: number, comparisons: number) {
  if (!(se > 0) || !(df > 0)) return { low: difference, high: difference, pValue: difference === 0 ? 1 : 0 };
  const alpha = (1 - CONFIDENCE_LEVEL) / comparisons;
  const q = studentTQuantile(1 - alpha / 2, df);
  const pValue = Math.min(1, 2 * (1 - studentTCdf(Math.abs(difference) / se, df)) * comparisons);
  return { low: difference - q * se, high: difference + q * se, pValue };
}

/** Welch-Satterthwaite degrees of freedom for two variances of means `va` and `vb` from samples of `na` and `nb`. */
const welchDf = (va: number, vb: number, na: number, nb: number) => (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1));

/**
 * The ratio of geometric means of `a` to `b` (per-video views): Welch's t interval on ln(1 + views), turned back into
 * a ratio. Views are log-normal-ish (one viral video dwarfs a hundred), so a ratio on the log scale is what the
 * arithmetic of views supports; +1 keeps a video with no views finite and moves a ratio of thousands of views by
 * well under 0.1 %. Welch, because the groups' spreads differ.
 */
export function ratioOfGeometricMeans(a: readonly number[], b: readonly number[], comparisons = 1): Estimate {
  const la = a.map((value) => Math.log1p(Math.max(0, value)));
  const lb = b.map((value) => Math.log1p(Math.max(0, value)));
  const va = variance(la) / la.length;
  const vb = variance(lb) / lb.length;
  const difference = mean(la) - mean(lb);
  const { low, high, pValue } = tInterval(difference, Math.sqrt(va + vb), welchDf(va, vb, la.length, lb.length), comparisons);
  return { estimate: Math.exp(difference), low: Math.exp(low), high: Math.exp(high), pValue, comparisons };
}

/**
 * The ratio of the means of two series of daily totals (the last 28 days against the 28 before): the interval of
 * ln(mean a / mean b) by the delta method, Var ln m ≈ s² / (n m²), with Welch's degrees of freedom. Daily totals may
 * be zero for a small source, which a log of each day could not take; their sum is what "grew 40 %" means.
 */
export function ratioOfMeans(a: readonly number[], b: readonly number[], comparisons = 1): Estimate | null {
  const ma = mean(a);
  const mb = mean(b);
  if (!(ma > 0) || !(mb > 0)) return null;
  const va = variance(a) / (a.length * ma * ma);
  const vb = variance(b) / (b.length * mb * mb);
  const difference = Math.log(ma / mb);
  const { low, high, pValue } = tInterval(difference, Math.sqrt(va + vb), welchDf(va, vb, a.length, b.length), comparisons);
  return { estimate: ma / mb, low: Math.exp(low), high: Math.exp(high), pValue, comparisons };
}

/** The mean of paired differences with its one-sample t interval (n − 1 degrees of freedom). */
export function meanDifference(differences: readonly number[], comparisons = 1): Estimate {
  const difference = mean(differences);
  const se = Math.sqrt(variance(differences) / differences.length);
  return { estimate: difference, ...tInterval(difference, se, differences.length - 1, comparisons), comparisons };
}

/**
 * The confidence badge, from the evidence alone: 1 − √p, p the adjusted two-sided p-value, capped at 0.99, two
 * decimals. An insight is shown only when its interval excludes no effect, that is p < 0.05, so a shown insight scores
 * above 0.77; p 0.01 gives 0.9 and p 0.001 gives 0.97. The square root keeps the scale readable where p is small.
 */
export function confidenceFromEvidence(evidence: Pick<InsightEvidence, 'pValue'>): number {
  return round(Math.min(0.99, 1 - Math.sqrt(Math.min(1, Math.max(0, evidence.pValue)))), 2);
}

const NO_EFFECT: Record<EvidenceEffectKind, number> = { ratioOfGeometricMeans: 1, ratioOfMeans: 1, meanDifference: 0 };

const METHODS: Record<EvidenceEffectKind, string> = {
  ratioOfGeometricMeans: 'ratio of geometric means; Welch t interval on log views',
  ratioOfMeans: 'ratio of daily means; delta-method t interval on the log ratio',
  meanDifference: 'mean of paired differences; one-sample t interval',
};

/** The evidence object stored and sent with an insight; numbers rounded to what is worth reading (4 significant). */
export function buildEvidence(
  effect: EvidenceEffectKind,
  groups: InsightEvidence['groups'],
  measure: string,
  estimate: Estimate,
): InsightEvidence {
  const method = estimate.comparisons > 1 ? `${METHODS[effect]}, Bonferroni-adjusted for ${estimate.comparisons} comparisons` : METHODS[effect];
  return {
    groups,
    measure,
    effect,
    estimate: round(estimate.estimate, 4),
    ci95: { low: round(estimate.low, 4), high: round(estimate.high, 4) },
    noEffect: NO_EFFECT[effect],
    comparisons: estimate.comparisons,
    pValue: Number(estimate.pValue.toPrecision(4)),
    method,
  };
}

/** Whether the interval lies wholly on one side of "no effect". */
export function excludesNoEffect(evidence: Pick<InsightEvidence, 'ci95' | 'noEffect'>): boolean {
  return evidence.ci95.low > evidence.noEffect || evidence.ci95.high < evidence.noEffect;
}
