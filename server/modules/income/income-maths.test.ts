import { describe, expect, it } from 'vitest';
import { carriedForward, convert, convertedTotal, daysBetween, daysInMonth, pledgeForDay, type RateHistory, shares, sumByCurrency } from './income-maths.ts';

describe('pledges per day', () => {
  it('spreads a monthly amount over its own month’s days, so a whole month adds up to the amount', () => {
    expect(daysInMonth('2026-02-10')).toBe(28);
    expect(daysInMonth('2028-02-10')).toBe(29);
    expect(daysInMonth('2026-07-01')).toBe(31);
    expect(daysInMonth('2026-11-30')).toBe(30);
    for (const [month, days] of [['2026-02', 28], ['2028-02', 29], ['2026-07', 31], ['2026-11', 30]] as const) {
      const total = daysBetween(`${month}-01`, `${month}-${days}`).reduce((sum, day) => sum + pledgeForDay(300, day), 0);
      expect(total).toBeCloseTo(300, 10);
    }
    expect(pledgeForDay(280, '2026-02-01')).toBe(10);
  });

  it('carries a level forward until the next reading, and knows nothing before the first', () => {
    const readings = [{ day: '2026-10-02', value: 5 }, { day: '2026-10-04', value: 7 }];
    expect(carriedForward(readings, daysBetween('2026-10-01', '2026-10-05'))).toEqual([undefined, 5, 5, 7, 7]);
  });
});

describe('currency conversion through the euro', () => {
  const ECB = 'European Central Bank';
  const rates = new Map<string, RateHistory>([
    ['USD', [{ day: '2026-10-01', perEuro: 1.1, source: ECB }, { day: '2026-10-05', perEuro: 1.2, source: ECB }]],
    ['GBP', [{ day: '2026-10-01', perEuro: 0.88, source: ECB }, { day: '2026-10-05', perEuro: 0.8, source: ECB }]],
  ]);

  it('uses the latest rate on or before the day and names its date', () => {
    expect(convert(10, 'EUR', 'USD', '2026-10-04', rates)).toEqual({ amount: 11, rate: 1.1, rateDate: '2026-10-01', source: ECB });
    expect(convert(10, 'EUR', 'USD', '2026-10-05', rates)).toMatchObject({ amount: 12, rateDate: '2026-10-05' });
    expect(convert(12, 'USD', 'EUR', '2026-10-09', rates)!.amount).toBeCloseTo(10, 12);
  });

  it('crosses two non-euro currencies via the euro', () => {
    // 1 GBP = 1.2 / 0.8 = 1.5 USD on Oct 5.
    const conversion = convert(10, 'GBP', 'USD', '2026-10-06', rates)!;
    expect(conversion.rate).toBeCloseTo(1.5, 12);
    expect(conversion.amount).toBeCloseTo(15, 12);
  });

  it('has no conversion before the first rate or for an unknown currency, and none is needed within one currency', () => {
    expect(convert(10, 'EUR', 'USD', '2026-09-30', rates)).toBeNull();
    expect(convert(10, 'CHF', 'USD', '2026-10-06', rates)).toBeNull();
    expect(convert(10, 'USD', 'USD', '2026-09-30', rates)).toMatchObject({ amount: 10, rate: 1 });
  });

  it('never sums an amount without a conversion: the total is null and the currencies stand side by side', () => {
    expect(convertedTotal([1, 2, 3])).toBe(6);
    expect(convertedTotal([1, null, 3])).toBeNull();
    expect(sumByCurrency([{ currency: 'USD', amount: 1 }, { currency: 'GBP', amount: 2 }, { currency: 'USD', amount: 3 }, { currency: null, amount: 4 }])).toEqual([
      { currency: 'USD', amount: 4 },
      { currency: 'GBP', amount: 2 },
      { currency: null, amount: 4 },
    ]);
  });
});

describe('shares', () => {
  it('is each value over the sum, and null (not 0) when there is nothing to share', () => {
    expect(shares([1, 3])).toEqual([0.25, 0.75]);
    expect(shares([0, 0])).toEqual([null, null]);
  });
});
