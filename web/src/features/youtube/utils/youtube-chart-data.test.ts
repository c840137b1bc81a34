import { describe, expect, it } from 'vitest';
import { demographicLabel, isRetentionTick, retentionChartData, revenueTrendChartData, topDemographics } from './youtube-chart-data';

describe('retentionChartData', () => {
  it('draws the share still watching by position in the video, with a text row every 10 %', () => {
    const points = Array.from({ length: 101 }, (_, index) => ({ timeRatio: index / 100, watchRatio: 1 - index / 200, relativePerformance: null }));
    const chart = retentionChartData([...points].reverse());
    expect(chart.data.labels?.slice(0, 3)).toEqual(['0%', '1%', '2%']);
    expect(chart.data.datasets[0]?.data.slice(0, 2)).toEqual([100, 99.5]);
    expect(chart.rows).toHaveLength(11);
    expect(chart.rows[0]).toEqual({ label: '0%', value: '100.0%' });
    expect(chart.rows[10]).toEqual({ label: '100%', value: '50.0%' });
  });

  it('keeps rewatches above 100 % and handles a sparse curve', () => {
    const chart = retentionChartData([
      { timeRatio: 0.01, watchRatio: 1.12, relativePerformance: 0.7 },
      { timeRatio: 0.5, watchRatio: 0.4, relativePerformance: 0.5 },
    ]);
    expect(chart.data.datasets[0]?.data).toEqual([112, 40]);
    expect(chart.rows).toEqual([
      { label: '1%', value: '112.0%' },
      { label: '50%', value: '40.0%' },
    ]);
  });
});

describe('isRetentionTick', () => {
  it('ticks every 20 % of the video', () => {
    expect(['0%', '1%', '20%', '21%', '40%', '100%', 'x'].filter(isRetentionTick)).toEqual(['0%', '20%', '40%', '100%']);
  });
});

describe('revenueTrendChartData with the comparison period', () => {
  it('overlays the comparison’s revenue day by day, dashed, and reads it beside each day', () => {
    const chart = revenueTrendChartData([{ date: '2026-11-02', revenue: 12 }], {
      currentStart: '2026-11-01',
      comparisonStart: '2026-10-25',
      label: 'Previous 7 days',
      points: [
        { date: '2026-10-25', value: 5 },
        { date: '2026-10-26', value: 6.5 },
      ],
    });
    expect(chart.data.labels).toEqual(['Nov 1, 2026', 'Nov 2, 2026']);
    expect(chart.data.datasets.map((dataset) => [dataset.label, dataset.data])).toEqual([
      ['Revenue', [null, 12]],
      ['Previous 7 days', [5, 6.5]],
    ]);
    expect(chart.rows).toEqual([
      { label: 'Nov 1, 2026', value: 'no figure; previous 7 days (Oct 25, 2026): $5.00' },
      { label: 'Nov 2, 2026', value: '$12.00; previous 7 days (Oct 26, 2026): $6.50' },
    ]);
  });
});

describe('revenueTrendChartData', () => {
  it('puts the days in order and reads them as money', () => {
    const chart = revenueTrendChartData([
      { date: '2026-11-21', revenue: 152.5 },
      { date: '2026-11-20', revenue: 140 },
    ]);
    expect(chart.data.labels).toEqual(['Nov 20, 2026', 'Nov 21, 2026']);
    expect(chart.data.datasets[0]?.data).toEqual([140, 152.5]);
    expect(chart.rows).toEqual([
      { label: 'Nov 20, 2026', value: '$140.00' },
      { label: 'Nov 21, 2026', value: '$152.50' },
    ]);
  });
});

describe('demographics', () => {
  it('names each breakdown in words', () => {
    expect(demographicLabel({ demographicType: 'ageGender', demographicValue: 'female 25-34' })).toBe('Female, 25–34');
    expect(demographicLabel({ demographicType: 'ageGender', demographicValue: 'male age65-' })).toBe('Male, 65+');
    expect(demographicLabel({ demographicType: 'age', demographicValue: 'age18-24' })).toBe('18–24');
    expect(demographicLabel({ demographicType: 'gender', demographicValue: 'user_specified' })).toBe('User specified');
    expect(demographicLabel({ demographicType: 'country', demographicValue: 'US' })).toBe('United States');
    expect(demographicLabel({ demographicType: 'country', demographicValue: 'ZZZ' })).toBe('ZZZ');
  });

  it('keeps the top 6 by share of views per breakdown, without mixing them', () => {
    const ageGender = ['13-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65-'].map((age, index) => ({
      demographicType: 'ageGender' as const,
      demographicValue: `female ${age}`,
      viewsPercentage: index + 1,
    }));
    const groups = topDemographics(
      [...ageGender, { demographicType: 'country', demographicValue: 'GB', viewsPercentage: 30 }, { demographicType: 'country', demographicValue: 'FR', viewsPercentage: 0 }],
      6,
    );
    expect(groups.map((group) => group.title)).toEqual(['Age and gender', 'Top countries']);
    expect(groups[0]?.items).toHaveLength(6);
    expect(groups[0]?.items[0]).toEqual({ label: 'Female, 65+', percentage: 7 });
    expect(groups[1]?.items).toEqual([{ label: 'United Kingdom', percentage: 30 }]);
    expect(topDemographics([], 6)).toEqual([]);
  });
});
