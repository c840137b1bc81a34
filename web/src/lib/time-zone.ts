// The browser's time zone and the list of zones it knows: Settings offers them, and the best-time grid sends the
// browser's zone when the user has not chosen one.

/** The browser's IANA zone ("Europe/Paris"), or UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows, sorted, always including UTC and the given ones (e.g. a saved zone). */
export function timeZoneOptions(...include: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...known, ...include.filter(Boolean)])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}
