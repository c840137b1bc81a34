// The emailed reports: preferences (premium: /api/reports is behind the 402 gate) and the one-click unsubscribe
// (public: it works from the email without signing in).
import { z } from 'zod';

export const REPORT_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** True for an IANA time zone the runtime knows (both Node and browsers implement this through Intl). */
export function isValidTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = z
  .string({ error: 'Time zone is required' })
  .trim()
  .min(1, 'Time zone is required')
  .max(64, 'Time zone is too long')
  .refine(isValidTimeZone, 'Unknown time zone: use an IANA name such as Europe/Paris')
  // The runtime's own spelling (e.g. "europe/paris" → "Europe/Paris").
  .transform((value) => new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone);

export const reportPreferencesRequest = z.strictObject({
  frequency: z.enum(REPORT_FREQUENCIES, { error: 'Frequency must be off, daily or weekly' }),
  weekday: z.number({ error: 'Weekday must be 1 (Monday) to 7 (Sunday)' }).int('Weekday must be 1 (Monday) to 7 (Sunday)').min(1, 'Weekday must be 1 (Monday) to 7 (Sunday)').max(7, 'Weekday must be 1 (Monday) to 7 (Sunday)'),
  hour: z.number({ error: 'Hour must be 0 to 23' }).int('Hour must be 0 to 23').min(0, 'Hour must be 0 to 23').max(23, 'Hour must be 0 to 23'),
  timeZone,
});
export type ReportPreferencesRequest = z.input<typeof reportPreferencesRequest>;

/** GET and PUT /api/reports/preferences. `saved` is false until the user stored preferences once. */
export const reportPreferencesResponse = z.object({
  frequency: z.enum(REPORT_FREQUENCIES),
  weekday: z.number().int(),
  hour: z.number().int(),
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
