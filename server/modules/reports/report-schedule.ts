// When reports are due, in the user's own time zone: pure functions over Intl, so daylight-saving changes and
// far-away zones are handled by the runtime's time zone database, and every case is unit-tested.
import type { ReportFrequency } from '#contract/reports.ts';
import { addDays } from '../../lib/dates.ts';

export interface ReportSchedule {
  frequency: ReportFrequency;
  /** ISO weekday (1 = Monday); weekly reports only. */
  weekday: number;
  hour: number;
  timeZone: string;
}

export interface LocalParts {
  /** YYYY-MM-DD in the zone. */
  date: string;
  hour: number;
  /** ISO weekday of `date`. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

function wallClock(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The calendar date, hour and weekday an instant has in a zone. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const wall = wallClock(instant, timeZone);
  const date = `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
  return { date, hour: wall.hour, weekday: isoWeekday(date) };
}

function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The zone's offset from UTC at an instant, in ms (Paris in winter: +3 600 000). */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the zone's clocks show `hour`:00 on `date`. An hour skipped by a daylight-saving jump
 * resolves to the first instant after the gap (the report is then an hour late, never lost).
 */
export function zonedTime(date: string, hour: number, timeZone: string): Date {
  const guess = Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
  let instant = guess - offsetAt(guess, timeZone);
  // A second pass settles instants next to an offset change.
  instant = guess - offsetAt(instant, timeZone);
  return new Date(instant);
}

function matchesDay(schedule: ReportSchedule, date: string) {
  return schedule.frequency === 'daily' || (schedule.frequency === 'weekly' && isoWeekday(date) === schedule.weekday);
}

/** The first report time strictly after `after`, or null while reports are off. */
export function nextReportAt(schedule: ReportSchedule, after: Date): Date | null {
  if (schedule.frequency === 'off') return null;
  const today = localParts(after, schedule.timeZone).date;
  for (let offset = -1; offset <= 8; offset += 1) {
    const date = addDays(today, offset);
    if (!matchesDay(schedule, date)) continue;
    const at = zonedTime(date, schedule.hour, schedule.timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  return null;
}

/** The latest report time at or before `now` (the occurrence a due report belongs to), or null. */
export function latestReportAt(schedule: ReportSchedule, now: Date): { at: Date; localDate: string } | null {
  if (schedule.frequency === 'off') return null;
  const today = localParts(now, schedule.timeZone).date;
  for (let offset = 1; offset >= -8; offset -= 1) {
    const date = addDays(today, offset);
    if (!matchesDay(schedule, date)) continue;
    const at = zonedTime(date, schedule.hour, schedule.timeZone);
    if (at.getTime() <= now.getTime()) return { at, localDate: date };
  }
  return null;
}

export interface ReportPeriod {
  frequency: 'daily' | 'weekly';
  /** The ledger key: one report per user and key. */
  key: string;
  /** Inclusive calendar days reported on: the day (or 7 days) before the report's local date. */
  startDate: string;
  endDate: string;
  previousStartDate: string;
  previousEndDate: string;
}

/** The period a report sent on `localDate` covers: the last complete day, or the last complete 7 days. */
export function reportPeriod(frequency: 'daily' | 'weekly', localDate: string): ReportPeriod {
  const length = frequency === 'daily' ? 1 : 7;
  const endDate = addDays(localDate, -1);
  const startDate = addDays(localDate, -length);
  return {
    frequency,
    key: `${frequency}:${startDate}`,
    startDate,
    endDate,
    previousStartDate: addDays(startDate, -length),
    previousEndDate: addDays(startDate, -1),
  };
}

/** The period of a ledger key (retries rebuild the same report from the key alone). */
export function periodOfKey(key: string): ReportPeriod | undefined {
  const match = /^(daily|weekly):(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!match) return undefined;
  const frequency = match[1] as 'daily' | 'weekly';
  return reportPeriod(frequency, addDays(match[2]!, frequency === 'daily' ? 1 : 7));
}
