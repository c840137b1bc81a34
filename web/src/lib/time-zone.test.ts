import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTimeZone, matchesTimeZone, timeZoneOptions, utcOffset } from './time-zone';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('time zones offered', () => {
  it('lists current names only (Asia/Kolkata, not Asia/Calcutta), UTC first, once each, with a saved zone the browser might not list', () => {
    const zones = timeZoneOptions('Etc/GMT+5', 'Asia/Calcutta');
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Etc/GMT+5');
    for (const current of ['Asia/Kolkata', 'Asia/Ho_Chi_Minh', 'Europe/Kyiv']) expect(zones).toContain(current);
    for (const retired of ['Asia/Calcutta', 'Asia/Saigon', 'Europe/Kiev']) expect(zones).not.toContain(retired);
    expect(new Set(zones).size).toBe(zones.length);
  });

  it("gives the browser's zone by its current name", () => {
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...resolved.call(this), timeZone: 'Asia/Calcutta' };
    });
    expect(browserTimeZone()).toBe('Asia/Kolkata');
  });

  it('shows the offset from UTC at a given moment, daylight saving included', () => {
    expect(utcOffset('Asia/Kolkata', new Date('2026-01-15T12:00:00Z'))).toBe('UTC+05:30');
    expect(utcOffset('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe('UTC+01:00');
    expect(utcOffset('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe('UTC+02:00');
    expect(utcOffset('America/New_York', new Date('2026-01-15T12:00:00Z'))).toBe('UTC−05:00');
    expect(utcOffset('UTC', new Date('2026-01-15T12:00:00Z'))).toBe('UTC+00:00');
  });

  it('finds a zone by any words of its name, a former name or its offset', () => {
    expect(matchesTimeZone('America/New_York', 'new york')).toBe(true);
    expect(matchesTimeZone('America/New_York', 'york america')).toBe(true);
    expect(matchesTimeZone('Asia/Kolkata', 'calcutta')).toBe(true);
    expect(matchesTimeZone('Asia/Kolkata', '+05:30', 'UTC+05:30')).toBe(true);
    expect(matchesTimeZone('America/New_York', '-05:00', 'UTC−05:00')).toBe(true);
    expect(matchesTimeZone('Europe/Berlin', 'paris')).toBe(false);
    expect(matchesTimeZone('Europe/Berlin', '')).toBe(true);
  });
});
