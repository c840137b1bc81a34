import { describe, expect, it } from 'vitest';
import type { IncomePeriod } from '#contract/income.ts';
import { rangeDates, readIncomeState } from './income-range';
import { hasChartableIncome, periodLabel, stackedSeries, totalSeries } from './income-view';

const period = (key: string, lines: IncomePeriod['lines'], total: number | null): IncomePeriod => ({
  period: key,
  startDate: `${key}-01`,
  endDate: `${key}-${key.endsWith('-09') ? 30 : 31}`,
  lines,
  total,
  totalsByCurrency: [],
  views: 0,
  patrons: { new: null, churned: null, net: null },
});
const line = (source: IncomePeriod['lines'][number]['source'], currency: string | null, amount: number, converted: number | null) => ({
  source,
  connectionId: 1,
  account: null,
  original: { currency, amount },
  converted,
});

describe('income view shaping', () => {
  const periods = [
    period('2026-09', [line('youtube_ad', 'USD', 80, 80), line('youtube_premium', 'USD', 5, 5), line('patreon_pledges', 'GBP', 50, null)], null),
    period('2026-10', [line('youtube_ad', 'USD', 90, 90), line('patreon_pledges', 'EUR', 100, 110)], 200),
  ];

  it('stacks only converted amounts per source', () => {
    const series = stackedSeries(periods);
    expect(series.labels).toEqual(['Sep 2026', 'Oct 2026']);
    expect(series.datasets.map((dataset) => [dataset.source, dataset.values])).toEqual([
      ['youtube_ad', [80, 90]],
      ['youtube_premium', [5, 0]],
      ['patreon_pledges', [0, 110]],
    ]);
  });

  it('leaves a gap, not a made-up sum, where a total has no rate', () => {
    expect(totalSeries(periods).values).toEqual([null, 200]);
  });

  it('has something to chart only when some amount in the display currency is not 0 (issue 25)', () => {
    expect(hasChartableIncome(periods)).toBe(true);
    // Pledges of a campaign with no currency set, and a revenue of $0: an empty grid, not a chart.
    expect(hasChartableIncome([period('2026-09', [line('patreon_pledges', null, 54.7, null), line('youtube_ad', 'USD', 0, 0)], null)])).toBe(false);
    expect(hasChartableIncome([])).toBe(false);
  });

  it('labels months and days', () => {
    expect(periodLabel({ period: '2026-10', startDate: '2026-10-01', endDate: '2026-10-31' })).toBe('Oct 2026');
    expect(periodLabel({ period: '2026-10', startDate: '2026-10-04', endDate: '2026-10-31' })).toBe('Oct 4–31, 2026');
    expect(periodLabel({ period: '2026-11', startDate: '2026-11-01', endDate: '2026-11-01' })).toBe('Nov 1, 2026');
    expect(periodLabel({ period: '2026-10-05', startDate: '2026-10-05', endDate: '2026-10-05' })).toBe('Oct 5');
  });
});

describe('income range in the URL', () => {
  it('reads the range and granularity, with defaults for anything else', () => {
    expect(readIncomeState(new URLSearchParams('range=90d&by=day'))).toEqual({ range: '90d', granularity: 'day' });
    expect(readIncomeState(new URLSearchParams('range=forever&by=week'))).toEqual({ range: '6m', granularity: 'month' });
  });

  it('ends today, and holds the same days by day and by month (the grouping never widens the period)', () => {
    expect(rangeDates({ range: '30d', granularity: 'day' }, '2026-11-02')).toEqual({ startDate: '2026-10-04', endDate: '2026-11-02' });
    expect(rangeDates({ range: '30d', granularity: 'month' }, '2026-11-02')).toEqual({ startDate: '2026-10-04', endDate: '2026-11-02' });
  });
});
