// The YouTube section end to end: a sandbox YouTube channel connected by OAuth and synced through the queue, then
// every /api/youtubeanalytics call over HTTP on what the sync stored, including the on-demand retention read.
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentItems, youtubeVideos } from '../../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let account: Account;
let connectionId: number;

const get = (path: string) => server.request('GET', path, { token: account.token });

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'youtube');
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
  connectionId = connected.body.id;
  const trigger = await server.request('POST', '/api/youtubeanalytics/sync?days=30', { token: account.token });
  expect(trigger.status).toBe(202);
  expect(trigger.body).toMatchObject({ connectionId, status: 'queued' });
  await server.sync.drain();
});
afterAll(async () => {
  await server?.close();
});

describe('a synced sandbox channel', () => {
  it('lists its videos, paged and sorted', async () => {
    const response = await get('/api/youtubeanalytics/videos?sort=views&pageSize=10');
    expect(response.status).toBe(200);
    expect(response.body.connected).toBe(true);
    expect(response.body.total).toBeGreaterThan(10);
    expect(response.body.lastSyncedAt).toBe(server.clock.now().toISOString());
    const views = response.body.videos.map((video: { views: number }) => video.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(views[0]).toBeGreaterThan(0);
  });

  it('summarises the period, with revenue exactly when YouTube granted it', async () => {
    const response = await get('/api/youtubeanalytics/performance-summary?days=30');
    expect(response.status).toBe(200);
    expect(response.body.totalViews).toBeGreaterThan(0);
    expect(response.body.totalWatchTime).toBeGreaterThan(0);
    if (response.body.revenueAccess === 'available') {
      expect(response.body.totalRevenue).toEqual(expect.any(Number));
      expect(response.body.revenue.trend.length).toBeGreaterThan(0);
      const shares = response.body.revenue.revenueBySource.reduce((sum: number, source: { percentage: number }) => sum + source.percentage, 0);
      if (response.body.revenue.revenueBySource.length > 0) expect(shares).toBeCloseTo(100, 0);
    } else {
      expect(response.body.totalRevenue).toBeNull();
    }
  });

  it('reads a retention curve on demand when a video without one is opened, and caches it', async () => {
    const [uncached] = await server.db
      .select({ contentItemId: youtubeVideos.contentItemId })
      .from(youtubeVideos)
      .where(and(eq(youtubeVideos.connectionId, connectionId), isNull(youtubeVideos.retentionFetchedAt)))
      .limit(1);
    expect(uncached).toBeDefined();
    const before = platformSandboxOf(server).countCalls('youtube', 'reports.query');
    const detail = await get(`/api/youtubeanalytics/videos/${uncached!.contentItemId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.retentionData.length).toBeGreaterThan(10);
    // Its counters were read by the sync that just ran.
    expect(detail.body.countersReadAt).toBe(server.clock.now().toISOString());
    expect(detail.body.retentionData[0]).toEqual({ timeRatio: expect.any(Number), watchRatio: expect.any(Number), relativePerformance: expect.any(Number) });
    expect(platformSandboxOf(server).countCalls('youtube', 'reports.query')).toBe(before + 1);
    // Fresh for a day: opening it again reads nothing from YouTube.
    expect((await get(`/api/youtubeanalytics/videos/${uncached!.contentItemId}`)).body.retentionData).toEqual(detail.body.retentionData);
    expect(platformSandboxOf(server).countCalls('youtube', 'reports.query')).toBe(before + 1);
  });

  it('answers demographics and traffic sources', async () => {
    const demographics = (await get('/api/youtubeanalytics/demographics?days=30')).body;
    expect(demographics.length).toBeGreaterThan(0);
    const shares = demographics.map((entry: { viewsPercentage: number }) => entry.viewsPercentage);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    const top = (await get('/api/youtubeanalytics/videos?sort=views&pageSize=1')).body.videos[0];
    const traffic = await get(`/api/youtubeanalytics/videos/${top.videoId}/traffic-sources`);
    expect(traffic.status).toBe(200);
    for (const source of traffic.body) expect(source.source).not.toBe('');
  });

  it('reads any video’s traffic sources on demand (not only the videos the sync reads), and keeps them for a day', async () => {
    const sandbox = platformSandboxOf(server);
    // A video the sync did not deep-dive (no traffic sources stored), with views YouTube has processed (Analytics
    // lags two to three days, so a video of the last days may have none yet).
    const [unread] = await server.db
      .select({ contentItemId: youtubeVideos.contentItemId, views: youtubeVideos.views })
      .from(youtubeVideos)
      .innerJoin(contentItems, eq(contentItems.id, youtubeVideos.contentItemId))
      .where(
        and(
          eq(youtubeVideos.connectionId, connectionId),
          gt(youtubeVideos.views, 0),
          lt(contentItems.publishedAt, new Date(server.clock.now().getTime() - 7 * 24 * 60 * 60 * 1000)),
          sql`not exists (select 1 from youtube_video_traffic t where t.content_item_id = ${youtubeVideos.contentItemId})`,
        ),
      )
      .limit(1);
    expect(unread).toBeDefined();
    const before = sandbox.countCalls('youtube', 'reports.query');
    const traffic = await get(`/api/youtubeanalytics/videos/${unread!.contentItemId}/traffic-sources`);
    expect(traffic.status).toBe(200);
    expect(traffic.body.length).toBeGreaterThan(0);
    expect(traffic.body[0]).toEqual({ id: expect.any(String), source: expect.any(String), sourceType: expect.any(String), views: expect.any(Number), watchTimeMinutes: expect.any(Number), percentage: expect.any(Number) });
    const shares = traffic.body.reduce((sum: number, source: { percentage: number }) => sum + source.percentage, 0);
    expect(shares).toBeCloseTo(100, 0);
    expect(sandbox.countCalls('youtube', 'reports.query')).toBe(before + 1);
    // Fresh for a day: asking again reads nothing from YouTube; a day later it is read again.
    expect((await get(`/api/youtubeanalytics/videos/${unread!.contentItemId}/traffic-sources`)).body).toEqual(traffic.body);
    expect(sandbox.countCalls('youtube', 'reports.query')).toBe(before + 1);
    server.clock.advance(24 * 60 * 60 * 1000);
    const logged = server.logLines.length;
    expect((await get(`/api/youtubeanalytics/videos/${unread!.contentItemId}/traffic-sources`)).status).toBe(200);
    // A read that failed still answers 200 with the stored sources: what the server logged then says why (this failed
    // once in a CI run on PGlite, and passed in every run since, alone and under load).
    const loggedSince = server.logLines.slice(logged).filter((line) => !line.includes('"msg":"request completed"') && !line.includes('"msg":"incoming request"'));
    expect(sandbox.countCalls('youtube', 'reports.query'), `read again a day later; logged meanwhile: ${loggedSince.join('').slice(0, 3000)}`).toBe(before + 2);
    // Another user's request for the same id: 404, and nothing read.
    const other = await signUpWithAccess(server);
    expect((await server.request('GET', `/api/youtubeanalytics/videos/${unread!.contentItemId}/traffic-sources`, { token: other.token })).status).toBe(404);
    expect(sandbox.countCalls('youtube', 'reports.query')).toBe(before + 2);
  });

  it('generates insights deterministically and scores viral potential', async () => {
    const first = await server.request('POST', '/api/youtubeanalytics/insights/generate', { token: account.token });
    expect(first.status).toBe(200);
    for (const insight of first.body) {
      expect(insight.confidenceScore).toBeGreaterThanOrEqual(0);
      expect(insight.confidenceScore).toBeLessThanOrEqual(1);
      expect(insight.recommendation).toMatch(/\d/);
    }
    const second = await server.request('POST', '/api/youtubeanalytics/insights/generate', { token: account.token });
    const texts = (body: { insightType: string; recommendation: string; confidenceScore: number }[]) => body.map(({ insightType, recommendation, confidenceScore }) => ({ insightType, recommendation, confidenceScore }));
    expect(texts(second.body)).toEqual(texts(first.body));

    const newest = (await get('/api/youtubeanalytics/videos?sort=publishedAt&pageSize=1')).body.videos[0];
    const viral = await get(`/api/youtubeanalytics/insights/${newest.videoId}/viral-potential`);
    expect(viral.status).toBe(200);
    expect(viral.body.score).toBeGreaterThanOrEqual(0);
    expect(viral.body.score).toBeLessThanOrEqual(100);
    expect(viral.body.recommendation).toContain(`${viral.body.score}/100`);
    // One sync reads the day-by-day history of the newest 50 videos: under 20 of them are 28 days old yet.
    expect(viral.body.topDecile).toMatchObject({ status: 'notEnough', chance: null });
    expect(viral.body.topDecile.n).toBeLessThan(20);
    expect(viral.body.topDecile.sentence).toMatch(/^Not enough videos with 28 days of history to compare with \(\d+ of 20 needed\)\.$/);
  });
});
