import { describe, expect, it } from 'vitest';
import { describeSchedule, formatNextReport, hourLabel, initialReportForm, offersDailyReport } from './report-preferences';

const saved = { frequency: 'weekly' as const, weekday: 5, hour: 18, timeZone: 'Asia/Tokyo', nextReportAt: '2026-11-06T09:00:00.000Z', saved: true };

describe('report preferences', () => {
  it('starts from the saved preferences (the zone is the account\'s, not the form\'s)', () => {
    expect(initialReportForm(saved)).toEqual({ frequency: 'weekly', weekday: 5, hour: 18 });
    expect(initialReportForm({ ...saved, frequency: 'off', timeZone: 'UTC', saved: false })).toEqual({ frequency: 'off', weekday: 5, hour: 18 });
  });

  it('describes the schedule in words', () => {
    expect(describeSchedule({ frequency: 'daily', weekday: 1, hour: 8, timeZone: 'Europe/Paris' })).toBe('Daily at 08:00 (Europe/Paris)');
    expect(describeSchedule({ frequency: 'weekly', weekday: 5, hour: 18, timeZone: 'UTC' })).toBe('Weekly on Friday at 18:00 (UTC)');
    expect(describeSchedule({ frequency: 'off', weekday: 5, hour: 18, timeZone: 'UTC' })).toBe('Off');
    expect(hourLabel(0)).toBe('00:00');
  });

  it('shows the next report on the chosen clock', () => {
    expect(formatNextReport('2026-11-06T09:00:00.000Z', 'Asia/Tokyo')).toBe('Fri, Nov 6, 18:00');
  });

});

describe('offersDailyReport', () => {
  it('offers the daily report only while reports were never set up', () => {
    expect(offersDailyReport({ ...saved, frequency: 'off', nextReportAt: null, saved: false })).toBe(true);
    // An Off chosen in Settings stays off; reports already on need no offer; no preferences (a plan without reports).
    expect(offersDailyReport({ ...saved, frequency: 'off', nextReportAt: null, saved: true })).toBe(false);
    expect(offersDailyReport(saved)).toBe(false);
    expect(offersDailyReport({ ...saved, frequency: 'daily' })).toBe(false);
    expect(offersDailyReport(undefined)).toBe(false);
  });
});
