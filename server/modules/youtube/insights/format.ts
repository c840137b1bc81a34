// Number formatting for insight texts: fixed en-US, so a recommendation reads the same on every server. The evidence
// (groups, n, effect, interval) is worded by the contract's formatters, the ones the web app prints it with.
import { formatEffect, formatInterval, formatSampleSizes, type InsightEvidence } from '#contract/insight-evidence.ts';

export { formatEffect, formatEvidenceLine, formatInterval, formatSampleSizes } from '#contract/insight-evidence.ts';
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const formatCount = (value: number) => integer.format(value);
/** A percent value (already × 100), one decimal: "4.2 %". */
export const formatPercent = (value: number) => `${oneDecimal.format(value)} %`;
/** A ratio such as 2.1×. */
export const formatRatio = (value: number) => `${oneDecimal.format(value)}×`;
export { formatMoney } from '#contract/money.ts';

/** Seconds as m:ss or h:mm:ss. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/**
 * "<subject> got 1.6× the 7-day views of <other>, 95 % CI 1.2–2.1×, n = 14 vs 41": a group comparison in words, every
 * number taken from the evidence. `verb` lets a rule say "got", "brought" or "earned".
 */
export function comparisonSentence(evidence: InsightEvidence, verb = 'got'): string {
  const [subject, other] = evidence.groups;
  const them = other ? ` of ${other.label}` : '';
  const text = `${subject!.label} ${verb} ${formatEffect(evidence)} the ${evidence.measure}${them}, ${formatInterval(evidence)}, ${formatSampleSizes(evidence)}.`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
