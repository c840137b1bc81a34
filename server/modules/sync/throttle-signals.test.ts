// Security checklist 33 (throttle signals) end to end over HTTP: the platform sandbox answers with each platform's
// real throttling signal; the sync is put off until (no earlier than) the signalled time without spending a retry,
// the connection is not marked for reconnection, and nothing calls the platform again before then.
// @runs-once-on: postgresql (each platform's throttling signal read into a wait is the adapters' work; the queue's
// deferral itself is tested on both databases in sync.test.ts; scripts/test.ts).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import type { FailNextOptions } from '../../../sandbox/platforms/platform-sandbox.ts';
import { platformConnections, syncStates } from '../../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/**
 * Each platform's small demo account (Ivy): throttling is the same for every account, and the large one's first sync
 * (a YouTube channel of 1,250 videos), run twice in each of these tests, was most of this file's time (issue 26).
 */
const SMALL_DEMO_ACCOUNT = 2;

/** A fresh user with a connection to the platform's small demo account. */
async function connectNew(platform: PlatformName) {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: SMALL_DEMO_ACCOUNT });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

const callsTo = (platform: PlatformName) => platformSandboxOf(server).calls.filter((call) => call.platform === platform).length;

/**
 * Syncs once against the injected throttling answer; checks the sync waits `waitMs` (on the app's clock, and on the
 * queue's, which is the database's real clock), spent no retry, left the connection alone, and that neither the
 * queue, a manual "sync now" nor the scheduler calls the platform before then. Then lets the wait pass.
 */
async function expectDeferred(
  platform: PlatformName,
  options: FailNextOptions,
  waitMs: number,
  { endpoint = 'metrics', connection = connectNew }: { endpoint?: 'metrics' | 'profile'; connection?: (platform: PlatformName) => Promise<{ account: Account; connectionId: number }> } = {},
) {
  const { account, connectionId } = await connection(platform);
  try {
    await expectDeferredSync(platform, options, waitMs, endpoint, account, connectionId);
  } finally {
    // Free the demo account (each platform has three) for the next test, even when this one failed.
    await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token });
  }
}

async function expectDeferredSync(platform: PlatformName, options: FailNextOptions, waitMs: number, endpoint: 'metrics' | 'profile', account: Account, connectionId: number) {
  const sandbox = platformSandboxOf(server);
  // Earlier tests' connections fall due as the clock moves: sync them now, so only this one can call out below.
  await server.sync.enqueueDue();
  await server.sync.drain({ ignoreStartAfter: true });
  sandbox.failNext(platform, endpoint, 'rate_limited', options);
  const startedAt = server.clock.now().getTime();
  const wallBefore = Date.now();
  const { status } = await syncNow(server, account.token, connectionId);

  expect(status).toMatchObject({ status: 'queued', message: expect.stringContaining('rate limiting') });
  expect(Date.parse(status!.nextRunAt!) - startedAt).toBe(waitMs);
  const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
  const job = await server.sync.job(state!.jobId!);
  expect(job).toMatchObject({ state: 'created', retryCount: 0, data: { connectionId, deferrals: 1 } });
  expect(job!.startAfter.getTime()).toBeGreaterThanOrEqual(wallBefore + waitMs - 1_000);
  const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
  expect(row).toMatchObject({ needsReconnect: false, isActive: true });

  // During the wait: the queue has nothing due, "sync now" answers the waiting job, the scheduler adds nothing.
  const calls = callsTo(platform);
  expect(await server.sync.drain()).toEqual([]);
  const again = await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token });
  expect(again).toMatchObject({ status: 202, body: { jobId: job!.id, status: 'queued' } });
  await server.sync.enqueueDue();
  expect(await server.sync.drain()).toEqual([]);
  expect(callsTo(platform)).toBe(calls);

  // Once the wait is over, the sync runs and succeeds.
  server.clock.advance(waitMs);
  await server.sync.drain({ ignoreStartAfter: true });
  expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null });
  expect(callsTo(platform)).toBeGreaterThan(calls);
}

describe('checklist 33: YouTube', () => {
  it('403 quotaExceeded waits until the daily quota resets at midnight Pacific', async () => {
    // The test clock starts at 2026-11-02T10:00Z, 02:00 PST: the quota comes back at 08:00Z the next day.
    server.clock.set(new Date('2026-11-02T10:00:00Z'));
    await expectDeferred('youtube', { quotaExceeded: true }, 22 * HOUR);
  });

  it('403 quotaExceeded on a public profile tracked with the API key (a manual connection) waits for the reset too', async () => {
    // 23:30 PST on 8 November 2026: the quota comes back in half an hour.
    server.clock.set(new Date('2026-11-09T07:30:00Z'));
    const trackPublicProfile = async () => {
      const account = await signUpWithAccess(server);
      const handle = platformSandboxOf(server).accounts.youtube[SMALL_DEMO_ACCOUNT]!.username!;
      const response = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'youtube', handle } });
      if (response.status !== 201) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
      return { account, connectionId: response.body.id as number };
    };
    // The sandbox's profile failure for `rate_limited` is the Data API's 403 quotaExceeded.
    await expectDeferred('youtube', {}, 30 * MINUTE, { endpoint: 'profile', connection: trackPublicProfile });
  });

  it('a 429 whose Retry-After is an HTTP-date waits until that date', async () => {
    server.clock.set(new Date('2026-11-10T10:00:00Z'));
    const until = new Date(server.clock.now().getTime() + 2 * HOUR + 30 * MINUTE);
    await expectDeferred('youtube', { retryAfter: until.toUTCString() }, 2 * HOUR + 30 * MINUTE);
  });
});

describe('checklist 33: Retry-After as an HTTP-date on other platforms', () => {
  it.each(['tiktok', 'linkedin'] as const)('%s: a 429 waits until the date', async (platform) => {
    server.clock.set(new Date('2026-11-11T10:00:00Z'));
    const until = new Date(server.clock.now().getTime() + 45 * MINUTE);
    await expectDeferred(platform, { retryAfter: until.toUTCString() }, 45 * MINUTE);
  });
});

describe('checklist 33: Instagram (Graph API)', () => {
  it.each([4, 17, 32, 613] as const)('error code %i is a wait, not a failure', async (graphErrorCode) => {
    // Graph throttling carries no time of its own here: the first step of the queue's backoff, a minute.
    server.clock.set(new Date('2026-11-12T10:00:00Z'));
    await expectDeferred('instagram', { graphErrorCode }, MINUTE);
  });

  it('throttling that keeps coming without a time backs off: 1, 2, then 4 minutes, without spending a retry', async () => {
    server.clock.set(new Date('2026-11-14T10:00:00Z'));
    const { account, connectionId } = await connectNew('instagram');
    try {
      await server.sync.enqueueDue();
      await server.sync.drain({ ignoreStartAfter: true });
      const sandbox = platformSandboxOf(server);
      for (let k = 0; k < 3; k += 1) sandbox.failNext('instagram', 'metrics', 'rate_limited', { graphErrorCode: 4 });
      let { status } = await syncNow(server, account.token, connectionId);
      const waits: number[] = [];
      for (let deferral = 1; deferral <= 3; deferral += 1) {
        const nextRunAt = Date.parse(status!.nextRunAt!);
        waits.push(nextRunAt - server.clock.now().getTime());
        const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
        expect(await server.sync.job(state!.jobId!)).toMatchObject({ retryCount: 0, data: { deferrals: deferral } });
        server.clock.set(new Date(nextRunAt));
        // One run at a time: the deferred job, which meets the next throttle (or, the fourth time, succeeds).
        await server.sync.drain({ ignoreStartAfter: true, maxJobs: 1 });
        status = await syncStatusOf(server, account.token, connectionId);
      }
      expect(waits).toEqual([MINUTE, 2 * MINUTE, 4 * MINUTE]);
      expect(status).toMatchObject({ status: 'idle', message: null });
    } finally {
      await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token });
    }
  });

  it("X-Business-Use-Case-Usage's estimated_time_to_regain_access is the wait", async () => {
    server.clock.set(new Date('2026-11-13T10:00:00Z'));
    await expectDeferred('instagram', { graphErrorCode: 80002, regainAccessMinutes: 37 }, 37 * MINUTE);
  });
});

describe('checklist 33: X, Retry-After in seconds, and everyone else', () => {
  it('checklist 33: an X 429 waits until x-rate-limit-reset', async () => {
    server.clock.set(new Date('2026-11-15T10:00:00Z'));
    // The sandbox's window resets 15 minutes after the refused call, as X's does.
    await expectDeferred('twitter', {}, 15 * MINUTE);
  });

  it('checklist 33: a 429 whose Retry-After is a number of seconds waits that long', async () => {
    server.clock.set(new Date('2026-11-16T10:00:00Z'));
    await expectDeferred('tiktok', { retryAfter: '420' }, 7 * MINUTE);
  });

  it("checklist 33: while one user's X sync waits out its rate limit, another user's syncs on other platforms run", async () => {
    server.clock.set(new Date('2026-11-17T10:00:00Z'));
    const sandbox = platformSandboxOf(server);
    const throttled = await connectNew('twitter');
    const other = await connectNew('youtube');
    const another = await connectNew('tiktok');
    try {
      await server.sync.enqueueDue();
      await server.sync.drain({ ignoreStartAfter: true });
      sandbox.failNext('twitter', 'metrics', 'rate_limited');
      const { status } = await syncNow(server, throttled.account.token, throttled.connectionId);
      expect(status).toMatchObject({ status: 'queued', message: expect.stringContaining('rate limiting') });
      const xCalls = callsTo('twitter');
      const before = { youtube: callsTo('youtube'), tiktok: callsTo('tiktok') };
      for (const { account, connectionId } of [other, another]) {
        expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
      }
      expect(callsTo('youtube')).toBeGreaterThan(before.youtube);
      expect(callsTo('tiktok')).toBeGreaterThan(before.tiktok);
      // The throttled one is still waiting, and nobody called X meanwhile.
      expect(await syncStatusOf(server, throttled.account.token, throttled.connectionId)).toMatchObject({ status: 'queued' });
      expect(callsTo('twitter')).toBe(xCalls);
    } finally {
      for (const { account, connectionId } of [throttled, other, another]) await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token });
    }
  });
});
