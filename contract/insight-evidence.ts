// The evidence behind a YouTube insight (docs/decisions/025-insight-evidence.md): which groups were compared, how many
// of each, the effect and its 95 % interval. The server computes it first and words the insight from it; the web app
// prints the same evidence line with `formatEvidenceLine`, so the two never disagree.
import { z } from 'zod';

/** Shown when no insight has enough evidence (the panel's empty state and the generate reply in words). */
export const NOT_ENOUGH_EVIDENCE = 'Not enough evidence yet';

export const evidenceEffectKinds = [
  /** exp(mean log a − mean log b): per-video views, skewed, compared on a log scale. */
  'ratioOfGeometricMeans',
  /** mean a / mean b: daily channel totals (traffic source views, RPM) in two windows. */
  'ratioOfMeans',
  /** mean of paired differences, in percentage points. */
  'meanDifference',
] as const;
export type EvidenceEffectKind = (typeof evidenceEffectKinds)[number];

export const insightEvidence = z.object({
  /** The groups compared, first the one the insight is about; `n` is the number of videos (or days) in each. */
  groups: z.array(z.object({ label: z.string(), n: z.number().int().min(0) })).min(1).max(2),
  /** What was measured, e.g. "7-day views". */
  measure: z.string(),
  /** How the groups were compared; ratios print as "1.6×", differences as "6.1 points". */
  effect: z.enum(evidenceEffectKinds),
  estimate: z.number(),
  /** 95 % interval of the effect (family-wise when several groups were compared, see `comparisons`). */
  ci95: z.object({ low: z.number(), high: z.number() }),
  /** The effect that means "no difference": 1 for ratios, 0 for differences. */
  noEffect: z.number(),
  /** How many comparisons the insight was picked from; the interval and p-value are Bonferroni-adjusted for them. */
  comparisons: z.number().int().min(1),
  /** Two-sided p-value of "no effect", adjusted for the comparisons. */
  pValue: z.number().min(0).max(1),
  /** The method in words, e.g. "Welch t interval on log views". */
  method: z.string(),
});
export type InsightEvidence = z.infer<typeof insightEvidence>;

const isRatio = (effect: EvidenceEffectKind) => effect !== 'meanDifference';

/**
 * The decimals an effect and its interval are printed with: one, or more (up to three) while that would round an
 * interval bound onto "no effect" (a 1.04× lower bound printed as 1.0× would read as touching it).
 */
export function evidenceDecimals(evidence: Pick<InsightEvidence, 'ci95' | 'noEffect'>): number {
  const touches = (value: number, decimals: number) => Number(value.toFixed(decimals)) === evidence.noEffect;
  let decimals = 1;
  while (decimals < 3 && (touches(evidence.ci95.low, decimals) || touches(evidence.ci95.high, decimals))) decimals += 1;
  return decimals;
}

const fixed = (value: number, decimals: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);

/** The effect, e.g. "1.6×" or "6.1 points". */
export function formatEffect(evidence: InsightEvidence): string {
  const decimals = evidenceDecimals(evidence);
  return isRatio(evidence.effect) ? `${fixed(evidence.estimate, decimals)}×` : `${fixed(evidence.estimate, decimals)} points`;
}

/** The interval, e.g. "95 % CI 1.2–2.1×". */
export function formatInterval(evidence: InsightEvidence): string {
  const decimals = evidenceDecimals(evidence);
  const unit = isRatio(evidence.effect) ? '×' : ' points';
  return `95 % CI ${fixed(evidence.ci95.low, decimals)}–${fixed(evidence.ci95.high, decimals)}${unit}`;
}

/** The sample sizes, e.g. "n = 14 vs 41" (one group: "n = 12"). */
export function formatSampleSizes(evidence: InsightEvidence): string {
  return `n = ${evidence.groups.map((group) => new Intl.NumberFormat('en-US').format(group.n)).join(' vs ')}`;
}

/**
 * The evidence in one line, e.g. "Videos of 10–20 minutes vs your other videos: 1.6× the 7-day views, 95 % CI
 * 1.2–2.1×, n = 14 vs 41".
 */
export function formatEvidenceLine(evidence: InsightEvidence): string {
  const groups = evidence.groups.map((group) => group.label).join(' vs ');
  const effect = isRatio(evidence.effect) ? `${formatEffect(evidence)} the ${evidence.measure}` : `${formatEffect(evidence)} ${evidence.measure}`;
  return `${groups.charAt(0).toUpperCase()}${groups.slice(1)}: ${effect}, ${formatInterval(evidence)}, ${formatSampleSizes(evidence)}`;
}

/** The numbers an insight's text must cite, as printed: the effect, both interval bounds and each group's n. */
export function evidenceNumbers(evidence: InsightEvidence): string[] {
  const decimals = evidenceDecimals(evidence);
  return [evidence.estimate, evidence.ci95.low, evidence.ci95.high]
    .map((value) => fixed(value, decimals))
    .concat(evidence.groups.map((group) => String(group.n)))
    .map((token) => token.replace(/,/g, ''));
}
