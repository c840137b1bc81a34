// The sentence beside a period's changes that names what they leave out or compare over fewer days (issue 24: a
// history start is not growth). One function, so the cards and the e-mailed reports say the same.
import type { ComparedFigure } from './analytics.ts';
import { wordList } from './words.ts';

/** A connection the comparison names; `figures` null: every figure it has. `platform` is the display name. */
export interface NamedInComparison {
  platform: string;
  account: string | null;
  figures: readonly ComparedFigure[] | null;
}

export interface ShortenedInComparison extends NamedInComparison {
  /** YYYY-MM-DD: the first day stored for these figures. */
  historyStart: string;
  days: number;
}

const NOUNS: Record<ComparedFigure, string> = { followers: 'followers', views: 'views', engagement: 'engagement rate', revenue: 'revenue' };
const ADJECTIVES: Record<ComparedFigure, string> = { followers: 'follower', views: 'view', engagement: 'engagement', revenue: 'revenue' };

const nameOf = (entry: NamedInComparison) => (entry.account ? `${entry.platform} (${entry.account})` : entry.platform);

/**
 * "Changes leave out TikTok (@maya), which has no figures for the previous 30 days to compare with. Instagram (Ivy
 * Chen): follower history begins Oct 29, 2026, so that change compares the day both periods hold." Null when nothing
 * is left out or shortened. `against`: the comparison period in words ('the previous 30 days'), or null where the
 * reader knows it (a report: "…: no day with figures in both periods yet."). `day` formats a YYYY-MM-DD day.
 */
export function comparisonNote(
  comparison: { leftOut: readonly NamedInComparison[]; shortened: readonly ShortenedInComparison[] },
  words: { against: string | null; day: (isoDay: string) => string },
): string | null {
  const sentences: string[] = [];
  if (comparison.leftOut.length > 0) {
    const items = comparison.leftOut.map((entry) => (entry.figures === null ? nameOf(entry) : `${nameOf(entry)}'s ${wordList(entry.figures.map((figure) => NOUNS[figure]))}`));
    const [only] = comparison.leftOut;
    const singular = comparison.leftOut.length === 1 && (only!.figures === null || (only!.figures.length === 1 && (only!.figures[0] === 'engagement' || only!.figures[0] === 'revenue')));
    sentences.push(
      words.against === null
        ? `Changes leave out ${wordList(items)}: no day with figures in both periods yet.`
        : `Changes leave out ${wordList(items)}, which ${singular ? 'has' : 'have'} no figures for ${words.against} to compare with.`,
    );
  }
  for (const entry of comparison.shortened) {
    const span = `the ${entry.days === 1 ? 'day' : `${entry.days} days`} both periods hold`;
    if (entry.figures === null) {
      sentences.push(`${nameOf(entry)}: history begins ${words.day(entry.historyStart)}, so its change compares ${span}.`);
    } else {
      const which = wordList(entry.figures.map((figure) => ADJECTIVES[figure]));
      const change = entry.figures.length === 1 ? 'that change compares' : 'those changes compare';
      sentences.push(`${nameOf(entry)}: ${which} history begins ${words.day(entry.historyStart)}, so ${change} ${span}.`);
    }
  }
  return sentences.length > 0 ? sentences.join(' ') : null;
}
