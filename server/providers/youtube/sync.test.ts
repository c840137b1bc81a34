// The YouTube adapter end to end: the real server and database, the sync engine, and the platform sandbox's Data
// API, Analytics reports.query and Reporting API over HTTP. Every report type the adapter reads is checked in what
// it stores; the call counts of a full first sync of the ~1,000-video channel are bounded by the batching.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRetentionData } from '#contract/youtube.ts';
import { accountMetrics, contentItems, platformConnections, syncStates, youtubeChannels, youtubeChannelTraffic, youtubeDemographics, youtubeVideoReach, youtubeVideos, youtubeVideoTraffic } from '../../db/schema.ts';
import { type Account, authUrl, connect, platformSandboxOf, postCallback, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { ensureRetention } from '../../modules/youtube/retention.ts';
import { MALFORMED_RESPONSE } from '../http-client.ts';
import { PlatformError } from '../platform-error.ts';
import { type ProviderContext } from '../provider.ts';
import { syncYouTube } from './sync.ts';
import { DEEP_DIVE_RECENT, DEEP_DIVE_TOP, DEMOGRAPHIC_PERIODS, EARLY_VIEW_DAYS, EARLY_VIEWS_PER_SYNC, TRAFFIC_WINDOW_DAYS } from './sync-types.ts';

const DAY = 86_400_000;
const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/** Connects a demo channel; `scopes` unticks the others on the consent page (Google's granular consent). */
async function connectChannel(accountIndex: number, scopes?: string[]): Promise<{ account: Account; connectionId: number }> {
  const account = await signUpWithAccess(server);
  let response;
  if (scopes) {
    const { redirectUrl } = await platformSandboxOf(server).authorize(await authUrl(server, account, 'youtube'), { account: accountIndex, scopes });
    const url = new URL(redirectUrl);
    response = await postCallback(server, account, 'youtube', { code: url.searchParams.get('code'), state: url.searchParams.get('state') });
  } else {
    response = await connect(server, account, 'youtube', { account: accountIndex });
  }
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

/** Each demo channel can be connected once per server: Ivy's (small, not monetised) connection is shared. */
let ivy: { account: Account; connectionId: number } | undefined;
async function ivyConnection() {
  ivy ??= await connectChannel(2);
  return ivy;
}

/** Calls the sandbox received per endpoint since `from` (an index into `calls`). */
function callsSince(from: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of platformSandboxOf(server).calls.slice(from)) if (call.platform === 'youtube') counts[call.endpoint] = (counts[call.endpoint] ?? 0) + 1;
  return counts;
}

async function youtubeRows(connectionId: number) {
  const videos = await server.db.select().from(youtubeVideos).where(eq(youtubeVideos.connectionId, connectionId)).orderBy(asc(youtubeVideos.contentItemId));
  const [channel] = await server.db.select().from(youtubeChannels).where(eq(youtubeChannels.connectionId, connectionId));
  const traffic = await server.db.select().from(youtubeChannelTraffic).where(eq(youtubeChannelTraffic.connectionId, connectionId)).orderBy(asc(youtubeChannelTraffic.date), asc(youtubeChannelTraffic.sourceType));
  const demographics = await server.db.select().from(youtubeDemographics).where(eq(youtubeDemographics.connectionId, connectionId)).orderBy(asc(youtubeDemographics.periodDays), asc(youtubeDemographics.demographicType), asc(youtubeDemographics.demographicValue));
  const videoTraffic = await server.db
    .select({ row: youtubeVideoTraffic })
    .from(youtubeVideoTraffic)
    .innerJoin(contentItems, eq(contentItems.id, youtubeVideoTraffic.contentItemId))
    .where(eq(contentItems.connectionId, connectionId))
    .orderBy(asc(youtubeVideoTraffic.contentItemId), asc(youtubeVideoTraffic.sourceType));
  const metricTypes = (await server.db.selectDistinct({ type: accountMetrics.metricType }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId))).map((row) => row.type).sort();
  return { videos, channel, traffic, demographics, videoTraffic: videoTraffic.map((entry) => entry.row), metricTypes };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Stored reach per day: impressions and clicks summed over the channel's videos. */
async function reachDays(connectionId: number): Promise<Map<string, { impressions: number; clicks: number }>> {
  const rows = await server.db
    .select({ date: youtubeVideoReach.date, impressions: sql<number>`sum(${youtubeVideoReach.impressions})::float8`, clicks: sql<number>`sum(${youtubeVideoReach.clicks})::float8` })
    .from(youtubeVideoReach)
    .where(eq(youtubeVideoReach.connectionId, connectionId))
    .groupBy(youtubeVideoReach.date)
    .orderBy(asc(youtubeVideoReach.date));
  return new Map(rows.map((row) => [row.date, { impressions: Number(row.impressions), clicks: Number(row.clicks) }]));
}

/** The videos' reach totals are the sums of the stored days (impressions, and clicks through the rate). */
function expectTotalsFromDays(videos: { impressions: number | null; clickThroughRate: number | null }[], days: Map<string, { impressions: number; clicks: number }>) {
  const impressions = sum([...days.values()].map((day) => day.impressions));
  const clicks = sum([...days.values()].map((day) => day.clicks));
  expect(sum(videos.map((video) => video.impressions ?? 0))).toBe(impressions);
  expect(sum(videos.map((video) => ((video.impressions ?? 0) * (video.clickThroughRate ?? 0)) / 100))).toBeCloseTo(clicks, 0);
}
const REVENUE_TYPES = ['ad_revenue', 'cpm', 'monetized_playbacks', 'playback_based_cpm', 'premium_revenue', 'revenue'];

describe('a malformed body', () => {
  it('a malformed body fails the YouTube sync with a clear message and stores nothing', async () => {
    const sandbox = platformSandboxOf(server);
    // Before any successful sync of this connection, so there is nothing stored it could have left behind.
    const { account, connectionId } = await ivyConnection();
    sandbox.failNext('youtube', 'metrics', 'malformed_json');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: expect.stringContaining('could not read') });
    const rows = await youtubeRows(connectionId);
    expect(rows).toMatchObject({ videos: [], channel: undefined, traffic: [], demographics: [], videoTraffic: [], metricTypes: [] });
  });

});

describe('YouTube sync of the ~1,000-video channel', () => {
  it('stores every report type, re-syncs to the same rows, reads each reach report once, and stays within its call budget', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectChannel(0);
    const before = sandbox.calls.length;
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', message: null });
    const first = await youtubeRows(connectionId);
    const videoCount = first.videos.length;
    const [items] = await server.db.select({ value: count() }).from(contentItems).where(eq(contentItems.connectionId, connectionId));
    expect(videoCount).toBe(items!.value);
    expect(videoCount).toBeGreaterThan(1000);

    // The call budget of a first sync, from the batching: Data API 1 + 2 × ceil(videos / 50) units; Analytics a
    // fixed set plus ceil(videos / 200) per per-video listing and the capped one-video reports; Reporting API the
    // job, its report list and one download per day of the 30-day backfill.
    const calls = callsSince(before);
    const batches = Math.ceil(videoCount / 50);
    expect(calls['videos.list']).toBe(batches);
    expect(calls['playlistItems.list']).toBe(batches);
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    expect(state!.cursor).toMatchObject({ lastUsage: { quotaUnits: 1 + 2 * batches } });
    const videoPages = Math.ceil(videoCount / 200) + 1;
    const trafficWindows = Math.ceil(731 / TRAFFIC_WINDOW_DAYS);
    const analyticsBound = 2 + 2 * videoPages + trafficWindows + 2 * DEMOGRAPHIC_PERIODS.length + 2 * (DEEP_DIVE_RECENT + DEEP_DIVE_TOP) + EARLY_VIEWS_PER_SYNC;
    expect(calls['reports.query']).toBeLessThanOrEqual(analyticsBound);
    expect(calls['reporting.jobs.list']).toBe(1);
    expect(calls['reporting.jobs.create']).toBe(1);
    expect(calls['reporting.reports.list']).toBe(1);
    expect(calls['reporting.media.download']).toBe(30);
    console.info(`YouTube first sync of ${videoCount} videos: Data API ${1 + 2 * batches} calls = ${1 + 2 * batches} quota units; Analytics reports.query ${calls['reports.query']} calls (bound ${analyticsBound}); Reporting API ${(calls['reporting.jobs.list'] ?? 0) + (calls['reporting.jobs.create'] ?? 0) + (calls['reporting.reports.list'] ?? 0) + (calls['reporting.media.download'] ?? 0)} calls`);

    // Channel: revenue readable, the reach job remembered with the newest report creation read (the backfill is
    // created with the job, now) and the first day of stored reach (the 30-day backfill): impressions count from there.
    const today = new Date(Math.floor(server.clock.now().getTime() / DAY) * DAY);
    expect(first.channel).toMatchObject({
      revenueAccess: 'available',
      reachJobId: expect.any(String),
      reachReportsCreatedThrough: server.clock.now(),
      reachReportsSince: new Date(today.getTime() - 30 * DAY),
    });

    // Daily channel metrics with revenue (recipe (a), (b)).
    expect(first.metricTypes).toEqual(expect.arrayContaining(['views', 'watch_time_minutes', 'subscribers_gained', ...REVENUE_TYPES]));

    // Per video: Data API duration and thumbnail, Analytics totals and revenue, reach.
    for (const video of first.videos) {
      expect(video.durationSeconds).toBeGreaterThanOrEqual(240);
      expect(video.thumbnailUrl).toMatch(/^https:\/\/i\.ytimg\.com\/vi\/.+\/mqdefault\.jpg$/);
      // Revenue is known exactly for the videos in YouTube's reports (0 when a reported video earned nothing); a video
      // the reports have not reached yet has none, not $0.00.
      expect({ videoId: video.videoId, revenueKnown: video.estimatedRevenue !== null }).toEqual({ videoId: video.videoId, revenueKnown: video.watchTimeMinutes !== null });
    }
    const withTotals = first.videos.filter((video) => video.watchTimeMinutes !== null);
    expect(withTotals.length).toBeGreaterThan(videoCount * 0.95);
    for (const video of withTotals) {
      expect(video.averageViewPercentage).toBeGreaterThanOrEqual(30);
      expect(video.averageViewPercentage).toBeLessThanOrEqual(55);
      // The analytics totals lag the Data API counters by the processing delay, never the other way round.
      expect(video.averageViewDurationSeconds! * (video.views ?? 0)).toBeGreaterThanOrEqual(0);
    }
    expect(sum(first.videos.map((video) => video.estimatedRevenue ?? 0))).toBeGreaterThan(0);
    const reached = first.videos.filter((video) => video.impressions !== null);
    expect(reached.length).toBeGreaterThan(videoCount / 2);
    for (const video of reached) {
      expect(video.clickThroughRate).toBeGreaterThan(0.5);
      expect(video.clickThroughRate).toBeLessThan(30);
    }

    // Channel traffic sources per day (recipe (d)): each day's sources add up to that day's views.
    expect(first.traffic.length).toBeGreaterThan(700 * 5);
    const someDay = first.traffic[first.traffic.length - 1]!.date;
    const [dayViews] = await server.db.select({ value: accountMetrics.value }).from(accountMetrics).where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, 'views'), eq(accountMetrics.date, someDay)));
    expect(sum(first.traffic.filter((row) => row.date === someDay).map((row) => row.views))).toBe(dayViews!.value);

    // Demographics per period (recipe (e)): age × gender and countries, each summing to ~100 %.
    for (const periodDays of DEMOGRAPHIC_PERIODS) {
      const rows = first.demographics.filter((row) => row.periodDays === periodDays);
      const ageGender = rows.filter((row) => row.demographicType === 'ageGender');
      expect(ageGender).toHaveLength(21);
      expect(ageGender.map((row) => row.demographicValue)).toContain('female age25-34');
      expect(Math.abs(sum(ageGender.map((row) => row.viewerPercentage)) - 100)).toBeLessThan(0.5);
      const countries = rows.filter((row) => row.demographicType === 'country');
      expect(countries.map((row) => row.demographicValue)).toContain('US');
      expect(Math.abs(sum(countries.map((row) => row.viewerPercentage)) - 100)).toBeLessThan(0.5);
    }

    // Retention (recipe (f)) and traffic for the newest and the most viewed videos.
    const withRetention = first.videos.filter((video) => video.retention !== null);
    expect(withRetention.length).toBeGreaterThanOrEqual(Math.max(DEEP_DIVE_RECENT, DEEP_DIVE_TOP));
    expect(withRetention.length).toBeLessThanOrEqual(DEEP_DIVE_RECENT + DEEP_DIVE_TOP);
    for (const video of withRetention) {
      const curve = normalizeRetentionData(video.retention);
      if (curve.length === 0) continue; // a video too new to have processed views has no curve yet
      expect(curve).toHaveLength(100);
      expect(curve[0]!.timeRatio).toBe(0.01);
      expect(curve[99]!.timeRatio).toBe(1);
      expect(curve[0]!.watchRatio).toBeGreaterThan(0.95);
      expect(curve[99]!.watchRatio).toBeLessThan(curve[0]!.watchRatio);
      // The curve's mean is the average share watched.
      expect(Math.abs(sum(curve.map((point) => point.watchRatio)) - video.averageViewPercentage!)).toBeLessThan(1.5);
      for (const point of curve) expect(point.relativePerformance).toBeGreaterThan(0);
    }
    const trafficVideos = new Set(first.videoTraffic.map((row) => row.contentItemId));
    expect(trafficVideos.size).toBeGreaterThanOrEqual(DEEP_DIVE_TOP);
    for (const contentItemId of trafficVideos) {
      const video = first.videos.find((candidate) => candidate.contentItemId === contentItemId)!;
      expect(sum(first.videoTraffic.filter((row) => row.contentItemId === contentItemId).map((row) => row.views))).toBeLessThanOrEqual(video.views!);
    }

    // Early-views curves: the newest videos first, at most EARLY_VIEWS_PER_SYNC per sync; complete ones span the window.
    const curves = first.videos.filter((video) => video.earlyViews !== null);
    expect(curves.length).toBe(EARLY_VIEWS_PER_SYNC);
    const complete = curves.filter((video) => video.earlyViewsComplete);
    expect(complete.length).toBeGreaterThan(0);
    for (const video of complete) {
      expect(video.earlyViews).toHaveLength(EARLY_VIEW_DAYS);
      expect(sum(video.earlyViews!)).toBeLessThanOrEqual(video.views!);
    }
    for (const video of curves.filter((candidate) => !candidate.earlyViewsComplete)) expect(video.earlyViews!.length).toBeLessThan(EARLY_VIEW_DAYS);

    // The same day again: the same rows; no reach report is read twice; fresh retention is not read again.
    const again = sandbox.calls.length;
    await syncNow(server, account.token, connectionId);
    const second = await youtubeRows(connectionId);
    // Early-view curves are the one progressive read: each sync fills up to EARLY_VIEWS_PER_SYNC more of them.
    const stableVideos = (rows: typeof first.videos) => rows.map(({ statsUpdatedAt: _updated, earlyViews: _early, earlyViewsComplete: _complete, ...rest }) => rest);
    expect(stableVideos(second.videos)).toEqual(stableVideos(first.videos));
    for (const video of complete) expect(second.videos.find((candidate) => candidate.contentItemId === video.contentItemId)!.earlyViews).toEqual(video.earlyViews);
    expect(second.videos.filter((video) => video.earlyViewsComplete).length).toBeGreaterThan(complete.length);
    expect(second.traffic).toEqual(first.traffic);
    expect(second.demographics.map(({ asOf: _asOf, ...rest }) => rest)).toEqual(first.demographics.map(({ asOf: _asOf, ...rest }) => rest));
    expect(second.videoTraffic).toEqual(first.videoTraffic);
    expect(second.channel).toEqual(first.channel);
    const resync = callsSince(again);
    expect(resync['reporting.media.download'] ?? 0).toBe(0);
    expect(resync['reporting.jobs.create'] ?? 0).toBe(0);
    expect(resync['reports.query']).toBeLessThanOrEqual(2 + 2 * videoPages + 1 + 2 * DEMOGRAPHIC_PERIODS.length + EARLY_VIEWS_PER_SYNC);
    expect(resync['reports.query']).toBeLessThan(calls['reports.query']!);

    // The next day: exactly one new reach report (yesterday's), added to the sums.
    server.clock.advance(DAY);
    const nextDay = sandbox.calls.length;
    await syncNow(server, account.token, connectionId);
    expect(callsSince(nextDay)['reporting.media.download']).toBe(1);
    const third = await youtubeRows(connectionId);
    expect(third.channel!.reachReportsCreatedThrough).toEqual(new Date(today.getTime() + DAY));
    expect(third.channel!.reachReportsSince).toEqual(first.channel!.reachReportsSince);
    expect(sum(third.videos.map((video) => video.impressions ?? 0))).toBeGreaterThan(sum(first.videos.map((video) => video.impressions ?? 0)));
    expectTotalsFromDays(third.videos, await reachDays(connectionId));

    // Three days on, YouTube has restated some of the days already read (a second report for the day, created
    // later): each restated day's stored reach is replaced by the restatement (7 % fewer impressions), never added
    // to it; the days not restated are unchanged, and the video totals are the sums of the stored days.
    const daysBefore = await reachDays(connectionId);
    server.clock.advance(3 * DAY);
    const restated = sandbox.calls.length;
    await syncNow(server, account.token, connectionId);
    const downloads = callsSince(restated)['reporting.media.download']!;
    const newDays = 3;
    expect(downloads).toBeGreaterThan(newDays);
    const daysAfter = await reachDays(connectionId);
    const changed = [...daysBefore].filter(([date, total]) => daysAfter.get(date)!.impressions !== total.impressions);
    expect(changed.length).toBe(downloads - newDays);
    for (const [date, total] of changed) {
      expect(daysAfter.get(date)!.impressions).toBeLessThan(total.impressions * 0.94);
      expect(daysAfter.get(date)!.impressions).toBeGreaterThan(total.impressions * 0.9);
    }
    expect(daysAfter.size).toBe(daysBefore.size + newDays);
    const fourth = await youtubeRows(connectionId);
    expectTotalsFromDays(fourth.videos, daysAfter);
    expect(fourth.channel!.reachReportsSince).toEqual(first.channel!.reachReportsSince);

    // Without a read mark (a channel stored before restatements were handled), every listed report is seen at once,
    // restatements beside the reports they replace: each day is read once, from its newest report, and the stored
    // days come out exactly as before.
    await server.db.update(youtubeChannels).set({ reachReportsCreatedThrough: null }).where(eq(youtubeChannels.connectionId, connectionId));
    const reread = sandbox.calls.length;
    await syncNow(server, account.token, connectionId);
    expect(callsSince(reread)['reporting.media.download']).toBe(daysAfter.size);
    expect(await reachDays(connectionId)).toEqual(daysAfter);
    expectTotalsFromDays((await youtubeRows(connectionId)).videos, daysAfter);
  }, 240_000);
});

describe('revenue access', () => {
  it('without the monetary scope: revenue is absent (null), never zero, and revenueAccess says missingScope', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectChannel(1, [READONLY, ANALYTICS]);
    const [connection] = await server.db.select({ scope: platformConnections.scope }).from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(connection!.scope).not.toContain('monetary');
    const before = sandbox.calls.length;
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle' });
    const rows = await youtubeRows(connectionId);
    expect(rows.channel!.revenueAccess).toBe('missingScope');
    expect(rows.metricTypes.filter((type) => REVENUE_TYPES.includes(type))).toEqual([]);
    for (const video of rows.videos) expect([video.estimatedRevenue, video.estimatedAdRevenue, video.cpm, video.monetizedPlaybacks]).toEqual([null, null, null, null]);
    // The other reports are read as usual, and no revenue call was made (the sandbox would have answered 403).
    expect(rows.videos.some((video) => video.watchTimeMinutes !== null)).toBe(true);
    expect(rows.demographics.length).toBeGreaterThan(0);
    expect(callsSince(before)['reports.query']).toBeGreaterThan(0);
  });

  it('a channel outside the Partner Program (403): revenue is absent and revenueAccess says notMonetized', async () => {
    const { account, connectionId } = await ivyConnection();
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle' });
    const rows = await youtubeRows(connectionId);
    expect(rows.channel!.revenueAccess).toBe('notMonetized');
    expect(rows.metricTypes.filter((type) => REVENUE_TYPES.includes(type))).toEqual([]);
    expect(rows.videos.every((video) => video.estimatedRevenue === null)).toBe(true);
    expect(rows.videos.filter((video) => video.retention !== null).length).toBeGreaterThan(0);
  });
});

describe('retention on demand', () => {
  it('reads a missing curve once, answers the cached one for a day, refreshes an expired token on the way', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await ivyConnection();
    await syncNow(server, account.token, connectionId);
    const [video] = await server.db
      .select({ contentItemId: youtubeVideos.contentItemId, videoId: youtubeVideos.videoId, retention: youtubeVideos.retention, retentionFetchedAt: youtubeVideos.retentionFetchedAt, publishedAt: contentItems.publishedAt })
      .from(youtubeVideos)
      .innerJoin(contentItems, eq(contentItems.id, youtubeVideos.contentItemId))
      .where(and(eq(youtubeVideos.connectionId, connectionId), sql`${youtubeVideos.retention} is null`, isNotNull(youtubeVideos.watchTimeMinutes)))
      .limit(1);
    expect(video).toBeDefined();
    const [connection] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    const deps = { db: server.db, custody: server.tokenCustody, clock: server.clock };

    // The stored access token has expired at YouTube: the read is retried once with a refreshed one.
    const refreshes = sandbox.countCalls('youtube', 'token');
    const queries = sandbox.countCalls('youtube', 'reports.query');
    sandbox.failNext('youtube', 'metrics', 'token_expired');
    const curve = await ensureRetention(deps, connection!, video!);
    expect(curve).toHaveLength(100);
    expect(sandbox.countCalls('youtube', 'token')).toBe(refreshes + 1);
    const [stored] = await server.db.select().from(youtubeVideos).where(eq(youtubeVideos.contentItemId, video!.contentItemId));
    expect(normalizeRetentionData(stored!.retention)).toEqual(curve);
    expect(stored!.retentionFetchedAt).toEqual(server.clock.now());

    // Fresh: answered from the store without a call.
    const cachedQueries = sandbox.countCalls('youtube', 'reports.query');
    expect(cachedQueries).toBe(queries + 2);
    expect(await ensureRetention(deps, connection!, { ...video!, retention: stored!.retention, retentionFetchedAt: stored!.retentionFetchedAt })).toEqual(curve);
    expect(sandbox.countCalls('youtube', 'reports.query')).toBe(cachedQueries);

    // A day later: read again.
    server.clock.advance(DAY + 60_000);
    await ensureRetention(deps, connection!, { ...video!, retention: stored!.retention, retentionFetchedAt: stored!.retentionFetchedAt });
    expect(sandbox.countCalls('youtube', 'reports.query')).toBe(cachedQueries + 1);
  });
});

describe('malformed report bodies', () => {
  /** The sandbox behind a proxy that rewrites the answers `corrupt` picks (a report table, a reach CSV). */
  async function withCorruptingProxy(corrupt: (path: string, query: URLSearchParams, body: string) => string | null, run: (context: ProviderContext, token: string, scope: string) => Promise<unknown>) {
    const sandbox = platformSandboxOf(server);
    const proxy: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${sandbox.baseUrl}${request.url}`, { method: request.method, headers: request.headers as Record<string, string>, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const text = await upstream.text();
      const url = new URL(request.url!, 'http://proxy');
      const replaced = upstream.status === 200 ? corrupt(url.pathname, url.searchParams, text) : null;
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(replaced ?? text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const { connectionId } = await ivyConnection();
      const [connection] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
      await server.tokenCustody.withPlatformAccess(connection!, async ({ context, accessToken }) => {
        const proxied: ProviderContext = { ...context, url: (real) => context.url(real).replace(sandbox.baseUrl, base) };
        await run(proxied, accessToken, connection!.scope ?? '');
      });
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }

  const syncInput = (accessToken: string, scope: string) => ({
    accessToken,
    platformUserId: '',
    scope,
    since: '2026-10-01',
    today: new Date(server.clock.now()).toISOString().slice(0, 10),
    firstSync: true,
    contentSince: server.clock.now(),
    knownContentIds: new Set<string>(),
  });

  it('a report table whose rows do not match its headers is refused, not stored half-read', async () => {
    await withCorruptingProxy(
      (path, query, body) => {
        if (!path.endsWith('/v2/reports') || query.get('dimensions') !== 'ageGroup,gender') return null;
        const table = JSON.parse(body);
        table.rows = table.rows.map((row: unknown[]) => row.slice(0, 2));
        return JSON.stringify(table);
      },
      async (context, token, scope) => {
        const failure = await syncYouTube(context, syncInput(token, scope)).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(PlatformError);
        expect((failure as PlatformError).details.errorCode).toBe(MALFORMED_RESPONSE);
      },
    );
  });

  it('a reach CSV with a non-numeric impressions cell is refused', async () => {
    await withCorruptingProxy(
      (path, _query, body) => (path.includes('/v1/media/') ? body.replace(/,(\d+),(0\.\d+)\n/, ',lots,$2\n') : null),
      async (context, token, scope) => {
        const failure = await syncYouTube(context, syncInput(token, scope)).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(PlatformError);
        expect((failure as PlatformError).details.errorCode).toBe(MALFORMED_RESPONSE);
      },
    );
  });
});
