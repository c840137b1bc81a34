// Report preferences for the form: the saved or default schedule, and plain-words labels.
import { WEEKDAY_NAMES, type ReportFrequency, type ReportPreferences } from '#contract/reports.ts';

/** What the form edits: the hour is read in the account's one time zone (Settings, Time zone). */
export interface ReportForm {
  frequency: ReportFrequency;
  weekday: number;
  hour: number;
}

/** What the form starts with: the saved preferences, or (never saved) 08:00, off. */
export function initialReportForm(preferences: ReportPreferences): ReportForm {
  return { frequency: preferences.frequency, weekday: preferences.weekday, hour: preferences.hour };
}

export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

export function weekdayName(weekday: number): string {
  return WEEKDAY_NAMES[weekday - 1] ?? 'Monday';
}

/** "Daily at 08:00 (Europe/Paris)", "Weekly on Friday at 18:00 (UTC)", or "Off". */
export function describeSchedule(form: ReportForm & { timeZone: string }): string {
  if (form.frequency === 'off') return 'Off';
  const when = `${hourLabel(form.hour)} (${form.timeZone})`;
  return form.frequency === 'daily' ? `Daily at ${when}` : `Weekly on ${weekdayName(form.weekday)} at ${when}`;
}

/** The next report's time on the user's chosen clock, e.g. "Tue, Nov 3, 08:00". */
export function formatNextReport(iso: string, timeZone: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale ?? 'en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/**
 * Whether the one-click daily report is offered (after a first sync): only while reports were never set up, so an
 * Off chosen in Settings stays off; never without preferences to read (not loaded, or a plan without reports).
 */
export function offersDailyReport(preferences: ReportPreferences | undefined): boolean {
  return preferences !== undefined && !preferences.saved && preferences.frequency === 'off';
}
