// Period comparison and freshness (issue 15) over HTTP against hand-written rows: the comparison periods, like with
// like (the same connections and days on both sides, YouTube's lag cut from both), an empty comparison period (null)
// against a zero one, the comparison answered by the summary, GET /api/analytics and /platform/{id}, the cache key,
// and each platform's freshness. docs/decisions/013-period-comparison.md.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { platformConnections } from '../../db/schema.ts';
import { addDays } from '../../lib/dates.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let maya: Account;
let sandy: Account;
let ivy: Account;

const { insertConnection, daily } = analyticsFactory(() => server);

/** Daily rows with the same values on every day from `from` to `to`. */
async function everyDay(connectionId: number, from: string, to: string, values: Record<string, number>) {
  for (let day = from; day <= to; day = addDays(day, 1)) await daily(connectionId, day, values);
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  // The test clock: 2026-11-02. The summary's 30 days: 2026-10-04 … 2026-11-02; the previous 30: 2026-09-04 … 10-03.
  maya = await signUpWithAccess(server);
  const youtube = await insertConnection(maya.user.id, 'youtube', 1200);
  await server.db
    .update(platformConnections)
    .set({ connectedAt: new Date('2026-06-01T00:00:00Z'), lastSyncedAt: new Date('2026-11-02T08:00:00Z') })
    .where(eq(platformConnections.id, youtube));
  // YouTube's daily report ends on 10-31 (its 2–3 day lag); the subscriber total is written for today.
  await everyDay(youtube, '2026-09-04', '2026-10-03', { views: 50, engagements: 7, revenue: 0.5 });
  await everyDay(youtube, '2026-10-04', '2026-10-31', { views: 100, engagements: 10, revenue: 1 });
  await daily(youtube, '2026-10-01', { subscribers: 990 });
  await daily(youtube, '2026-10-02', { subscribers: 995 });
  await daily(youtube, '2026-10-03', { subscribers: 1000 });
  await daily(youtube, '2026-10-31', { subscribers: 1100 });
  await daily(youtube, '2026-11-02', { subscribers: 1200 });
  // TikTok joined on 10-25: nothing to compare it with.
  const tiktok = await insertConnection(maya.user.id, 'tiktok', 520);
  await server.db.update(platformConnections).set({ displayName: '@maya', lastSyncedAt: new Date('2026-11-02T09:30:00Z') }).where(eq(platformConnections.id, tiktok));
  await everyDay(tiktok, '2026-10-25', '2026-11-02', { views: 40 });
  await daily(tiktok, '2026-10-25', { followers: 500 });
  await daily(tiktok, '2026-11-02', { followers: 520 });
  // A Patreon campaign in US dollars: each day counts its monthly level (as last read) over the days of its month.
  const patreon = await insertConnection(maya.user.id, 'patreon', 40);
  await server.db.update(platformConnections).set({ currency: 'USD' }).where(eq(platformConnections.id, patreon));
  await daily(patreon, '2026-10-03', { monthly_pledges: 240 });
  await daily(patreon, '2026-11-02', { monthly_pledges: 300 });

  // Sandy earned nothing in the previous 30 days, and said so (rows of 0): a zero period, not an empty one.
  sandy = await signUpWithAccess(server);
  const sandys = await insertConnection(sandy.user.id, 'youtube', 10);
  await everyDay(sandys, '2026-09-04', '2026-10-03', { views: 0, revenue: 0 });
  await everyDay(sandys, '2026-10-04', '2026-11-02', { views: 20, revenue: 5 });

  // Ivy's Instagram: views for both periods, likes from 09-20 only, and a follower history that begins on 10-20
  // (Instagram's follows and unfollows reach 30 days back). Coverage is each figure's own.
  ivy = await signUpWithAccess(server);
  const instagram = await insertConnection(ivy.user.id, 'instagram', 330);
  await server.db.update(platformConnections).set({ displayName: 'Ivy Chen' }).where(eq(platformConnections.id, instagram));
  await everyDay(instagram, '2026-09-04', '2026-11-02', { views: 10 });
  await everyDay(instagram, '2026-09-20', '2026-11-02', { likes: 1 });
  await everyDay(instagram, '2026-10-20', '2026-11-01', { followers: 300 });
  await daily(instagram, '2026-11-02', { followers: 330 });
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, account: Account = maya) => server.request('GET', path, { token: account.token });

describe('the summary’s comparison and freshness', () => {
  it('compares like with like: the same connections and days on both sides', async () => {
    const response = await get('/api/analytics/summary');
    expect(response.status).toBe(200);
    const { freshness, comparison, ...cards } = response.body;
    // The cards: YouTube's latest 1,200 + TikTok's 520 + Patreon's profile 40; 2,800 + 360 views; 280 / 2,800
    // engagements; $28 of YouTube revenue + pledges: 28 October days at $240/31, Nov 1 at $240/30, Nov 2 at $300/30.
    expect(cards).toEqual({
      totalFollowers: 1760,
      averageEngagementRate: 10,
      totalViews: 3160,
      totalImpressions: 0,
      totalRevenue: 262.77,
      pledgesNotInUsd: [],
      connectedPlatforms: 3,
    });
    expect(comparison).toEqual({
      compare: 'previous',
      startDate: '2026-09-04',
      endDate: '2026-10-03',
      // YouTube's report figures (views, engagement, revenue) end on 10-31, two days before the period does: both
      // periods lose their last two days (10-04 … 10-31 against 09-04 … 10-01). Its subscriber total is today's, so
      // followers compare the periods' last days (1,200 on 11-02 against 1,000 on 10-03). TikTok has nothing before 10-25 and counts on neither side. Patreon's
      // history begins on 10-03, the comparison period's last day: its pledges (day by day, as on the cards) are
      // compared over that one day and the current period's last, $240/31 against $300/30, not 1 day against 30 (a
      // history start is not growth, issue 24).
      currentTotals: { totalFollowers: 1200, averageEngagementRate: 10, totalViews: 2800, totalRevenue: 38, connectedPlatforms: 3 },
      totals: { totalFollowers: 1000, averageEngagementRate: 14, totalViews: 1400, totalRevenue: 21.74, connectedPlatforms: 1 },
      leftOut: [{ platform: 'TikTok', account: '@maya', figures: null }],
      shortened: [{ platform: 'Patreon', account: null, historyStart: '2026-10-03', days: 1, figures: null }],
    });
    expect(freshness).toEqual([
      { platform: 'YouTube', syncedAt: '2026-11-02T08:00:00.000Z', completeThrough: '2026-10-31' },
      { platform: 'TikTok', syncedAt: '2026-11-02T09:30:00.000Z', completeThrough: '2026-11-02' },
      { platform: 'Patreon', syncedAt: null, completeThrough: '2026-11-02' },
    ]);
  });

  it('answers null for a comparison period without data, and 0 for one whose figures are 0', async () => {
    const year = (await get('/api/analytics/summary?compare=year')).body.comparison;
    expect(year).toMatchObject({ compare: 'year', startDate: '2025-10-04', endDate: '2025-11-02' });
    expect(year.totals).toEqual({ totalFollowers: null, averageEngagementRate: null, totalViews: null, totalRevenue: null, connectedPlatforms: 0 });
    expect(year.currentTotals).toEqual({ totalFollowers: null, averageEngagementRate: null, totalViews: null, totalRevenue: null, connectedPlatforms: 3 });
    expect(year.leftOut.map((entry: { platform: string }) => entry.platform)).toEqual(['YouTube', 'TikTok', 'Patreon']);

    const zero = (await get('/api/analytics/summary', sandy)).body.comparison;
    expect(zero.totals).toMatchObject({ totalViews: 0, totalRevenue: 0, averageEngagementRate: null });
    expect(zero.currentTotals).toMatchObject({ totalViews: 600, totalRevenue: 150 });
    expect(zero.leftOut).toEqual([]);
  });

  it('covers each figure over its own history: views whole, engagement from its first day, followers left out', async () => {
    const { comparison } = (await get('/api/analytics/summary', ivy)).body;
    // Views: 30 days of 10 on both sides. Engagement: likes begin on 09-20, so both periods lose their first 16 days
    // (10-20 … 11-02 against 09-20 … 10-03), 14 likes over 140 views on each side. Followers: none in the previous
    // 30 days, so they are left out rather than compared with nothing.
    expect(comparison.currentTotals).toMatchObject({ totalViews: 300, averageEngagementRate: 10, totalFollowers: null });
    expect(comparison.totals).toMatchObject({ totalViews: 300, averageEngagementRate: 10, totalFollowers: null });
    expect(comparison.leftOut).toEqual([{ platform: 'Instagram', account: 'Ivy Chen', figures: ['followers'] }]);
    expect(comparison.shortened).toEqual([{ platform: 'Instagram', account: 'Ivy Chen', historyStart: '2026-09-20', days: 14, figures: ['engagement'] }]);
  });

  it('takes compare=none and a custom period, and refuses what makes no period', async () => {
    expect((await get('/api/analytics/summary?compare=none')).body.comparison).toBeNull();
    const custom = (await get('/api/analytics/summary?compareStartDate=2026-09-04&compareEndDate=2026-10-03')).body.comparison;
    const previous = (await get('/api/analytics/summary')).body.comparison;
    expect(custom).toEqual({ ...previous, compare: 'custom' });
    for (const [query, message] of [
      ['compare=later', 'compare must be one of previous, year, custom, none'],
      ['compare=custom', 'compare=custom needs both compareStartDate and compareEndDate'],
      ['compareStartDate=2026-09-01', 'compare=custom needs both compareStartDate and compareEndDate'],
      ['compare=previous&compareStartDate=2026-09-01&compareEndDate=2026-09-30', 'compareStartDate and compareEndDate go with compare=custom'],
      ['compareStartDate=2026-09-30&compareEndDate=2026-09-01', 'compareStartDate must not be after compareEndDate'],
      ['compareStartDate=last-week&compareEndDate=2026-09-01', 'expected an ISO date'],
      ['days=30', 'Unknown field in querystring: "days"'],
    ]) {
      const response = await get(`/api/analytics/summary?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body.message).toContain(message);
    }
  });
});

describe('GET /api/analytics comparison', () => {
  it('answers the cards’ totals for the range, and the comparison with its follower line when it counts the same accounts', async () => {
    const response = await get('/api/analytics?days=30');
    const summary = (await get('/api/analytics/summary')).body;
    const { freshness: _freshness, comparison: summaryComparison, ...cards } = summary;
    expect(response.body.totals).toEqual(cards);
    const { followersOverTime, ...comparison } = response.body.comparison;
    expect(comparison).toEqual(summaryComparison);
    // TikTok's followers begin inside the range and not before: the previous period's line would count other
    // accounts, so there is none.
    expect(followersOverTime).toEqual([]);
    expect((await get('/api/analytics?days=30&platformId=1')).body.comparison.followersOverTime).toEqual([
      { date: '2026-10-01', value: 990 },
      { date: '2026-10-02', value: 995 },
      { date: '2026-10-03', value: 1000 },
    ]);
  });

  it('narrows totals and comparison to the platform, counts pledges for the days, and leaves them out without one', async () => {
    const youtube = (await get('/api/analytics?days=30&platformId=1')).body;
    expect(youtube.totals).toMatchObject({ totalFollowers: 1200, totalViews: 2800, totalRevenue: 28, connectedPlatforms: 1 });
    expect(youtube.comparison).toMatchObject({
      currentTotals: { totalFollowers: 1200, totalViews: 2800, totalRevenue: 28, connectedPlatforms: 1 },
      totals: { totalFollowers: 1000, totalViews: 1400, totalRevenue: 14, connectedPlatforms: 1 },
      leftOut: [],
      shortened: [],
    });
    expect((await get('/api/analytics/platform/1?days=30')).body.comparison).toEqual(youtube.comparison);
    // 7 days: YouTube's 10-27 … 10-31 ($5) and Patreon's 5 October days at $240/31, Nov 1 at $240/30, Nov 2 at $300/30.
    expect((await get('/api/analytics?days=7')).body.totals.totalRevenue).toBe(61.71);
    expect((await get('/api/analytics?days=7&compare=none')).body.comparison).toBeNull();
  });

  it('keys the cache on the resolved comparison: the default and compare=previous share one answer', async () => {
    const count = async () => {
      const [row] = await queryRows<{ count: number }>(server.db, sql`select count(*)::int as count from analytics_cache where user_id = ${sandy.user.id} and cache_key like 'analytics:%'`);
      return row!.count;
    };
    const before = await count();
    const first = await get('/api/analytics?days=14', sandy);
    expect(await count()).toBe(before + 1);
    expect((await get('/api/analytics?days=14&compare=previous', sandy)).body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
    const none = await get('/api/analytics?days=14&compare=none', sandy);
    expect(none.body.comparison).toBeNull();
    expect(await count()).toBe(before + 2);
  });
});
