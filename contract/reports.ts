// The emailed reports: preferences (premium: /api/reports is behind the 402 gate) and the one-click unsubscribe
// (public: it works from the email without signing in).
import { z } from 'zod';
import { timeZone } from './time-zones.ts';

export const REPORT_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export const reportPreferencesRequest = z.strictObject({
  frequency: z.enum(REPORT_FREQUENCIES, { error: 'Frequency must be off, daily or weekly' }),
  weekday: z.number({ error: 'Weekday must be 1 (Monday) to 7 (Sunday)' }).int('Weekday must be 1 (Monday) to 7 (Sunday)').min(1, 'Weekday must be 1 (Monday) to 7 (Sunday)').max(7, 'Weekday must be 1 (Monday) to 7 (Sunday)'),
  hour: z.number({ error: 'Hour must be 0 to 23' }).int('Hour must be 0 to 23').min(0, 'Hour must be 0 to 23').max(23, 'Hour must be 0 to 23'),
  /**
   * Reports go out in the account's time zone (PATCH /api/settings/profile). Sent here, it sets that one zone (as it
   * did when reports had a zone of their own); left out, the account's zone stands.
   */
  timeZone: timeZone.optional(),
});
export type ReportPreferencesRequest = z.input<typeof reportPreferencesRequest>;

/** GET and PUT /api/reports/preferences. `saved` is false until the user stored preferences once. */
export const reportPreferencesResponse = z.object({
  frequency: z.enum(REPORT_FREQUENCIES),
  weekday: z.number().int(),
  hour: z.number().int(),
  /** The account's time zone the hour is read in; UTC while the account has none. */
  timeZone: z.string(),
  /** When the next report goes out (ISO), null while reports are off. */
  nextReportAt: z.iso.datetime().nullable(),
  saved: z.boolean(),
});
export type ReportPreferences = z.infer<typeof reportPreferencesResponse>;

/** POST /api/unsubscribe?token=…: RFC 8058 one-click (body `List-Unsubscribe=One-Click`) or the web page's button. */
export const unsubscribeQuery = z.strictObject({
  token: z.string({ error: 'The unsubscribe link is incomplete' }).min(20, 'The unsubscribe link is incomplete').max(200, 'The unsubscribe link is malformed'),
});
export const unsubscribeResponse = z.object({ message: z.string() });
