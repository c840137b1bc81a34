// The YouTube contract's own behaviour: query parsing and bounds, video ids, and retention data in every spelling the
// spec allows answered in one shape.
import { describe, expect, it } from 'vitest';
import {
  formatChance,
  insight,
  normalizeRetentionData,
  performanceSummaryResponse,
  youtubeDaysQuery,
  youtubeVideoParams,
  youtubeVideosQuery,
} from './youtube.ts';

describe('normalizeRetentionData', () => {
  const expected = [
    { timeRatio: 0.01, watchRatio: 1, relativePerformance: 0.55 },
    { timeRatio: 0.5, watchRatio: 0.42, relativePerformance: null },
  ];

  it('accepts camelCase and TitleCase, sorted by time', () => {
    expect(normalizeRetentionData([{ timeRatio: 0.5, watchRatio: 0.42 }, { timeRatio: 0.01, watchRatio: 1, relativePerformance: 0.55 }])).toEqual(expected);
    expect(normalizeRetentionData([{ TimeRatio: 0.5, WatchRatio: 0.42, RelativePerformance: null }, { TimeRatio: 0.01, WatchRatio: 1, RelativePerformance: 0.55 }])).toEqual(expected);
  });

  it('accepts a JSON string of either, and numeric strings', () => {
    expect(normalizeRetentionData(JSON.stringify([{ TimeRatio: '0.01', WatchRatio: '1', RelativePerformance: '0.55' }, { timeRatio: 0.5, watchRatio: 0.42 }]))).toEqual(expected);
  });

  it('drops points that are not numbers and answers [] for anything else', () => {
    expect(normalizeRetentionData([{ timeRatio: 'soon', watchRatio: 1 }, null, 7, { timeRatio: 0.2 }, { timeRatio: 0.3, watchRatio: 0.8, relativePerformance: 'n/a' }])).toEqual([
      { timeRatio: 0.3, watchRatio: 0.8, relativePerformance: null },
    ]);
    for (const input of [null, undefined, 42, '{not json', '{"timeRatio":1}', {}]) expect(normalizeRetentionData(input)).toEqual([]);
  });
});

describe('queries and params', () => {
  it('parses numbers from the query string within bounds', () => {
    expect(youtubeVideosQuery.parse({ days: '30', page: '2', pageSize: '50', sort: 'views', order: 'asc', search: '  cats ' })).toEqual({
      days: 30,
      page: 2,
      pageSize: 50,
      sort: 'views',
      order: 'asc',
      search: 'cats',
    });
    expect(youtubeVideosQuery.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(youtubeVideosQuery.safeParse({ page: '0' }).success).toBe(false);
    expect(youtubeVideosQuery.safeParse({ extra: '1' }).success).toBe(false);
    expect(youtubeDaysQuery.safeParse({ days: '731' }).success).toBe(false);
    expect(youtubeDaysQuery.safeParse({ days: '1.5' }).success).toBe(false);
    expect(youtubeDaysQuery.parse({})).toEqual({});
  });

  it('takes our numeric ids and YouTube’s 11-character video ids', () => {
    expect(youtubeVideoParams.safeParse({ id: '42' }).success).toBe(true);
    expect(youtubeVideoParams.safeParse({ id: 'dQw4w9WgXcQ' }).success).toBe(true);
    expect(youtubeVideoParams.safeParse({ id: 'dQw4w9WgXc' }).success).toBe(false);
    expect(youtubeVideoParams.safeParse({ id: '12345678901234' }).success).toBe(false);
    expect(youtubeVideoParams.safeParse({ id: '../etc' }).success).toBe(false);
  });
});

describe('responses', () => {
  it('bounds confidence to 0–1', () => {
    const base = { id: 1, insightType: 'rpm_trend', title: 't', recommendation: 'r', facts: { a: 1 }, videoId: null, createdAt: '2026-11-02T10:00:00.000Z' };
    expect(insight.safeParse({ ...base, confidenceScore: 0.8 }).success).toBe(true);
    expect(insight.safeParse({ ...base, confidenceScore: 1.2 }).success).toBe(false);
  });

  it('describes an unconnected channel', () => {
    const empty = {
      connected: false,
      channelTitle: null,
      days: 30,
      startDate: '2026-10-28',
      endDate: '2026-11-26',
      totalVideos: 0,
      analyticsAccess: false,
      totalViews: null,
      totalWatchTime: null,
      averageEngagement: null,
      totalRevenue: null,
      subscribersGained: null,
      revenueAccess: 'missingScope',
      revenue: {
        totalRevenue: null,
        previousPeriodRevenue: null,
        changePercent: null,
        rpm: null,
        cpm: null,
        monetizedViews: null,
        adRevenue: null,
        otherRevenue: null,
        monthlyProjection: null,
        trend: [],
        topEarningVideos: [],
        revenueBySource: [],
        estimatedFields: [],
      },
      lastSyncedAt: null,
      // Nothing to compare and nothing read: no comparison, no freshness.
      comparison: null,
      completeThrough: null,
      revenueCompleteThrough: null,
      channelTrend: [],
    };
    expect(performanceSummaryResponse.parse(empty)).toEqual(empty);
  });
});

describe('formatChance', () => {
  it('never rounds a chance to a flat 0 % or 100 %', () => {
    expect(formatChance(0.341)).toBe('34 %');
    expect(formatChance(0.001)).toBe('under 1 %');
    expect(formatChance(0)).toBe('0 %');
    expect(formatChance(0.998)).toBe('over 99 %');
    expect(formatChance(1)).toBe('100 %');
  });
});
