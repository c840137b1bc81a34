// The sync engine end to end over real HTTP: the real server and database, the queue (pg-boss on PGlite or
// PostgreSQL) run with `sync.drain()`, and each platform's adapter against the platform sandbox.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import { accountMetrics, contentItems, contentMetrics, platformConnections, syncStates } from '../../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const DAY = 86_400_000;
/** The sandbox endpoint names (countCalls) of each platform's content list. */
const CONTENT_ENDPOINT: Partial<Record<PlatformName, string>> = {
  youtube: 'videos.list',
  instagram: 'media',
  tiktok: 'video.list',
  twitter: 'users.tweets',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function rowCounts(connectionId: number) {
  const [account] = await server.db.select({ value: count() }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId));
  const [items] = await server.db.select({ value: count() }).from(contentItems).where(eq(contentItems.connectionId, connectionId));
  const [content] = await server.db.select({ value: count() }).from(contentMetrics).where(eq(contentMetrics.connectionId, connectionId));
  return { account: account!.value, items: items!.value, content: content!.value };
}

async function connectNew(platform: PlatformName, accountIndex = 0): Promise<{ account: Account; connectionId: number }> {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: accountIndex });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

/**
 * Each platform's small demo account (Ivy) for the engine's own contract, which no account's size changes: the large
 * accounts' first syncs (paging, bulk storing) are the provider tests' (providers/) and demo-accounts.test.ts's, and
 * here took a third of this file's time on PGlite (a 1,250-video channel synced three times).
 */
const SMALL_DEMO_ACCOUNT = 2;

describe.each(PLATFORM_NAMES.map((platform) => [platform] as const))('%s sync', (platform) => {
  it('first sync stores metrics and content, a re-sync stores the same rows, the next day adds a snapshot', async () => {
    const { account, connectionId } = await connectNew(platform, SMALL_DEMO_ACCOUNT);
    try {
      await expectFirstSyncAndResyncs(platform, account, connectionId);
    } finally {
      // Frees the demo account (each platform has three) for the tests below.
      await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token });
    }
  });
});

async function expectFirstSyncAndResyncs(platform: PlatformName, account: Account, connectionId: number) {
  const { trigger, status } = await syncNow(server, account.token, connectionId);
  expect(trigger.body).toMatchObject({ connectionId, jobId: expect.any(String), status: 'queued' });
  expect(status).toMatchObject({ connectionId, status: 'idle', message: null, lastSyncedAt: server.clock.now().toISOString() });
  const first = await rowCounts(connectionId);
  expect(first.account).toBeGreaterThan(0);
  if (CONTENT_ENDPOINT[platform]) {
    expect(first.items).toBeGreaterThan(0);
    expect(first.content).toBeGreaterThan(0);
  }
  // A metric the platform does not report is absent, never zero: no revenue outside YouTube and Patreon.
  const types = new Set((await server.db.select({ type: accountMetrics.metricType }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId))).map((row) => row.type));
  if (platform !== 'youtube') expect(types.has('revenue')).toBe(false);
  // LinkedIn's REACTION counts every kind of reaction: stored as reactions, never as likes.
  if (platform === 'linkedin') expect({ reactions: types.has('reactions'), likes: types.has('likes') }).toEqual({ reactions: true, likes: false });

  // Same day again: idempotent upserts.
  await syncNow(server, account.token, connectionId);
  expect(await rowCounts(connectionId)).toEqual(first);

  // Next day: incremental; today's snapshot is added, nothing is duplicated.
  server.clock.advance(DAY);
  const next = await syncNow(server, account.token, connectionId);
  expect(next.status).toMatchObject({ status: 'idle' });
  const second = await rowCounts(connectionId);
  expect(second.account).toBeGreaterThan(first.account);
  expect(second.items).toBeGreaterThanOrEqual(first.items);
}

describe('YouTube adapter', () => {
  it('pages the uploads playlist and reads videos 50 at a time', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('youtube', 1);
    const before = { playlist: sandbox.countCalls('youtube', 'playlistItems.list'), videos: sandbox.countCalls('youtube', 'videos.list') };
    await syncNow(server, account.token, connectionId);
    const { items } = await rowCounts(connectionId);
    expect(sandbox.countCalls('youtube', 'playlistItems.list') - before.playlist).toBe(Math.ceil(items / 50));
    expect(sandbox.countCalls('youtube', 'videos.list') - before.videos).toBe(Math.ceil(items / 50));
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    expect(state!.cursor).toMatchObject({ lastUsage: { calls: expect.any(Number), quotaUnits: 1 + 2 * Math.ceil(items / 50) } });
  });
});

describe('failures', () => {
  it('a 429 with Retry-After reschedules the job without spending a retry', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('youtube', 2);
    sandbox.failNext('youtube', 'metrics', 'rate_limited');
    const wallBefore = Date.now();
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'queued', message: expect.stringContaining('rate limiting') });
    expect(Date.parse(status!.nextRunAt!)).toBeGreaterThan(server.clock.now().getTime());
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    const job = await server.sync.job(state!.jobId!);
    expect(job).toMatchObject({ state: 'created', retryCount: 0, data: { connectionId, deferrals: 1 } });
    // The sandbox's Retry-After is 30 s, counted from the answer (after wallBefore; the queue's clock is the database's,
    // so a second of leeway), however long this machine then takes to get here.
    expect(job!.startAfter.getTime()).toBeGreaterThanOrEqual(wallBefore + 30_000 - 1_000);
    // Not due yet: draining runs nothing; once the wait is over, it syncs.
    expect(await server.sync.drain()).toEqual([]);
    expect((await rowCounts(connectionId)).account).toBe(0);
    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null });
  });

  it('a 5xx on every part (the platform down) is retried with backoff, then succeeds', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('tiktok', 1);
    // Both of TikTok's parts refused: one refused part alone is a partial sync (sync-parts.test.ts).
    sandbox.failNext('tiktok', 'profile', 'server_error');
    sandbox.failNext('tiktok', 'metrics', 'server_error');
    const wallBefore = Date.now();
    const { trigger, status } = await syncNow(server, account.token, connectionId);
    // One failed attempt, said in words, with when it tries next (the first backoff step is 5 minutes, jittered).
    expect(status).toMatchObject({ status: 'queued', message: 'TikTok: The platform could not answer (HTTP 500, internal_error).', attempts: 1, lastFailedAt: server.clock.now().toISOString() });
    const wait = Date.parse(status!.nextRunAt!) - server.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(150_000);
    expect(wait).toBeLessThanOrEqual(300_000);
    // The failed attempt's job ended failed; the retry is a new job waiting out the backoff.
    expect(await server.sync.job(trigger.body.jobId)).toMatchObject({ state: 'failed', retryLimit: 0 });
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    const retry = await server.sync.job(state!.jobId!);
    expect(retry).toMatchObject({ state: 'created', data: { connectionId, retry: 1 } });
    expect(retry!.startAfter.getTime()).toBeGreaterThanOrEqual(wallBefore + 150_000 - 1_000);
    await server.sync.drain({ ignoreStartAfter: true });
    // A success clears the failures.
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null, attempts: 0, lastFailedAt: null });
  });

  it('an expired access token is refreshed and the sync goes on', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('twitter', 1);
    const refreshes = sandbox.countCalls('twitter', 'token');
    sandbox.failNext('twitter', 'metrics', 'token_expired');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle' });
    expect(sandbox.countCalls('twitter', 'token')).toBe(refreshes + 1);
  });

  it('a revoked token marks the connection for reconnection, with a failed sync', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('patreon', 1);
    sandbox.failNext('patreon', 'metrics', 'revoked');
    sandbox.failNext('patreon', 'metrics', 'revoked');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: expect.stringContaining('Connect it again'), nextRunAt: null });
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(row).toMatchObject({ needsReconnect: true, syncStatus: 'failed' });
  });

  it('a malformed body fails the job with a clear message and stores nothing', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('instagram', 1);
    sandbox.failNext('instagram', 'metrics', 'malformed_json');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: expect.stringContaining('could not read') });
    expect(await rowCounts(connectionId)).toEqual({ account: 0, items: 0, content: 0 });
  });

  it("another user's connection id is a 404, and its status is never listed", async () => {
    const { connectionId } = await connectNew('linkedin', 2);
    const other = await signUpWithAccess(server);
    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: other.token })).status).toBe(404);
    expect((await server.request('GET', '/api/sync/status', { token: other.token })).body).toEqual([]);
  });
});

describe('scheduler', () => {
  it('queues every due connection once, however often it runs', async () => {
    const { account, connectionId } = await connectNew('linkedin', 1);
    // Synced once (connecting queues its first sync), then due again when its interval (6 hours) has passed.
    await server.sync.drain();
    server.clock.advance(6 * 60 * 60 * 1000 + 60_000);
    const first = await server.sync.enqueueDue();
    const again = await server.sync.enqueueDue();
    expect(first).toBeGreaterThan(0);
    expect(again).toBe(0);
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued' });
    await server.sync.drain();
    const status = await syncStatusOf(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle' });
    // Not due again until the interval (6 hours) has passed.
    server.clock.advance(60 * 60 * 1000);
    const dueSoon = await server.sync.enqueueDue();
    const ids = (await server.request('GET', '/api/sync/status', { token: account.token })).body.map((entry: { status: string }) => entry.status);
    expect(ids).toEqual(['idle']);
    expect(dueSoon).toBeGreaterThanOrEqual(0);
    expect(Date.parse(status!.nextRunAt!)).toBe(Date.parse(status!.lastSyncedAt!) + 6 * 60 * 60 * 1000);
  });

  it('queues nothing of an account whose trial or subscription ended, and its connections are due at once when it is renewed', async () => {
    const { account, connectionId } = await connectNew('linkedin', 0);
    await server.sync.drain();
    const [before] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    await server.db.execute(sql`update subscriptions set status = 'canceled' where user_id = ${account.user.id}`);
    server.clock.advance(7 * 60 * 60 * 1000);
    await server.sync.enqueueDue();
    await server.sync.drain();
    const [stillIdle] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    // Due for an hour, yet not run: its last success is the first sync's.
    expect(stillIdle).toMatchObject({ status: 'idle', lastSuccessAt: before!.lastSuccessAt });
    expect(stillIdle!.nextRunAt!.getTime()).toBeLessThan(server.clock.now().getTime());

    await server.db.execute(sql`update subscriptions set status = 'active' where user_id = ${account.user.id}`);
    await server.sync.enqueueDue();
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued' });
    await server.sync.drain();
  });
});
