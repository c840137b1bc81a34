// How the YouTube page shows its numbers: watch time as "Xh Ym", the colour rules of spec section 9 (engagement at
// 8 and 5, insight confidence at 0.8 and 0.6) and readable insight types. Pure, so the thresholds are tested alone.
import type { BadgeTone } from '../../../components/ui/badge';

/** Spec section 9: engagement colour thresholds, in percent. */
export const ENGAGEMENT_GOOD = 8;
export const ENGAGEMENT_FAIR = 5;
/** Spec section 9: confidence colour thresholds, 0 to 1. */
export const CONFIDENCE_HIGH = 0.8;
export const CONFIDENCE_MEDIUM = 0.6;

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 125 minutes → '2h 5m'; 59.6 → '1h 0m' (rounded to the minute); null stays null (not reported). */
export function formatWatchTime(minutes: number | null): string | null {
  if (minutes === null || !Number.isFinite(minutes)) return null;
  const total = Math.max(0, Math.round(minutes));
  return `${wholeNumber.format(Math.floor(total / 60))}h ${total % 60}m`;
}

/** The Watch Time card: minutes → whole hours. */
export function watchTimeHours(minutes: number): number {
  return Number.isFinite(minutes) ? Math.round(minutes / 60) : 0;
}

export type EngagementLevel = 'good' | 'fair' | 'poor';

/** Green at 8 % or more, yellow at 5 % or more, else red. */
export function engagementLevel(rate: number): EngagementLevel {
  if (rate >= ENGAGEMENT_GOOD) return 'good';
  if (rate >= ENGAGEMENT_FAIR) return 'fair';
  return 'poor';
}

/** Text colours on the dark background (all AA on slate-900). */
export const ENGAGEMENT_TEXT_CLASSES: Record<EngagementLevel, string> = {
  good: 'text-emerald-400',
  fair: 'text-yellow-300',
  poor: 'text-red-400',
};

/** Green at 0.8 or more, yellow at 0.6 or more, else grey. */
export function confidenceTone(score: number): Extract<BadgeTone, 'green' | 'amber' | 'gray'> {
  if (score >= CONFIDENCE_HIGH) return 'green';
  if (score >= CONFIDENCE_MEDIUM) return 'amber';
  return 'gray';
}

/** 0.834 → '83%'. */
export function formatConfidence(score: number): string {
  return `${Math.round(Math.min(1, Math.max(0, Number.isFinite(score) ? score : 0)) * 100)}%`;
}

const ACRONYMS = new Set(['ctr', 'rpm', 'cpm', 'ai', 'id', 'us']);

/** 'bestPublishingTime', 'best_publishing_time' or 'best-publishing-time' → 'Best publishing time'; 'ctrAboveMedian' → 'CTR above median'. */
export function insightTypeLabel(insightType: string): string {
  const words = insightType
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  if (words.length === 0) return 'Insight';
  const [first, ...rest] = words;
  const head = ACRONYMS.has(first!.toLowerCase()) ? first! : first!.charAt(0).toUpperCase() + first!.slice(1);
  return [head, ...rest].join(' ');
}

/** Share of `part` in `whole` in percent, or null when the whole is not positive. */
export function shareOf(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null || !(whole > 0)) return null;
  return (part / whole) * 100;
}
