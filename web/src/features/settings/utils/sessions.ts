// How a session's times read in Settings. The server writes "last used" at most once an hour, so anything within
// the hour is said as such rather than as a precise time it does not know.
const HOUR_MS = 3_600_000;

const dateTimeFormatter = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** '2026-11-02T10:05:00Z' → 'Nov 2, 2026, 10:05 AM' (local time); '' for an unreadable date. */
export function formatSessionTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormatter.format(date);
}

export function describeLastActive(lastUsedAt: string, now: Date): string {
  const used = new Date(lastUsedAt).getTime();
  if (Number.isNaN(used)) return '';
  return now.getTime() - used < HOUR_MS ? 'Within the last hour' : formatSessionTime(lastUsedAt);
}
