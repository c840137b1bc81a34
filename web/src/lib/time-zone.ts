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
  // The runtime's own list is valid as it stands: only its retired names are renamed (a table look-up; an Intl
  // formatter per zone costs seconds on a slow phone). Only the given names are checked.
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone').map((zone) => LEGACY_TIME_ZONES[zone] ?? zone) : [];
  const given = include.filter(Boolean).map((zone) => canonicalTimeZone(zone) ?? zone);
  return [...new Set(['UTC', ...known, ...given])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
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

const offsetsNow = new Map<string, string>();

/**
 * The zone's offset now, kept for the page's life: the picker shows one beside each of some 420 zones, and each costs
 * an Intl formatter (a daylight-saving switch while the page is open is not worth that again).
 */
export function currentUtcOffset(zone: string): string {
  let offset = offsetsNow.get(zone);
  if (offset === undefined) {
    offset = utcOffset(zone);
    offsetsNow.set(zone, offset);
  }
  return offset;
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
