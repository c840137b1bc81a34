import { describe, expect, it } from 'vitest';
import { latestReportAt, localParts, nextReportAt, periodOfKey, reportPeriod, zonedTime } from './report-schedule.ts';

describe('zonedTime', () => {
  it('turns a local hour into the instant, across daylight-saving changes', () => {
    expect(zonedTime('2026-11-02', 8, 'Europe/Paris').toISOString()).toBe('2026-11-02T07:00:00.000Z');
    expect(zonedTime('2026-07-02', 8, 'Europe/Paris').toISOString()).toBe('2026-07-02T06:00:00.000Z');
    expect(zonedTime('2026-11-02', 8, 'America/Los_Angeles').toISOString()).toBe('2026-11-02T16:00:00.000Z');
    expect(zonedTime('2026-11-02', 0, 'Asia/Kolkata').toISOString()).toBe('2026-11-01T18:30:00.000Z');
    // 02:00 does not exist in Paris on 2026-03-29: the first instant after the gap.
    expect(zonedTime('2026-03-29', 2, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('reads local date, hour and ISO weekday', () => {
    expect(localParts(new Date('2026-11-01T23:30:00Z'), 'Asia/Tokyo')).toEqual({ date: '2026-11-02', hour: 8, weekday: 1 });
    expect(localParts(new Date('2026-11-01T23:30:00Z'), 'UTC')).toEqual({ date: '2026-11-01', hour: 23, weekday: 7 });
  });
});

describe('next and latest report times', () => {
  const daily = { frequency: 'daily' as const, weekday: 1, hour: 9, timeZone: 'America/New_York' };

  it('daily: the next 09:00 in New York strictly after now', () => {
    expect(nextReportAt(daily, new Date('2026-11-02T10:00:00Z'))?.toISOString()).toBe('2026-11-02T14:00:00.000Z');
    expect(nextReportAt(daily, new Date('2026-11-02T14:00:00Z'))?.toISOString()).toBe('2026-11-03T14:00:00.000Z');
    expect(latestReportAt(daily, new Date('2026-11-02T14:00:00Z'))).toEqual({ at: new Date('2026-11-02T14:00:00Z'), localDate: '2026-11-02' });
    expect(latestReportAt(daily, new Date('2026-11-02T13:59:59Z'))?.localDate).toBe('2026-11-01');
  });

  it('weekly: only on the chosen weekday', () => {
    const weekly = { frequency: 'weekly' as const, weekday: 5, hour: 18, timeZone: 'Europe/Berlin' };
    // 2026-11-02 is a Monday; the next Friday is 2026-11-06.
    expect(nextReportAt(weekly, new Date('2026-11-02T10:00:00Z'))?.toISOString()).toBe('2026-11-06T17:00:00.000Z');
    expect(latestReportAt(weekly, new Date('2026-11-02T10:00:00Z'))).toEqual({ at: new Date('2026-10-30T17:00:00Z'), localDate: '2026-10-30' });
  });

  it('off: never', () => {
    expect(nextReportAt({ ...daily, frequency: 'off' }, new Date())).toBeNull();
    expect(latestReportAt({ ...daily, frequency: 'off' }, new Date())).toBeNull();
  });
});

describe('report periods', () => {
  it('a daily report covers the day before, compared with the day before that', () => {
    expect(reportPeriod('daily', '2026-11-02')).toEqual({
      frequency: 'daily',
      key: 'daily:2026-11-01',
      startDate: '2026-11-01',
      endDate: '2026-11-01',
      previousStartDate: '2026-10-31',
      previousEndDate: '2026-10-31',
    });
  });

  it('a weekly report covers the 7 days before; the key gives the period back', () => {
    const period = reportPeriod('weekly', '2026-11-06');
    expect(period).toMatchObject({ key: 'weekly:2026-10-30', startDate: '2026-10-30', endDate: '2026-11-05', previousStartDate: '2026-10-23', previousEndDate: '2026-10-29' });
    expect(periodOfKey(period.key)).toEqual(period);
    expect(periodOfKey('daily:2026-11-01')).toEqual(reportPeriod('daily', '2026-11-02'));
    expect(periodOfKey('monthly:2026-11-01')).toBeUndefined();
  });
});
