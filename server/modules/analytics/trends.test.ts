// The analytics answer's daily lines (issues 24 and 25) over HTTP against hand-written rows: each platform's follower
// line when one history begins mid-range, the trends per platform and combined (views, watch time, engagements, the
// engagement rate as a rate) with the comparison period's combined line, no line for a platform without the figure,
// the Metric filter charting what it names, and Top Content following the period.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsResponse, MetricTrend } from '#contract/analytics.ts';
import { contentItems } from '../../db/schema.ts';
import { addDays } from '../../lib/dates.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let tess: Account;

const { insertConnection, daily, content } = analyticsFactory(() => server);

async function published(itemId: number, at: string) {
  await server.db.update(contentItems).set({ publishedAt: new Date(at) }).where(eq(contentItems.id, itemId));
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  // The test clock: 2026-11-02, so days=7 is 2026-10-27 … 2026-11-02 and the previous period 10-20 … 10-26.
  tess = await signUpWithAccess(server);
  const youtube = await insertConnection(tess.user.id, 'youtube', 1006);
  const tiktok = await insertConnection(tess.user.id, 'tiktok', 530);
  const patreon = await insertConnection(tess.user.id, 'patreon', 40);
  const linkedin = await insertConnection(tess.user.id, 'linkedin', 70);
  for (let index = 0; index < 7; index += 1) {
    // YouTube: 100, 110, … views a day, 10 engagements, 30 minutes watched; subscribers 1000 … 1006.
    await daily(youtube, addDays('2026-10-27', index), { subscribers: 1000 + index, views: 100 + 10 * index, engagements: 10, watch_time_minutes: 30 });
    // The previous period: 50 views a day.
    await daily(youtube, addDays('2026-10-20', index), { views: 50, engagements: 5 });
  }
  // TikTok's follower history begins on 10-30, mid-range; no row on 11-01 (carried), views on two days only.
  await daily(tiktok, '2026-10-30', { followers: 500, views: 1000, likes: 30, comments: 10 });
  await daily(tiktok, '2026-10-31', { followers: 510 });
  await daily(tiktok, '2026-11-02', { followers: 530, views: 400 });
  // Patreon reports patrons, never views.
  await daily(patreon, '2026-10-27', { patrons: 40 });
  await daily(patreon, '2026-11-02', { patrons: 42 });
  // LinkedIn reports impressions, not views: no views line, but its engagement rate over its impressions.
  await daily(linkedin, '2026-11-01', { impressions: 2000, reactions: 30, comments: 10 });

  // Top content: a post of this week, and an older one of more engagement that only the 90 days hold.
  const recent = await content(youtube, 'v-recent', 'This week', '2026-11-02', { likes: 40, comments: 2 });
  await published(recent, '2026-10-29T18:00:00Z');
  const older = await content(youtube, 'v-older', 'Back in September', '2026-11-02', { likes: 900, comments: 90 });
  await published(older, '2026-09-15T17:00:00Z');
  const ancient = await content(tiktok, 't-ancient', 'Last year', '2026-11-02', { likes: 5000 });
  await published(ancient, '2025-02-10T12:00:00Z');
  // No publish time: never top content of a period.
  await content(tiktok, 't-undated', 'Undated', '2026-11-02', { likes: 7000 });
});
afterAll(async () => {
  await server?.close();
});

const get = async (path: string) => {
  const response = await server.request('GET', path, { token: tess.token });
  expect(response.status).toBe(200);
  return response.body as AnalyticsResponse;
};
const trendOf = (answer: AnalyticsResponse, metric: string): MetricTrend => {
  const trend = answer.trends.find((entry) => entry.metric === metric);
  expect(trend, metric).toBeDefined();
  return trend!;
};
const lineOf = (trend: MetricTrend, platform: string) => trend.platforms.find((line) => line.platform === platform)?.values;

describe('the follower lines', () => {
  it('draws each platform from its own first day, and the total only where every history has begun', async () => {
    const answer = await get('/api/analytics?days=7');
    expect(answer.followersByPlatform).toEqual([
      { platform: 'YouTube', values: [1000, 1001, 1002, 1003, 1004, 1005, 1006] },
      // From 10-30; 11-01 without a row carries 510 (no loss that did not happen).
      { platform: 'TikTok', values: [null, null, null, 500, 510, 510, 530] },
      // Patreon's two figures, the days between carried.
      { platform: 'Patreon', values: [40, 40, 40, 40, 40, 40, 42] },
    ]);
    // The total starts on 10-30, when TikTok's history begins.
    expect(answer.followersOverTime[0]).toEqual({ date: '2026-10-30', value: 1003 + 500 + 40 });
    expect(answer.followerHistoryStarts.map((start) => [start.platform, start.startDate])).toEqual([
      ['YouTube', '2026-10-27'],
      ['Patreon', '2026-10-27'],
      ['TikTok', '2026-10-30'],
    ]);
    const followers = trendOf(answer, 'followers');
    expect(followers.platforms).toEqual(answer.followersByPlatform);
    expect(followers.combined.slice(0, 3)).toEqual([null, null, null]);
    expect(followers.combined[3]).toBe(1543);
  });

  it('follows the platform filter', async () => {
    const answer = await get('/api/analytics?days=7&platformId=3');
    expect(answer.followersByPlatform).toEqual([{ platform: 'TikTok', values: [null, null, null, 500, 510, 510, 530] }]);
  });
});

describe('the trends', () => {
  it('charts views, watch time, engagements and the engagement rate per platform and combined, with the previous period', async () => {
    const answer = await get('/api/analytics?days=7');
    expect(answer.trends.map((trend) => trend.metric)).toEqual(['views', 'watch_time_minutes', 'followers', 'engagements', 'engagement_rate']);

    const views = trendOf(answer, 'views');
    // Only the platforms that report views have a line: no Patreon, no LinkedIn (impressions are not views).
    expect(views.platforms.map((line) => line.platform)).toEqual(['YouTube', 'TikTok']);
    expect(lineOf(views, 'YouTube')).toEqual([100, 110, 120, 130, 140, 150, 160]);
    // A day without a figure is null, not 0.
    expect(lineOf(views, 'TikTok')).toEqual([null, null, null, 1000, null, null, 400]);
    expect(views.combined).toEqual([100, 110, 120, 1130, 140, 150, 560]);
    // The previous period (10-20 … 10-26) holds YouTube only: a line of fewer accounts under YouTube and TikTok
    // would read as growth, so there is none (issue 24). YouTube alone has its previous line, below.
    expect(views.comparison).toEqual([]);

    const watch = trendOf(answer, 'watch_time_minutes');
    expect(watch.platforms.map((line) => line.platform)).toEqual(['YouTube']);
    expect(watch.combined).toEqual([30, 30, 30, 30, 30, 30, 30]);
    // No watch time in the previous period at all: no line.
    expect(watch.comparison).toEqual([]);

    const engagements = trendOf(answer, 'engagements');
    expect(lineOf(engagements, 'TikTok')).toEqual([null, null, null, 40, null, null, null]);
    expect(lineOf(engagements, 'LinkedIn')).toEqual([null, null, null, null, null, 40, null]);
    expect(engagements.combined).toEqual([10, 10, 10, 50, 10, 50, 10]);
    // The engagement bars are the same sums, on the days that have them.
    expect(answer.engagementOverTime.map((point) => point.value)).toEqual([10, 10, 10, 50, 10, 50, 10]);

    const rate = trendOf(answer, 'engagement_rate');
    // A percentage: YouTube 10 / 100 views = 10 %; LinkedIn 40 / 2,000 impressions = 2 %.
    expect(lineOf(rate, 'YouTube')).toEqual([10, 9.09, 8.33, 7.69, 7.14, 6.67, 6.25]);
    expect(lineOf(rate, 'LinkedIn')).toEqual([null, null, null, null, null, 2, null]);
    expect(rate.platforms.map((line) => line.platform)).toEqual(['YouTube', 'TikTok', 'LinkedIn']);
    // Combined on 10-30: (10 + 40) / (130 + 1,000); on 11-01: (10 + 40) / (150 + 2,000).
    expect(rate.combined[3]).toBe(4.42);
    expect(rate.combined[5]).toBe(2.33);
    expect(rate.comparison).toEqual([]);
  });

  it('draws the previous period’s line when both periods hold the same accounts', async () => {
    const youtube = await get('/api/analytics?days=7&platformId=1');
    // The previous period (10-20 … 10-26) from the same query: YouTube's 50 views and 5 engagements a day.
    expect(trendOf(youtube, 'views').comparison).toEqual([50, 50, 50, 50, 50, 50, 50]);
    expect(trendOf(youtube, 'engagement_rate').comparison).toEqual([10, 10, 10, 10, 10, 10, 10]);
  });

  it('has no comparison lines with compare=none', async () => {
    const answer = await get('/api/analytics?days=7&compare=none');
    expect(answer.trends.every((trend) => trend.comparison.length === 0)).toBe(true);
    expect(trendOf(answer, 'views').combined).toEqual([100, 110, 120, 1130, 140, 150, 560]);
  });

  it('charts what the Metric filter names', async () => {
    const views = await get('/api/analytics?days=7&metricType=views');
    expect(views.trends.map((trend) => trend.metric)).toEqual(['views']);
    expect(views.trends[0]!.combined).toEqual([100, 110, 120, 1130, 140, 150, 560]);
    expect(views.trends[0]!.comparison).toEqual([]);

    const likes = await get('/api/analytics?days=7&metricType=likes');
    expect(likes.trends).toEqual([{ metric: 'likes', combined: [null, null, null, 30, null, null, null], platforms: [{ platform: 'TikTok', values: [null, null, null, 30, null, null, null] }], comparison: [] }]);

    const subscribers = await get('/api/analytics?days=7&metricType=subscribers');
    expect(subscribers.trends.map((trend) => trend.metric)).toEqual(['followers']);
    expect(subscribers.followersByPlatform).toEqual([{ platform: 'YouTube', values: [1000, 1001, 1002, 1003, 1004, 1005, 1006] }]);
  });
});

describe('Top Content', () => {
  it('is what was published in the period, so it changes with the period', async () => {
    const week = await get('/api/analytics?days=7');
    expect(week.topContent.map((item) => [item.title, item.engagement, item.publishedAt])).toEqual([['This week', 42, '2026-10-29T18:00:00.000Z']]);
    const quarter = await get('/api/analytics?days=90');
    expect(quarter.topContent.map((item) => item.title)).toEqual(['Back in September', 'This week']);
    const twoYears = await get('/api/analytics?days=730');
    expect(twoYears.topContent.map((item) => item.title)).toEqual(['Last year', 'Back in September', 'This week']);
  });
});
