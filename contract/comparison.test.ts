import { describe, expect, it } from 'vitest';
import { daysInPeriod, resolveComparison, sameDateLastYear } from './comparison.ts';

const period = (startDate: string, endDate: string) => ({ startDate, endDate });

describe('resolveComparison', () => {
  it('compares with the same number of days just before by default', () => {
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), {})).toEqual({ compare: 'previous', startDate: '2026-09-04', endDate: '2026-10-03' });
    expect(resolveComparison(period('2026-03-01', '2026-03-01'), { compare: 'previous' })).toEqual({ compare: 'previous', startDate: '2026-02-28', endDate: '2026-02-28' });
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compare: 'none' })).toBeNull();
  });

  it('compares with as many days ending on the same date a year earlier, Feb 29 read as Feb 28', () => {
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compare: 'year' })).toEqual({ compare: 'year', startDate: '2025-10-04', endDate: '2025-11-02' });
    // A period ending on Feb 29 ends on Feb 28 a year earlier, with its 30 days.
    const leapEnd = resolveComparison(period('2028-01-31', '2028-02-29'), { compare: 'year' });
    expect(leapEnd).toEqual({ compare: 'year', startDate: '2027-01-30', endDate: '2027-02-28' });
    // A period over Feb 29 of the year before keeps its length: it starts a day later than the same date.
    expect(resolveComparison(period('2029-02-15', '2029-03-16'), { compare: 'year' })).toEqual({ compare: 'year', startDate: '2028-02-16', endDate: '2028-03-16' });
    for (const resolved of [leapEnd, resolveComparison(period('2029-02-15', '2029-03-16'), { compare: 'year' })]) {
      expect(resolved && 'startDate' in resolved ? daysInPeriod(resolved.startDate, resolved.endDate) : 0).toBe(30);
    }
    expect(sameDateLastYear('2028-02-29')).toBe('2027-02-28');
    expect(sameDateLastYear('2027-03-01')).toBe('2026-03-01');
  });

  it('takes a custom period as given, and says in words what makes none', () => {
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compareStartDate: '2026-01-01', compareEndDate: '2026-01-10' })).toEqual({
      compare: 'custom',
      startDate: '2026-01-01',
      endDate: '2026-01-10',
    });
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compare: 'custom', compareStartDate: '2026-01-01' })).toEqual({
      error: 'compare=custom needs both compareStartDate and compareEndDate',
    });
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compare: 'year', compareStartDate: '2026-01-01', compareEndDate: '2026-01-02' })).toEqual({
      error: 'compareStartDate and compareEndDate go with compare=custom',
    });
    expect(resolveComparison(period('2026-10-04', '2026-11-02'), { compareStartDate: '2020-01-01', compareEndDate: '2026-01-02' })).toEqual({
      error: 'The comparison period may span at most three years',
    });
  });
});
