// A YouTube channel connected with only `youtube.readonly` ticked on Google's consent page (the user unticked
// yt-analytics.readonly and yt-analytics-monetary.readonly; the token answer's `scope` lists what was granted). The
// sync reads the Data API only: videos and their public counters are stored, nothing of the Analytics reports is
// made up (no zeros standing in for "unknown"), the revenue panel says why it is empty, and the sync succeeds.
// Its own server: each sandbox demo channel links to one user per server, and this file wants Theo's (monetised, so
// missing revenue here is the scope's doing, not the channel's).
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, contentItems, platformConnections, youtubeChannels, youtubeChannelTraffic, youtubeDemographics, youtubeVideos, youtubeVideoTraffic } from '../../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const THEO = 1;

let server: TestServer;
let account: Account;
let connectionId: number;
/** Index into the sandbox's call log where the sync began. */
let syncCallsFrom: number;
let syncStatus: Awaited<ReturnType<typeof syncNow>>['status'];

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'youtube', { account: THEO, scopes: [READONLY] });
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}: ${JSON.stringify(connected.body)}`);
  connectionId = connected.body.id as number;
  syncCallsFrom = platformSandboxOf(server).calls.length;
  ({ status: syncStatus } = await syncNow(server, account.token, connectionId));
});
afterAll(async () => {
  await server?.close();
});

async function storedVideos() {
  return server.db
    .select({ item: contentItems, video: youtubeVideos })
    .from(youtubeVideos)
    .innerJoin(contentItems, eq(contentItems.id, youtubeVideos.contentItemId))
    .where(eq(youtubeVideos.connectionId, connectionId))
    .orderBy(asc(contentItems.id));
}

/** What the Data API says about these videos now (with the app's API key: public data, no user grant). */
async function dataApiVideos(videoIds: string[]) {
  const sandbox = platformSandboxOf(server);
  const url = new URL(sandbox.url('https://www.googleapis.com/youtube/v3/videos'));
  url.searchParams.set('part', 'snippet,statistics');
  url.searchParams.set('id', videoIds.join(','));
  url.searchParams.set('key', sandbox.appKeys.youtubeApiKey);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { items: { id: string; snippet: { title: string }; statistics: { viewCount: string; likeCount: string; commentCount: string } }[] };
  return new Map(body.items.map((item) => [item.id, item]));
}

describe('a YouTube channel granted only youtube.readonly', () => {
  it('stores only the scope Google granted', async () => {
    const [connection] = await server.db.select({ scope: platformConnections.scope }).from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(connection!.scope!.split(/[ ,]+/)).toEqual([READONLY]);
  });

  it('syncs without failing', () => {
    expect(syncStatus).toMatchObject({ connectionId, status: 'idle', message: null, lastSyncedAt: server.clock.now().toISOString() });
  });

  it('stores every video with its title, views, likes and comments as the Data API reports them', async () => {
    const rows = await storedVideos();
    // Theo's channel (the medium persona) has about 200 videos by the test clock.
    expect(rows.length).toBeGreaterThan(100);
    const reported = await dataApiVideos(rows.slice(0, 50).map((row) => row.video.videoId));
    expect(reported.size).toBe(50);
    for (const { item, video } of rows.slice(0, 50)) {
      const truth = reported.get(video.videoId)!;
      expect({ title: item.title, views: video.views, likes: video.likes, comments: video.comments }).toEqual({
        title: truth.snippet.title,
        views: Number(truth.statistics.viewCount),
        likes: Number(truth.statistics.likeCount),
        comments: Number(truth.statistics.commentCount),
      });
    }
    for (const { item, video } of rows) {
      expect(item.title).not.toBe('');
      expect([video.views, video.likes, video.comments].every((value) => typeof value === 'number')).toBe(true);
    }
    expect(rows.some(({ video }) => (video.views ?? 0) > 0)).toBe(true);
  });

  it('invents no Analytics numbers: watch time, retention, reach and revenue are null, never 0', async () => {
    // Every per-video figure that only YouTube Analytics (or the Reporting API) reports.
    const analyticsOnly = [
      'shares',
      'watchTimeMinutes',
      'averageViewDurationSeconds',
      'averageViewPercentage',
      'subscribersGained',
      'estimatedRevenue',
      'estimatedAdRevenue',
      'cpm',
      'monetizedPlaybacks',
      'impressions',
      'clickThroughRate',
      'retention',
      'earlyViews',
    ] as const;
    for (const { video } of await storedVideos()) {
      expect(Object.fromEntries(analyticsOnly.map((field) => [field, video[field]]))).toEqual(Object.fromEntries(analyticsOnly.map((field) => [field, null])));
    }
    // Daily channel metrics: only the subscriber count the Data API gives; no views, watch time or revenue days.
    const metricTypes = await server.db.selectDistinct({ type: accountMetrics.metricType }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId));
    expect(metricTypes.map((row) => row.type)).toEqual(['subscribers']);
    expect(await server.db.select().from(youtubeChannelTraffic).where(eq(youtubeChannelTraffic.connectionId, connectionId))).toEqual([]);
    expect(await server.db.select().from(youtubeDemographics).where(eq(youtubeDemographics.connectionId, connectionId))).toEqual([]);
    const itemIds = (await storedVideos()).map((row) => row.item.id);
    expect(await server.db.select().from(youtubeVideoTraffic).where(inArray(youtubeVideoTraffic.contentItemId, itemIds))).toEqual([]);
    const [channel] = await server.db.select().from(youtubeChannels).where(eq(youtubeChannels.connectionId, connectionId));
    expect(channel).toMatchObject({ revenueAccess: 'missingScope', reachJobId: null, reachReportsCreatedThrough: null });
    // Nothing was asked of the Analytics or Reporting APIs (the sandbox would have answered 403).
    const analyticsCalls = platformSandboxOf(server)
      .calls.slice(syncCallsFrom)
      .filter((call) => call.platform === 'youtube' && (call.endpoint === 'reports.query' || call.endpoint.startsWith('reporting.')));
    expect(analyticsCalls).toEqual([]);
  });

  it('answers the performance summary with the Analytics figures and revenue null (unknown, not 0), and the reasons', async () => {
    const response = await server.request('GET', '/api/youtubeanalytics/performance-summary?days=30', { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      connected: true,
      totalVideos: (await storedVideos()).length,
      analyticsAccess: false,
      totalViews: null,
      totalWatchTime: null,
      averageEngagement: null,
      subscribersGained: null,
      totalRevenue: null,
      revenueAccess: 'missingScope',
      lastSyncedAt: server.clock.now().toISOString(),
    });
    expect(response.body.revenue).toMatchObject({
      totalRevenue: null,
      previousPeriodRevenue: null,
      rpm: null,
      cpm: null,
      monetizedViews: null,
      adRevenue: null,
      otherRevenue: null,
      monthlyProjection: null,
      trend: [],
      topEarningVideos: [],
      revenueBySource: [],
    });
  });
});
