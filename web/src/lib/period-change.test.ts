import { describe, expect, it } from 'vitest';
import { cardChange, CHANGE_RULES, comparisonLabel, leftOutNote, periodChange } from './period-change';

const previous30 = comparisonLabel({ compare: 'previous', startDate: '2026-09-04', endDate: '2026-10-03' }, 30);

describe('periodChange', () => {
  it('says a relative change with its sign, size, period and tone, and the same in words', () => {
    expect(periodChange(1124, 1000, CHANGE_RULES.count, previous30)).toEqual({
      kind: 'change',
      direction: 'up',
      tone: 'good',
      figure: '12.4%',
      against: 'vs previous 30 days',
      words: 'up 12.4 per cent versus the previous 30 days',
    });
    // Fewer followers is bad.
    expect(periodChange(900, 1000, CHANGE_RULES.count, previous30)).toMatchObject({ direction: 'down', tone: 'bad', figure: '10.0%', words: 'down 10.0 per cent versus the previous 30 days' });
    expect(periodChange(1000, 1000, CHANGE_RULES.count, previous30)).toMatchObject({ direction: 'flat', tone: 'neutral', figure: 'no change', words: 'no change versus the previous 30 days' });
  });

  it('answers a dash when the comparison period has no data, never 0 % or ∞', () => {
    expect(periodChange(500, null, CHANGE_RULES.count, previous30)).toEqual({
      kind: 'noData',
      text: 'no data for previous 30 days',
      words: 'no data for the previous 30 days to compare with',
    });
    expect(periodChange(null, null, CHANGE_RULES.revenue, previous30)).toMatchObject({ kind: 'noData' });
  });

  it('says a change from zero (or from a negative revenue) in the card’s unit', () => {
    expect(periodChange(40, 0, CHANGE_RULES.revenue, previous30)).toMatchObject({
      direction: 'up',
      tone: 'good',
      figure: '$40.00 (from $0.00)',
      words: 'up $40.00 from $0.00 versus the previous 30 days',
    });
    expect(periodChange(0, 0, CHANGE_RULES.revenue, previous30)).toMatchObject({ direction: 'flat', figure: 'no change' });
    expect(periodChange(10, -5, CHANGE_RULES.revenue, previous30)).toMatchObject({ direction: 'up', figure: '$15.00 (from -$5.00)' });
  });

  it('measures rates in percentage points', () => {
    expect(periodChange(5.25, 4, CHANGE_RULES.rate, previous30)).toMatchObject({
      direction: 'up',
      tone: 'good',
      figure: '1.3 pts',
      words: 'up 1.3 percentage points versus the previous 30 days',
    });
  });
});

describe('comparisonLabel and cardChange', () => {
  it('names the comparison period', () => {
    expect(comparisonLabel({ compare: 'previous', startDate: '2026-11-01', endDate: '2026-11-01' }, 1)).toEqual({ short: 'previous day', words: 'the previous day' });
    expect(comparisonLabel({ compare: 'year', startDate: '2025-10-04', endDate: '2025-11-02' }, 30)).toEqual({ short: 'same period last year', words: 'the same period last year' });
    expect(comparisonLabel({ compare: 'custom', startDate: '2026-01-01', endDate: '2026-01-30' }, 30)).toEqual({
      short: 'Jan 1, 2026 – Jan 30, 2026',
      words: 'Jan 1, 2026 to Jan 30, 2026',
    });
  });

  it('compares the current side with the comparison side of an answer', () => {
    const comparison = { compare: 'previous' as const, startDate: '2026-09-04', endDate: '2026-10-03', totals: { views: 1000 }, currentTotals: { views: 1500 } };
    expect(cardChange(comparison, (totals) => totals.views, CHANGE_RULES.count, 30)).toMatchObject({ figure: '50.0%', against: 'vs previous 30 days' });
    expect(cardChange(null, (totals: { views: number }) => totals.views, CHANGE_RULES.count, 30)).toBeNull();
  });
});

describe('leftOutNote', () => {
  it('names the connections the changes leave out', () => {
    const comparison = { compare: 'previous' as const, startDate: '2026-09-04', endDate: '2026-10-03' };
    expect(leftOutNote({ ...comparison, leftOut: [] }, 30)).toBeNull();
    expect(leftOutNote({ ...comparison, leftOut: [{ platform: 'TikTok', account: '@maya', figures: null }] }, 30)).toBe(
      'Changes leave out TikTok (@maya), which has no figures for the previous 30 days to compare with.',
    );
    expect(leftOutNote({ ...comparison, compare: 'year', leftOut: [{ platform: 'TikTok', account: null, figures: null }, { platform: 'Patreon', account: null, figures: null }] }, 30)).toBe(
      'Changes leave out TikTok and Patreon, which have no figures for the same period last year to compare with.',
    );
  });

  it('says which connections are compared over fewer days, where their history begins', () => {
    const comparison = { compare: 'previous' as const, startDate: '2026-09-04', endDate: '2026-10-03', leftOut: [{ platform: 'TikTok', account: null, figures: null }] };
    expect(leftOutNote({ ...comparison, shortened: [{ platform: 'Instagram', account: '@maya', historyStart: '2026-09-30', days: 4, figures: null }] }, 30)).toBe(
      'Changes leave out TikTok, which has no figures for the previous 30 days to compare with. Instagram (@maya): history begins Sep 30, 2026, so its change compares the 4 days both periods hold.',
    );
    expect(leftOutNote({ ...comparison, leftOut: [], shortened: [{ platform: 'Instagram', account: null, historyStart: '2026-10-03', days: 1, figures: null }] }, 30)).toBe(
      'Instagram: history begins Oct 3, 2026, so its change compares the day both periods hold.',
    );
  });
});
