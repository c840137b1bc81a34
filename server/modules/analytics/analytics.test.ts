// The analytics API over HTTP against hand-written metric rows: the derived series computed by hand, the filters
// and their validation, paging, and isolation between users.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PALETTE } from '#contract/platform-palette.ts';
import { accountMetrics, platformConnections } from '../../db/schema.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let alice: Account;
let bob: Account;
let youtubeId: number;

const { insertConnection, daily, content } = analyticsFactory(() => server, { contentDescription: (title) => `About ${title}` });

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  // The test clock: 2026-11-02, so `days=7` is 2026-10-27 … 2026-11-02.
  alice = await signUpWithAccess(server);
  bob = await signUpWithAccess(server);
  youtubeId = await insertConnection(alice.user.id, 'youtube', 1010);
  const tiktokId = await insertConnection(alice.user.id, 'tiktok', 510);
  await daily(youtubeId, '2026-10-01', { subscribers: 900, views: 1000 });
  await daily(youtubeId, '2026-10-31', { subscribers: 1000, views: 200, likes: 10, comments: 4, shares: 1, engagements: 15, revenue: 2.5 });
  await daily(youtubeId, '2026-11-01', { subscribers: 1010, views: 300, likes: 20, comments: 5, shares: 0, engagements: 25, revenue: 3.5 });
  await daily(tiktokId, '2026-11-01', { followers: 500, likes: 7, comments: 3 });
  await daily(tiktokId, '2026-11-02', { followers: 510 });
  await content(youtubeId, 'v-alpha', 'Alpha', '2026-11-01', { views: 100, likes: 30, comments: 5 }, '2026-10-30T17:00:00Z');
  await content(youtubeId, 'v-beta', 'Beta', '2026-11-01', { likes: 50, comments: 10, shares: 2 }, '2026-10-31T17:00:00Z');
  await content(tiktokId, 't-gamma', 'Gamma', '2026-11-02', { likes: 40 }, '2026-11-01T09:00:00Z');
  // Untitled content never counts as top content.
  await content(tiktokId, 't-blank', '  ', '2026-11-02', { likes: 1000 }, '2026-11-01T10:00:00Z');
  // Bob's numbers must never show up in Alice's answers.
  const bobsId = await insertConnection(bob.user.id, 'youtube', 999_999);
  await daily(bobsId, '2026-11-01', { subscribers: 999_999, views: 123_456 });
  await content(bobsId, 'b-1', 'Bob video', '2026-11-01', { likes: 99_999 }, '2026-10-31T12:00:00Z');
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, account: Account = alice) => server.request('GET', path, { token: account.token });

describe('GET /api/analytics', () => {
  it('derives the series by the spec rules, in SQL, from the user’s own rows', async () => {
    const response = await get('/api/analytics?days=7');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ startDate: '2026-10-27', endDate: '2026-11-02' });
    // The total starts when both histories have begun (TikTok's on 11-01: no jump on the day it joins), and YouTube
    // without a row on 11-02 counts with its last total (no drop that did not happen).
    expect(response.body.followersOverTime).toEqual([
      { date: '2026-11-01', value: 1510 },
      { date: '2026-11-02', value: 1520 },
    ]);
    // Where each history begins in the range, earliest first: the screen says TikTok's starts on 11-01.
    expect(response.body.followerHistoryStarts).toEqual([
      { platform: 'YouTube', account: null, startDate: '2026-10-31' },
      { platform: 'TikTok', account: null, startDate: '2026-11-01' },
    ]);
    // YouTube's own engagements (15, 25); TikTok's likes + comments (10).
    expect(response.body.engagementOverTime).toEqual([
      { date: '2026-10-31', value: 15 },
      { date: '2026-11-01', value: 35 },
    ]);
    expect(response.body.platformBreakdown).toEqual([
      { name: 'YouTube', followers: 1010, percentage: (1010 / 1520) * 100, color: PLATFORM_PALETTE.youtube },
      { name: 'TikTok', followers: 510, percentage: (510 / 1520) * 100, color: PLATFORM_PALETTE.tiktok },
    ]);
    expect(response.body.topContent.map((item: { title: string; engagement: number; platform: string }) => [item.title, item.engagement, item.platform])).toEqual([
      ['Beta', 62, 'YouTube'],
      ['Gamma', 40, 'TikTok'],
      ['Alpha', 35, 'YouTube'],
    ]);
    expect(response.body.topContent[0]).toMatchObject({ id: expect.any(String), description: 'About Beta', url: 'https://example.com/v-beta' });
    // 18 account rows and 8 content rows in the range, newest first.
    expect(response.body.paging).toEqual({ page: 1, pageSize: 100, total: 26, hasMore: false });
    expect(response.body.allMetrics).toHaveLength(26);
    expect(response.body.allMetrics[0]).toMatchObject({ date: '2026-11-02', platformName: 'TikTok' });
    expect(response.body.allMetrics.find((record: { contentTitle: string | null }) => record.contentTitle === 'Alpha')).toMatchObject({
      id: expect.stringMatching(/^c\d+$/),
      metricType: expect.any(String),
      platformName: 'YouTube',
      date: '2026-11-01',
    });
    expect(JSON.stringify(response.body)).not.toContain('999999');
    expect(JSON.stringify(response.body)).not.toContain('Bob video');
  });

  it('filters by platform (id, or none for null, "null" and empty) and metric type', async () => {
    const youtube = await get('/api/analytics?days=7&platformId=1');
    expect(youtube.body.followersOverTime).toEqual([
      { date: '2026-10-31', value: 1000 },
      { date: '2026-11-01', value: 1010 },
    ]);
    expect(new Set(youtube.body.allMetrics.map((record: { platformName: string }) => record.platformName))).toEqual(new Set(['YouTube']));
    for (const none of ['null', '', 'undefined']) {
      const all = await get(`/api/analytics?days=7&platformId=${none}`);
      expect(all.status).toBe(200);
      expect(all.body.paging.total).toBe(26);
    }
    const likes = await get('/api/analytics?days=7&metricType=likes');
    expect(new Set(likes.body.allMetrics.map((record: { metricType: string }) => record.metricType))).toEqual(new Set(['likes']));
    expect(likes.body.engagementOverTime).toEqual([
      { date: '2026-10-31', value: 10 },
      { date: '2026-11-01', value: 27 },
    ]);
    expect(likes.body.followersOverTime).toEqual([]);
    const range = await get('/api/analytics?startDate=2026-11-01&endDate=2026-11-01');
    expect(range.body.followersOverTime).toEqual([{ date: '2026-11-01', value: 1510 }]);
    const ninety = await get('/api/analytics?days=90');
    expect(ninety.body.followersOverTime[0]).toEqual({ date: '2026-11-01', value: 1510 });
    // One platform alone: its whole history.
    expect((await get('/api/analytics?days=90&platformId=1')).body.followersOverTime[0]).toEqual({ date: '2026-10-01', value: 900 });
    expect((await get('/api/analytics?days=90&platformId=1')).body.followerHistoryStarts).toEqual([{ platform: 'YouTube', account: null, startDate: '2026-10-01' }]);
    expect(likes.body.followerHistoryStarts).toEqual([]);
    const platform = await get('/api/analytics/platform/3?days=7');
    expect(platform.status).toBe(200);
    // TikTok keeps its own colour alone as beside YouTube: a platform's colour never depends on its rank.
    expect(platform.body.platformBreakdown).toEqual([{ name: 'TikTok', followers: 510, percentage: 100, color: PLATFORM_PALETTE.tiktok }]);
  });

  it('answers 400 for values that are not what the spec allows', async () => {
    for (const query of ['days=abc', 'days=0', 'days=1.5', 'days=9999', 'platformId=abc', 'platformId=9', 'startDate=yesterday', 'startDate=2026-11-02&endDate=2026-11-01', 'pageSize=5000', 'extra=1']) {
      const response = await get(`/api/analytics?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    expect((await get('/api/analytics/platform/0')).status).toBe(400);
    expect((await get('/api/analytics/platform/x')).status).toBe(400);
  });

  it('pages allMetrics', async () => {
    const first = await get('/api/analytics?days=7&pageSize=5');
    expect(first.body.allMetrics).toHaveLength(5);
    expect(first.body.paging).toEqual({ page: 1, pageSize: 5, total: 26, hasMore: true });
    const last = await get('/api/analytics?days=7&pageSize=5&page=6');
    expect(last.body.allMetrics).toHaveLength(1);
    expect(last.body.paging.hasMore).toBe(false);
    // Page by page, the records come in the order of one page holding them all (a page is read from the newest day
    // that still leaves enough records: no record may be skipped or repeated across that cut).
    const paged: string[] = [];
    for (let page = 1; page <= 6; page += 1) for (const record of (await get(`/api/analytics?days=7&pageSize=5&page=${page}`)).body.allMetrics) paged.push(record.id);
    const whole = (await get('/api/analytics?days=7&pageSize=100')).body.allMetrics.map((record: { id: string }) => record.id);
    expect(new Set(paged).size).toBe(26);
    expect(paged).toEqual(whole);
    const pastTheEnd = await get('/api/analytics?days=7&pageSize=5&page=7');
    expect(pastTheEnd.body.allMetrics).toEqual([]);
    expect(pastTheEnd.body.paging).toEqual({ page: 7, pageSize: 5, total: 26, hasMore: false });
  });
});

describe('GET /api/analytics/summary and /metrics', () => {
  it('sums the last 30 days: engagement rate = engagements / views × 100 where views are reported', async () => {
    const response = await get('/api/analytics/summary');
    const { freshness, comparison, ...figures } = response.body;
    expect(figures).toEqual({ totalFollowers: 1520, averageEngagementRate: 8, totalViews: 500, totalImpressions: 0, totalRevenue: 6, pledgesNotInUsd: [], connectedPlatforms: 2 });
    // The same figures as GET /api/analytics answers for the same 30 days.
    expect((await get('/api/analytics?days=30')).body.totals).toEqual(figures);
    expect(freshness).toEqual([
      { platform: 'YouTube', syncedAt: null, completeThrough: '2026-11-01' },
      { platform: 'TikTok', syncedAt: null, completeThrough: '2026-11-02' },
    ]);
    expect(comparison).toMatchObject({ compare: 'previous', startDate: '2026-09-04', endDate: '2026-10-03' });
  });

  it('counts views only in totalViews; LinkedIn impressions apart, and its engagements over its impressions', async () => {
    const dana = await signUpWithAccess(server);
    const youtube = await insertConnection(dana.user.id, 'youtube', 100);
    const linkedin = await insertConnection(dana.user.id, 'linkedin', 50);
    await daily(youtube, '2026-11-01', { views: 1000, likes: 40, comments: 10 });
    await daily(linkedin, '2026-11-01', { impressions: 4000, likes: 70, comments: 20, shares: 10 });
    const summary = (await get('/api/analytics/summary', dana)).body;
    // (50 + 100) engagements over (1,000 views + 4,000 impressions).
    expect(summary).toMatchObject({ totalViews: 1000, totalImpressions: 4000, averageEngagementRate: 3 });
  });

  it('lists the metric types present, for the filter', async () => {
    expect((await get('/api/analytics/metrics')).body).toEqual(['comments', 'engagements', 'followers', 'likes', 'revenue', 'shares', 'subscribers', 'views']);
  });

  it('another user sees only their own numbers', async () => {
    expect((await get('/api/analytics/summary', bob)).body).toMatchObject({ totalFollowers: 999_999, totalViews: 123_456, connectedPlatforms: 1 });
    const bobs = await get('/api/analytics?days=7', bob);
    expect(bobs.body.topContent.map((item: { title: string }) => item.title)).toEqual(['Bob video']);
    expect((await server.request('POST', `/api/sync/platform/${youtubeId}`, { token: bob.token })).status).toBe(404);
  });
});

describe('the analytics cache', () => {
  it('serves a repeated query from the cache and recomputes once a sync, connect or disconnect changes the connections', async () => {
    const carol = await signUpWithAccess(server);
    const first = await get('/api/analytics/summary', carol);
    expect(first.body).toMatchObject({ totalFollowers: 0, connectedPlatforms: 0 });

    // A new connection changes the answer at once.
    const connectionId = await insertConnection(carol.user.id, 'youtube', 300);
    expect((await get('/api/analytics/summary', carol)).body).toMatchObject({ totalFollowers: 300, connectedPlatforms: 1 });

    // Metrics written as a sync writes them (with its update of the connection row, in the same transaction).
    await server.db.transaction(async (tx) => {
      await tx.insert(accountMetrics).values({ connectionId, date: '2026-11-01', metricType: 'views', value: 1234 });
      await tx.update(platformConnections).set({ followers: 310, lastSyncedAt: server.clock.now() }).where(eq(platformConnections.id, connectionId));
    });
    expect((await get('/api/analytics/summary', carol)).body).toMatchObject({ totalFollowers: 310, totalViews: 1234 });

    // Disconnecting removes the numbers.
    await server.db.delete(platformConnections).where(eq(platformConnections.id, connectionId));
    expect((await get('/api/analytics/summary', carol)).body).toMatchObject({ totalFollowers: 0, totalViews: 0, connectedPlatforms: 0 });
  });
});
