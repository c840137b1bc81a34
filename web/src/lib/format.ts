// Number, date, money and percentage display (spec section 9). Pure, so screens and charts agree.

const compactFormatter = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const DATE_OPTIONS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const calendarDayFormatter = new Intl.DateTimeFormat('en-US', { ...DATE_OPTIONS, timeZone: 'UTC' });

/**
 * The zone every moment is shown in: the account's (Settings → Time zone, issue 25: one setting for reports, best
 * times and every date shown), set by the route guard once the signed-in user is known; undefined: the device's.
 */
let displayTimeZone: string | undefined;
let dateFormatter = new Intl.DateTimeFormat('en-US', DATE_OPTIONS);

/** Shows every moment in `zone` from now on (null: the device's zone). An unknown zone keeps the device's. */
export function setDisplayTimeZone(zone: string | null): void {
  const next = zone ?? undefined;
  if (next === displayTimeZone) return;
  try {
    dateFormatter = new Intl.DateTimeFormat('en-US', { ...DATE_OPTIONS, timeZone: next });
    displayTimeZone = next;
  } catch {
    dateFormatter = new Intl.DateTimeFormat('en-US', DATE_OPTIONS);
    displayTimeZone = undefined;
  }
}

/** The zone moments are shown in: the account's, else undefined (the device's). */
export function getDisplayTimeZone(): string | undefined {
  return displayTimeZone;
}
function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

/** 1234 → '1.2K', 2_500_000 → '2.5M' (US English, at most one decimal). */
export function formatCompactNumber(value: number): string {
  return compactFormatter.format(finiteOrZero(value));
}

/** '2026-11-22T12:00:00Z' → 'Nov 22, 2026' (short month, day, year); '' for a missing or unreadable date. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormatter.format(date);
}

/**
 * 'YYYY-MM-DD' (a calendar day from the API) → 'Nov 22, 2026': the day itself, in no zone (formatted as UTC), so it
 * reads the same whatever the display zone; parsing it as a moment would show the previous day west of Greenwich.
 */
export function formatCalendarDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return formatDate(day);
  return calendarDayFormatter.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}

/** Money: two decimals under 1,000, compact above; one rule shared with the server's PDFs and mails. */
export { formatMoney, formatMoneyInFull } from '#contract/money.ts';

/** A value already in percent units, one decimal: 4.56 → '4.6%'. */
export function formatPercentage(value: number): string {
  return `${finiteOrZero(value).toFixed(1)}%`;
}
