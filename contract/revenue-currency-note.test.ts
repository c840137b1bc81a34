import { describe, expect, it } from 'vitest';
import { revenueCurrencyNote } from './analytics.ts';

describe('revenueCurrencyNote', () => {
  it('says nothing when every pledge is in dollars', () => {
    expect(revenueCurrencyNote([])).toBeNull();
  });

  it('names each currency left out with its amount, and the campaigns whose currency is not set', () => {
    expect(
      revenueCurrencyNote([
        { currency: 'EUR', monthlyAmount: 1234.5, connections: 1 },
        { currency: null, monthlyAmount: 99, connections: 2 },
      ]),
    ).toBe(
      'Total Revenue counts US dollars only. Patreon pledges left out: €1,235 a month in EUR (1 campaign, not converted); 99.00 a month from 2 campaigns whose currency Patreon did not name (choose it on the Platforms page).',
    );
  });

  it('says the amount over the period where the cards counted its days', () => {
    expect(revenueCurrencyNote([{ currency: 'EUR', periodAmount: 2256.34, monthlyAmount: 2300, connections: 1 }])).toBe(
      'Total Revenue counts US dollars only. Patreon pledges left out: €2,256 over these days in EUR (1 campaign, not converted).',
    );
  });
});
