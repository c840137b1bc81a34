// The account's one time zone in the browser: the zones offered (by IANA's current names, each with its UTC offset),
// the browser's own zone, and the search the Settings picker filters with.
import { canonicalTimeZone, LEGACY_TIME_ZONES } from '#contract/time-zones.ts';

/** The browser's IANA zone by its current name ("Asia/Kolkata", not "Asia/Calcutta"), or UTC when it does not say. */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return (zone && canonicalTimeZone(zone)) || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows, by current names, sorted, UTC first, always including the given ones (a saved zone). */
export function timeZoneOptions(...include: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const current = [...known, ...include.filter(Boolean)].map((zone) => canonicalTimeZone(zone) ?? zone);
  return [...new Set(['UTC', ...current])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

/** "Asia/Ho Chi Minh": the name as a person reads it. */
export const timeZoneLabel = (zone: string) => zone.replaceAll('_', ' ');

/** The zone's offset from UTC at `at` (now unless told), e.g. "UTC+05:30", "UTC−03:00", "UTC+00:00". */
export function utcOffset(zone: string, at: Date = new Date()): string {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
    const offset = /GMT([+-−]\d{2}:\d{2})/.exec(name)?.[1];
    return `UTC${offset ? offset.replace('-', '−') : '+00:00'}`;
  } catch {
    return '';
  }
}

/** The retired names of each current one, so "Calcutta" still finds Asia/Kolkata. */
const formerNames = new Map<string, string[]>();
for (const [legacy, current] of Object.entries(LEGACY_TIME_ZONES)) formerNames.set(current, [...(formerNames.get(current) ?? []), legacy]);

const normalise = (text: string) => text.toLowerCase().replaceAll('_', ' ').replaceAll('−', '-');

/**
 * True when every word of the query is in the zone's name (spaces or underscores alike), one of its former names or
 * its offset: "new york", "kolkata", "calcutta" and "+05:30" all find what a person expects.
 */
export function matchesTimeZone(zone: string, query: string, offset = ''): boolean {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = normalise([zone, ...(formerNames.get(zone) ?? []), offset].join(' '));
  return words.every((word) => haystack.includes(word));
}
