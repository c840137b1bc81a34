// The trend charts' shaping (trend-lines.ts), by hand: a line per platform, the combined line only for several,
// the comparison under the same days, a lone day drawn as a point, and the total's start said in its name.
import { describe, expect, it } from 'vitest';
import { followersTrendChart, metricTrendChart } from './trend-lines';

const nulls = (count: number) => Array.from({ length: count }, () => null);

describe('metricTrendChart', () => {
  it('draws each platform, all platforms together and the comparison dashed, day by day', () => {
    const chart = metricTrendChart(
      {
        metric: 'views',
        combined: [10, 30, 5],
        platforms: [
          { platform: 'YouTube', values: [10, 10, 5] },
          { platform: 'TikTok', values: [null, 20, null] },
        ],
        comparison: [8, null, 9],
      },
      { startDate: '2026-11-01', comparison: { startDate: '2026-10-29', label: 'Previous 3 days' }, derived: [{ platform: 'TikTok', metrics: ['views'], method: 'from daily snapshots of lifetime counters', startDate: '2026-11-01', endDate: '2026-11-03' }] },
    );
    expect(chart.data.labels).toEqual(['Nov 1, 2026', 'Nov 2, 2026', 'Nov 3, 2026']);
    expect(chart.data.datasets.map((dataset) => [dataset.label, dataset.data])).toEqual([
      ['YouTube', [10, 10, 5]],
      ['TikTok (derived)', [null, 20, null]],
      ['All platforms', [10, 30, 5]],
      ['Previous 3 days', [8, null, 9]],
    ]);
    expect(chart.data.datasets[3]).toMatchObject({ borderDash: [6, 4] });
    expect(chart.rows[1]).toEqual({ label: 'Nov 2, 2026', value: 'YouTube 10; TikTok 20; all platforms 30' });
    expect(chart.rows[2]).toEqual({ label: 'Nov 3, 2026', value: 'YouTube 5; all platforms 5; previous 3 days (Oct 31, 2026) 9' });
  });

  it('is one line for one platform, has no data without a figure, and marks a lone day in a long period', () => {
    const one = metricTrendChart({ metric: 'views', combined: [1, 2], platforms: [{ platform: 'YouTube', values: [1, 2] }], comparison: [] }, { startDate: '2026-11-01' });
    expect(one.data.datasets.map((dataset) => dataset.label)).toEqual(['YouTube']);
    expect(one.legend).toEqual([]);
    expect(metricTrendChart({ metric: 'views', combined: [null, null], platforms: [], comparison: [] }, { startDate: '2026-11-01' }).hasData).toBe(false);
    const lone = metricTrendChart(
      { metric: 'views', combined: [...nulls(89), 4], platforms: [{ platform: 'TikTok', values: [...nulls(89), 4] }, { platform: 'YouTube', values: Array.from({ length: 90 }, () => 1) }], comparison: [] },
      { startDate: '2026-08-05' },
    );
    // 90 days draw no points, except where a line has a single day: it would not show otherwise.
    expect((lone.data.datasets[0]!.pointRadius as number[]).at(-1)).toBeGreaterThan(0);
    expect((lone.data.datasets[1]!.pointRadius as number[]).every((radius) => radius === 0)).toBe(true);
  });

  it('reads the engagement rate as a percentage', () => {
    const rate = metricTrendChart({ metric: 'engagement_rate', combined: [4.25], platforms: [{ platform: 'YouTube', values: [4.25] }], comparison: [] }, { startDate: '2026-11-01' });
    expect(rate.rows).toEqual([{ label: 'Nov 1, 2026', value: '4.3%' }]);
  });
});

describe('followersTrendChart', () => {
  it('names the total with the day every history has begun', () => {
    const chart = followersTrendChart(
      { combined: [null, 150], platforms: [{ platform: 'YouTube', values: [90, 100] }, { platform: 'Instagram', values: [null, 50] }], comparison: [] },
      { startDate: '2026-11-01' },
    );
    expect(chart.totalFrom).toBe('2026-11-02');
    expect(chart.legend.map((entry) => entry.label)).toEqual(['YouTube', 'Instagram', "Total from Nov 2, 2026, when every platform's history begins"]);
    expect(chart.data.datasets[2]).toMatchObject({ fill: true, data: [null, 150] });
  });

  it('is the total alone, filled and named Followers, for one platform', () => {
    const chart = followersTrendChart({ combined: [90, 100], platforms: [{ platform: 'YouTube', values: [90, 100] }], comparison: [] }, { startDate: '2026-11-01' });
    expect(chart.data.datasets.map((dataset) => dataset.label)).toEqual(['Followers']);
    expect(chart.totalFrom).toBeNull();
  });
});
