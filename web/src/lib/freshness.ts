// How old a platform's figures are, in words (issue 15): "YouTube complete through Nov 21, 2026 · synced 2 hours ago".
// The server says the last complete day and the last sync (contract platformFreshness); the words are made here,
// against the browser's clock.
import type { PlatformFreshness } from '#contract/analytics.ts';
import { formatCalendarDay } from './format';

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** '2 hours ago', 'yesterday', '5 minutes ago', 'just now' (a clock a little ahead of ours reads as just now too). */
export function timeAgo(instant: string, now: Date): string {
  const elapsed = now.getTime() - Date.parse(instant);
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return relative.format(-Math.floor(elapsed / size), unit);
  }
  return 'just now';
}

/**
 * One platform's freshness in words. `subject` names what the figures are when it is not the platform as a whole
 * ('YouTube revenue'). Nothing stored yet, or never synced, is said so.
 */
export function freshnessSentence(entry: Pick<PlatformFreshness, 'platform' | 'syncedAt' | 'completeThrough'>, now: Date, subject = entry.platform): string {
  const complete = entry.completeThrough ? `${subject} complete through ${formatCalendarDay(entry.completeThrough)}` : `${subject}: no figures yet`;
  const synced = entry.syncedAt ? `synced ${timeAgo(entry.syncedAt, now)}` : 'not synced yet';
  return `${complete} · ${synced}`;
}
