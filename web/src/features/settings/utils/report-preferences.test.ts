import { describe, expect, it } from 'vitest';
import { timeZoneOptions } from '../../../lib/time-zone';
import { describeSchedule, formatNextReport, hourLabel, initialReportForm } from './report-preferences';

const saved = { frequency: 'weekly' as const, weekday: 5, hour: 18, timeZone: 'Asia/Tokyo', nextReportAt: '2026-11-06T09:00:00.000Z', saved: true };

describe('report preferences', () => {
  it('starts from the saved preferences, or from the browser zone when never saved', () => {
    expect(initialReportForm(saved, 'Europe/Paris')).toEqual({ frequency: 'weekly', weekday: 5, hour: 18, timeZone: 'Asia/Tokyo' });
    expect(initialReportForm({ ...saved, frequency: 'off', timeZone: 'UTC', saved: false }, 'Europe/Paris')).toMatchObject({ frequency: 'off', timeZone: 'Europe/Paris' });
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

  it('lists UTC first and keeps a saved zone the browser might not list', () => {
    const zones = timeZoneOptions('Etc/GMT+5');
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Etc/GMT+5');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
