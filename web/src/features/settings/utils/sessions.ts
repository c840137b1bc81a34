// How a session's times read in Settings. The server writes "last used" at most once an hour, so anything within
// the hour is said as such rather than as a precise time it does not know.
import { getDisplayTimeZone } from '../../../lib/format';

const HOUR_MS = 3_600_000;

/** '2026-11-02T10:05:00Z' → 'Nov 2, 2026, 10:05 AM' (in the account's time zone); '' for an unreadable date. */
export function formatSessionTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: getDisplayTimeZone() }).format(date);
}

export function describeLastActive(lastUsedAt: string, now: Date): string {
  const used = new Date(lastUsedAt).getTime();
  if (Number.isNaN(used)) return '';
  return now.getTime() - used < HOUR_MS ? 'Within the last hour' : formatSessionTime(lastUsedAt);
}
