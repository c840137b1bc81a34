// Every chart that draws platforms takes their colours from the one palette: the same platform, the same colour,
// whether it is a line of a trend, a slice of the distribution doughnut or a part of the income bars.
import { describe, expect, it } from 'vitest';
import type { IncomePeriod } from '#contract/income.ts';
import { PLATFORM_CATALOGUE, PLATFORM_NAMES } from '#contract/platforms.ts';
import { trendChart } from '../components/charts/trend-lines';
import { platformDistributionData } from '../features/analytics/utils/chart-data';
import { stackedSeries } from '../features/income/utils/income-view';
import { CHANNEL_TREND_SERIES } from '../features/youtube/utils/youtube-trend-data';
import { PLATFORM_PALETTE, platformColour } from './platform-palette';

const names = PLATFORM_NAMES.map((name) => PLATFORM_CATALOGUE[name].name);

describe('platform colours across charts', () => {
  it('gives each platform the same colour in the trend lines and in the distribution doughnut, whatever its order', () => {
    const lines = trendChart({
      startDate: '2026-11-01',
      platforms: names.map((platform, index) => ({ platform, values: [index + 1, index + 2] })),
      combined: [21, 27],
      combinedLabel: 'All platforms',
      format: 'compact',
    });
    const lineColour = new Map(lines.data.datasets.map((dataset) => [dataset.label, dataset.borderColor]));
    // Reversed, so a colour chosen by rank would differ.
    const doughnut = platformDistributionData([...names].reverse().map((name) => ({ name, followers: 10, percentage: 100 / names.length, color: '' })));
    const sliceColours = doughnut.data.datasets[0]!.backgroundColor as string[];
    [...names].reverse().forEach((name, index) => {
      expect(sliceColours[index], name).toBe(platformColour(name));
      expect(lineColour.get(name), name).toBe(platformColour(name));
    });
    expect(new Set(sliceColours).size).toBe(names.length);
  });

  it('draws Patreon in the income bars in its colour of every other chart, and YouTube in shades of its red', () => {
    const period: IncomePeriod = {
      period: '2026-10',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      lines: (['youtube_ad', 'youtube_premium', 'youtube_other', 'patreon_pledges'] as const).map((source) => ({ source, connectionId: 1, account: null, original: { currency: 'USD', amount: 5 }, converted: 5 })),
      total: 20,
      totalsByCurrency: [],
      views: 0,
      patrons: { new: null, churned: null, net: null },
    };
    const colours = Object.fromEntries(stackedSeries([period]).datasets.map((dataset) => [dataset.source, dataset.colour]));
    expect(colours.patreon_pledges).toBe(PLATFORM_PALETTE.patreon);
    expect(colours.youtube_ad).toBe(PLATFORM_PALETTE.youtube);
    expect(new Set(Object.values(colours)).size).toBe(4);
    expect(CHANNEL_TREND_SERIES.views.color).toBe(PLATFORM_PALETTE.youtube);
  });
});
