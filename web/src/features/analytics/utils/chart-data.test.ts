import { describe, expect, it } from 'vitest';
import type { TopContentItem } from '#contract/analytics.ts';
import { PLATFORM_PALETTE } from '../../../lib/platform-palette';
import {
  emptyPanelText,
  engagementChartData,
  followersChartData,
  isEmptySeries,
  platformDistributionData,
  rankTopContent,
} from './chart-data';
import { formatCalendarDay } from '../../../lib/format';

describe('formatCalendarDay', () => {
  it('shows the API day itself (short month, day, year), whatever the time zone', () => {
    expect(formatCalendarDay('2026-11-01')).toBe('Nov 1, 2026');
    expect(formatCalendarDay('2026-01-31')).toBe('Jan 31, 2026');
  });
});

describe('followersChartData', () => {
  it('sorts the days, labels them and fills the line', () => {
    const chart = followersChartData([
      { date: '2026-11-03', value: 1_250 },
      { date: '2026-11-01', value: 1_000 },
      { date: '2026-11-02', value: 1_100 },
    ]);
    expect(chart.data.labels).toEqual(['Nov 1, 2026', 'Nov 2, 2026', 'Nov 3, 2026']);
    expect(chart.data.datasets).toHaveLength(1);
    expect(chart.data.datasets[0]!.data).toEqual([1_000, 1_100, 1_250]);
    expect(chart.data.datasets[0]!.fill).toBe(true);
    expect(chart.rows).toEqual([
      { label: 'Nov 1, 2026', value: '1K' },
      { label: 'Nov 2, 2026', value: '1.1K' },
      { label: 'Nov 3, 2026', value: '1.3K' },
    ]);
  });
});

describe('followersChartData with the comparison period', () => {
  it('overlays the comparison day by day as a dashed line, and reads it beside each day', () => {
    const chart = followersChartData(
      [
        { date: '2026-11-01', value: 1_000 },
        { date: '2026-11-02', value: 1_100 },
      ],
      {
        currentStart: '2026-11-01',
        comparisonStart: '2026-10-30',
        label: 'Previous 2 days',
        points: [
          { date: '2026-10-30', value: 900 },
          { date: '2026-10-31', value: 950 },
        ],
      },
    );
    expect(chart.data.labels).toEqual(['Nov 1, 2026', 'Nov 2, 2026']);
    expect(chart.data.datasets.map((dataset) => [dataset.label, dataset.data, dataset.borderDash ?? null])).toEqual([
      ['Followers', [1_000, 1_100], null],
      ['Previous 2 days', [900, 950], [6, 4]],
    ]);
    expect(chart.rows).toEqual([
      { label: 'Nov 1, 2026', value: '1K; previous 2 days (Oct 30, 2026): 900' },
      { label: 'Nov 2, 2026', value: '1.1K; previous 2 days (Oct 31, 2026): 950' },
    ]);
    // Without comparison points: the plain chart.
    expect(followersChartData([{ date: '2026-11-01', value: 1 }], { currentStart: '2026-11-01', comparisonStart: '2026-10-31', label: 'x', points: [] }).data.datasets).toHaveLength(1);
  });
});

describe('engagementChartData', () => {
  it('draws one bar per day, oldest first', () => {
    const chart = engagementChartData([
      { date: '2026-11-02', value: 40 },
      { date: '2026-11-01', value: 12 },
    ]);
    expect(chart.data.labels).toEqual(['Nov 1, 2026', 'Nov 2, 2026']);
    expect(chart.data.datasets[0]!.data).toEqual([12, 40]);
    expect(chart.rows.map((row) => row.value)).toEqual(['12', '40']);
  });
});

describe('isEmptySeries', () => {
  it('is empty without points or with only zeros', () => {
    expect(isEmptySeries(undefined)).toBe(true);
    expect(isEmptySeries([])).toBe(true);
    expect(isEmptySeries([{ date: '2026-11-01', value: 0 }])).toBe(true);
    expect(isEmptySeries([{ date: '2026-11-01', value: 3 }])).toBe(false);
  });
});

describe('platformDistributionData', () => {
  it('puts the percentage in the legend label, colours each platform by the palette whatever its rank, and skips platforms without followers', () => {
    // 60 000 + 30 000 + 10 000 = 100 000 → 60 %, 30 %, 10 %.
    const chart = platformDistributionData([
      { name: 'YouTube', followers: 60_000, percentage: 60, color: '#3B82F6' },
      { name: 'Instagram', followers: 30_000, percentage: 30, color: '#EF4444' },
      { name: 'TikTok', followers: 10_000, percentage: 10, color: '' },
      { name: 'LinkedIn', followers: 0, percentage: 0, color: '#F59E0B' },
    ]);
    expect(chart.data.labels).toEqual(['YouTube (60.0%)', 'Instagram (30.0%)', 'TikTok (10.0%)']);
    expect(chart.data.datasets[0]!.data).toEqual([60_000, 30_000, 10_000]);
    expect(chart.data.datasets[0]!.backgroundColor).toEqual([PLATFORM_PALETTE.youtube, PLATFORM_PALETTE.instagram, PLATFORM_PALETTE.tiktok]);
    expect(chart.rows).toEqual([
      { label: 'YouTube', value: '60K followers, 60.0%' },
      { label: 'Instagram', value: '30K followers, 30.0%' },
      { label: 'TikTok', value: '10K followers, 10.0%' },
    ]);
  });

  it('rounds the exact share once, to the decimal it shows (17.5 %, never a whole 17 shown as 17.0 %)', () => {
    const chart = platformDistributionData([
      { name: 'YouTube', followers: 825, percentage: 82.5, color: '#3B82F6' },
      { name: 'Patreon', followers: 175, percentage: 17.5, color: '#EF4444' },
    ]);
    expect(chart.data.labels).toEqual(['YouTube (82.5%)', 'Patreon (17.5%)']);
  });

  it('has no slices when nobody has followers', () => {
    expect(platformDistributionData([]).rows).toEqual([]);
  });
});

describe('rankTopContent', () => {
  const item = (id: string, engagement: number, title = `Video ${id}`, description: string | null = null): TopContentItem => ({
    id,
    title,
    description,
    platform: 'YouTube',
    engagement,
    url: null,
    publishedAt: null,
  });

  it('keeps the 5 most engaging, ranks them #1 to #5 and falls back to the description for a blank title', () => {
    const ranked = rankTopContent([
      item('c1', 10),
      item('c2', 2_500),
      item('c3', 400, '  ', 'Behind the scenes'),
      item('c4', 90),
      item('c5', 1_200),
      item('c6', 5),
    ]);
    expect(ranked.map((entry) => [entry.rank, entry.id, entry.heading, entry.engagement])).toEqual([
      [1, 'c2', 'Video c2', '2.5K'],
      [2, 'c5', 'Video c5', '1.2K'],
      [3, 'c3', 'Behind the scenes', '400'],
      [4, 'c4', 'Video c4', '90'],
      [5, 'c1', 'Video c1', '10'],
    ]);
  });

  it('says "1 engagement" for one, and "engagements" for none or more', () => {
    expect(rankTopContent([item('a', 1), item('b', 0), item('c', 2)]).map((entry) => `${entry.engagement} ${entry.engagementWord}`)).toEqual([
      '2 engagements',
      '1 engagement',
      '0 engagements',
    ]);
  });
});

describe('emptyPanelText', () => {
  const followers = ['followers', 'subscribers', 'patrons'];
  it('says a panel does not apply to a Metric it does not draw, and how to see it', () => {
    expect(emptyPanelText('revenue', followers, 'Followers', 'No followers data available')).toBe('Followers are not part of Metric = Revenue: clear the Metric filter to see them.');
    expect(emptyPanelText('watch_time_minutes', ['likes'], 'Engagements', 'No engagement data available')).toBe(
      'Engagements are not part of Metric = Watch time (minutes): clear the Metric filter to see them.',
    );
  });

  it('keeps the empty message where the panel applies: no Metric, or one it draws', () => {
    expect(emptyPanelText(null, followers, 'Followers', 'No followers data available')).toBe('No followers data available');
    expect(emptyPanelText('subscribers', followers, 'Followers', 'No followers data available')).toBe('No followers data available');
  });
});
