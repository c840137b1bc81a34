import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatCompactNumber, formatDate, formatMoney, formatMoneyInFull, formatPercentage, getDisplayTimeZone, setDisplayTimeZone } from './format';

describe('formatCompactNumber', () => {
  it('uses US English compact notation with at most one decimal', () => {
    expect(formatCompactNumber(0)).toBe('0');
    expect(formatCompactNumber(999)).toBe('999');
    expect(formatCompactNumber(1_000)).toBe('1K');
    expect(formatCompactNumber(1_234)).toBe('1.2K');
    expect(formatCompactNumber(128_449)).toBe('128.4K');
    expect(formatCompactNumber(2_500_000)).toBe('2.5M');
    expect(formatCompactNumber(3_000_000_000)).toBe('3B');
  });

  it('shows 0 for values that are not numbers', () => {
    expect(formatCompactNumber(Number.NaN)).toBe('0');
  });
});

describe('formatDate', () => {
  it('shows short month, day and year', () => {
    expect(formatDate('2026-11-22T12:00:00Z')).toBe('Nov 22, 2026');
    expect(formatDate(new Date(2027, 0, 5))).toBe('Jan 5, 2027');
  });

  it('shows moments in the account’s time zone once set, and calendar days as themselves in any zone', () => {
    try {
      setDisplayTimeZone('Asia/Tokyo');
      expect(getDisplayTimeZone()).toBe('Asia/Tokyo');
      // 20:00 UTC on Nov 22 is already Nov 23 in Tokyo, and still Nov 22 in Los Angeles.
      expect(formatDate('2026-11-22T20:00:00Z')).toBe('Nov 23, 2026');
      expect(formatCalendarDay('2026-11-22')).toBe('Nov 22, 2026');
      setDisplayTimeZone('America/Los_Angeles');
      expect(formatDate('2026-11-23T05:00:00Z')).toBe('Nov 22, 2026');
      expect(formatCalendarDay('2026-11-22')).toBe('Nov 22, 2026');
      // A zone this browser does not know keeps the device's.
      setDisplayTimeZone('Mars/Olympus_Mons');
      expect(getDisplayTimeZone()).toBeUndefined();
    } finally {
      setDisplayTimeZone(null);
    }
  });

  it('returns an empty string for missing or unreadable dates', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatMoney', () => {
  it('is the shared money rule: two decimals under 1,000, compact above, in the given currency', () => {
    expect(formatMoney(7.6)).toBe('$7.60');
    expect(formatMoney(19.67)).toBe('$19.67');
    expect(formatMoney(20, 'usd')).toBe('$20.00');
    expect(formatMoney(2620.48)).toBe('$2,620');
    expect(formatMoneyInFull(2620.48)).toBe('$2,620.48');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,235');
  });
});

describe('formatPercentage', () => {
  it('shows one decimal and a percent sign', () => {
    expect(formatPercentage(4.56)).toBe('4.6%');
    expect(formatPercentage(5)).toBe('5.0%');
    expect(formatPercentage(0)).toBe('0.0%');
    expect(formatPercentage(Number.POSITIVE_INFINITY)).toBe('0.0%');
  });
});
