// A card's change against the comparison period (issue 15; docs/decisions/013-period-comparison.md), as the eye
// reads it ("▲ 12.4% vs previous 30 days", coloured good or bad) and as a screen reader says it ("up 12.4 per cent
// versus the previous 30 days"). Pure, so every rule is tested alone.
import type { ComparisonPeriod } from '#contract/comparison.ts';
import { comparisonNote, type NamedInComparison, type ShortenedInComparison } from '#contract/comparison-note.ts';
import { formatCalendarDay, formatCompactNumber, formatMoney, formatPercentage } from './format';

/**
 * How a card's change is measured: `relative` in per cent of the comparison figure (counts, money), `points` as a
 * difference of percentages (rates: a relative change of a rate misreads).
 */
export type ChangeMeasure = 'relative' | 'points';

export interface ChangeRule {
  measure: ChangeMeasure;
  /** 'up': more is better (green up, red down); 'neutral': neither (grey). */
  better: 'up' | 'neutral';
  /** The card's own unit, for a difference that is not a per cent (e.g. '$12.50', '1 platform'). */
  format: (value: number) => string;
}

/** What a change is against, short for the eye and in words for a screen reader. */
export interface ComparisonLabel {
  /** 'previous 30 days' */
  short: string;
  /** 'the previous 30 days' */
  words: string;
}

export type ChangeDirection = 'up' | 'down' | 'flat';
export type ChangeTone = 'good' | 'bad' | 'neutral';

export type PeriodChange =
  /** The comparison period has no data for the figure: a dash, never a made-up 0 % or ∞. */
  | { kind: 'noData'; text: string; words: string }
  | {
      kind: 'change';
      direction: ChangeDirection;
      tone: ChangeTone;
      /** The size of the change: '12.4%', '1.2 pts', '$40 (from $0)'. */
      figure: string;
      /** What it is against: 'vs previous 30 days'. */
      against: string;
      /** The whole change in words. */
      words: string;
    };

export const CHANGE_ARROWS: Record<ChangeDirection, string> = { up: '▲', down: '▼', flat: '■' };

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** 'previous 30 days', 'same period last year', or the custom period's dates. */
export function comparisonLabel(comparison: Pick<ComparisonPeriod, 'compare' | 'startDate' | 'endDate'>, days: number): ComparisonLabel {
  const span = days === 1 ? 'day' : `${days} days`;
  switch (comparison.compare) {
    case 'previous':
      return { short: `previous ${span}`, words: `the previous ${span}` };
    case 'year':
      return { short: 'same period last year', words: 'the same period last year' };
    case 'custom': {
      const start = formatCalendarDay(comparison.startDate);
      const end = formatCalendarDay(comparison.endDate);
      return comparison.startDate === comparison.endDate ? { short: start, words: start } : { short: `${start} – ${end}`, words: `${start} to ${end}` };
    }
  }
}

/**
 * The change from `previous` (the comparison period's figure) to `current` (the current period's, over the same
 * connections and days). No comparison figure: noData. A relative change needs a positive comparison figure; from 0
 * (or from a negative revenue after refunds) the change is said in the card's own unit instead, never as ∞.
 */
export function periodChange(current: number | null, previous: number | null, rule: ChangeRule, against: ComparisonLabel): PeriodChange {
  if (previous === null || current === null) {
    return { kind: 'noData', text: `no data for ${against.short}`, words: `no data for ${against.words} to compare with` };
  }
  let size: number;
  let figure: string;
  let sizeWords: string;
  if (rule.measure === 'relative' && previous > 0) {
    size = oneDecimal(((current - previous) / previous) * 100);
    figure = `${Math.abs(size).toFixed(1)}%`;
    sizeWords = `${Math.abs(size).toFixed(1)} per cent`;
  } else if (rule.measure === 'points') {
    size = oneDecimal(current - previous);
    figure = `${Math.abs(size).toFixed(1)} pts`;
    sizeWords = `${Math.abs(size).toFixed(1)} percentage points`;
  } else {
    size = current - previous;
    figure = rule.format(Math.abs(size));
    // From a comparison figure of 0 or less: the difference, and where it started.
    sizeWords = `${figure} from ${rule.format(previous)}`;
    figure = `${figure} (from ${rule.format(previous)})`;
  }
  const direction: ChangeDirection = size > 0 ? 'up' : size < 0 ? 'down' : 'flat';
  const tone: ChangeTone = rule.better === 'neutral' || direction === 'flat' ? 'neutral' : direction === 'up' ? 'good' : 'bad';
  const words = direction === 'flat' ? `no change versus ${against.words}` : `${direction} ${sizeWords} versus ${against.words}`;
  return { kind: 'change', direction, tone, figure: direction === 'flat' ? 'no change' : figure, against: `vs ${against.short}`, words };
}

/**
 * What "better" means per card (the decision record's table): more followers, views, watch time, videos, revenue and
 * engagement are good, fewer bad. The number of connected platforms has no change at all (issue 24): connecting one
 * is not growth.
 */
export const CHANGE_RULES = {
  count: { measure: 'relative', better: 'up', format: formatCompactNumber },
  revenue: { measure: 'relative', better: 'up', format: formatMoney },
  rate: { measure: 'points', better: 'up', format: formatPercentage },
} satisfies Record<string, ChangeRule>;

interface Compared<Totals> extends Pick<ComparisonPeriod, 'compare' | 'startDate' | 'endDate'> {
  totals: Totals;
  currentTotals: Totals;
}

/**
 * A card's change from an answer's comparison: `figure` picks the card's figure from each side. Null when there is
 * no comparison (compare=none, or still loading).
 */
export function cardChange<Totals>(comparison: Compared<Totals> | null | undefined, figure: (totals: Totals) => number | null, rule: ChangeRule, days: number): PeriodChange | null {
  if (!comparison) return null;
  return periodChange(figure(comparison.currentTotals), figure(comparison.totals), rule, comparisonLabel(comparison, days));
}

/**
 * Which connections (or which of their figures) the changes leave out or compare over fewer days, in words, or null
 * when none (contract/comparison-note.ts, the reports' sentence too).
 */
export function leftOutNote(
  comparison: (Pick<ComparisonPeriod, 'compare' | 'startDate' | 'endDate'> & { leftOut: readonly NamedInComparison[]; shortened?: readonly ShortenedInComparison[] }) | null | undefined,
  days: number,
): string | null {
  if (!comparison) return null;
  return comparisonNote({ leftOut: comparison.leftOut, shortened: comparison.shortened ?? [] }, { against: comparisonLabel(comparison, days).words, day: formatCalendarDay });
}
