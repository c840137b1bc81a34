// Period comparison (issue 15; docs/decisions/013-period-comparison.md): which period a period's figures are compared
// with, as the analytics and YouTube calls accept it and answer it. The rules live here once, so the server computes
// and the web app names the same comparison period.
import { z } from 'zod';

/**
 * previous: the same number of days just before; year: the same number of days ending on the same date a year
 * earlier; custom: compareStartDate to compareEndDate; none: no comparison (the answer's comparison is null).
 */
export const COMPARE_MODES = ['previous', 'year', 'custom', 'none'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];
export const DEFAULT_COMPARE_MODE: CompareMode = 'previous';

/** Dates are UTC calendar days; an ISO date-time counts as its day. */
export const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'expected an ISO date (YYYY-MM-DD or an ISO date-time)')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a valid date')
  /** Only the calendar day counts: metrics are daily. */
  .transform((value) => value.slice(0, 10));

/** The query fields of every call that compares (GET /api/analytics, /summary, /platform/{id}, YouTube's performance summary). */
export const comparisonQueryFields = {
  compare: z.enum(COMPARE_MODES, { error: `compare must be one of ${COMPARE_MODES.join(', ')}` }).optional(),
  /** With compareEndDate: a custom comparison period (compare may then be left out or be `custom`). */
  compareStartDate: isoDate.optional(),
  compareEndDate: isoDate.optional(),
};
export interface ComparisonRequest {
  compare?: CompareMode | undefined;
  compareStartDate?: string | undefined;
  compareEndDate?: string | undefined;
}

/** The comparison period of an answer, inclusive YYYY-MM-DD days. */
export const comparisonPeriod = z.object({
  compare: z.enum(['previous', 'year', 'custom']),
  startDate: z.string(),
  endDate: z.string(),
});
export type ComparisonPeriod = z.infer<typeof comparisonPeriod>;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** `day` plus `days` (negative: back). */
export function shiftDay(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `startDate` to `endDate`, both included. */
export function daysInPeriod(startDate: string, endDate: string): number {
  return dayNumber(endDate) - dayNumber(startDate) + 1;
}

/** The same calendar date a year earlier; Feb 29 becomes Feb 28 (the year before has none). */
export function sameDateLastYear(day: string): string {
  const year = Number(day.slice(0, 4)) - 1;
  const monthDay = day.slice(5) === '02-29' ? '02-28' : day.slice(5);
  return `${String(year).padStart(4, '0')}-${monthDay}`;
}

/** A comparison period may span at most this many days, as a period may (three years). */
const MAX_SPAN_DAYS = 3 * 366 + 1;

/**
 * The comparison period of the period [startDate, endDate], or null for compare=none; `{ error }` (a 400 in words)
 * when the request does not make one. Every mode but custom gives a period of the same length as the current one,
 * so sums compare like with like; `year` keeps the length even across Feb 29 (its end is the same date a year
 * earlier, Feb 29 read as Feb 28, and it starts as many days before).
 */
export function resolveComparison(period: { startDate: string; endDate: string }, request: ComparisonRequest): ComparisonPeriod | null | { error: string } {
  const hasDates = request.compareStartDate !== undefined || request.compareEndDate !== undefined;
  const mode = request.compare ?? (hasDates ? 'custom' : DEFAULT_COMPARE_MODE);
  if (hasDates && mode !== 'custom') return { error: 'compareStartDate and compareEndDate go with compare=custom' };
  const length = daysInPeriod(period.startDate, period.endDate);
  switch (mode) {
    case 'none':
      return null;
    case 'previous':
      return { compare: 'previous', startDate: shiftDay(period.startDate, -length), endDate: shiftDay(period.startDate, -1) };
    case 'year': {
      const endDate = sameDateLastYear(period.endDate);
      return { compare: 'year', startDate: shiftDay(endDate, -(length - 1)), endDate };
    }
    case 'custom': {
      const { compareStartDate: startDate, compareEndDate: endDate } = request;
      if (startDate === undefined || endDate === undefined) return { error: 'compare=custom needs both compareStartDate and compareEndDate' };
      if (startDate > endDate) return { error: 'compareStartDate must not be after compareEndDate' };
      if (daysInPeriod(startDate, endDate) > MAX_SPAN_DAYS) return { error: 'The comparison period may span at most three years' };
      return { compare: 'custom', startDate, endDate };
    }
  }
}
