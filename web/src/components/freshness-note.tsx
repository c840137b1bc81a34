import type { PlatformFreshness } from '#contract/analytics.ts';
import { freshnessSentence } from '../lib/freshness';

interface FreshnessNoteProps {
  entries: readonly Pick<PlatformFreshness, 'platform' | 'syncedAt' | 'completeThrough'>[];
  /** What the figures are when not the platform as a whole, e.g. 'YouTube revenue'. */
  subject?: string;
  className?: string;
}

/** How old the panel's figures are, one platform a line (issue 15). Nothing when there is no platform to speak of. */
export function FreshnessNote({ entries, subject, className = '' }: FreshnessNoteProps) {
  if (entries.length === 0) return null;
  const now = new Date();
  return (
    <ul aria-label="How recent these figures are" className={`space-y-0.5 text-xs text-slate-400 ${className}`}>
      {entries.map((entry) => (
        <li key={entry.platform}>{freshnessSentence(entry, now, subject)}</li>
      ))}
    </ul>
  );
}
