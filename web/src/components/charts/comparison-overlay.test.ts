import { describe, expect, it } from 'vitest';
import { alignComparison } from './comparison-overlay';

describe('alignComparison', () => {
  it('puts the comparison’s n-th day under the current period’s n-th day, null where a series has none', () => {
    const aligned = alignComparison(
      [
        { date: '2026-10-05', value: 12 },
        { date: '2026-10-04', value: 10 },
      ],
      {
        currentStart: '2026-10-04',
        comparisonStart: '2026-09-04',
        label: 'Previous 30 days',
        points: [
          { date: '2026-09-04', value: 7 },
          { date: '2026-09-06', value: 9 },
        ],
      },
    );
    expect(aligned).toEqual({
      dates: ['2026-10-04', '2026-10-05', '2026-10-06'],
      current: [10, 12, null],
      comparison: [7, null, 9],
      comparisonDates: ['2026-09-04', null, '2026-09-06'],
    });
  });
});
