// The sync engine's edges against the platform sandbox: the retry budget running out, X's rate-limit reset header
// as the retry delay, Instagram's follower totals derived backwards from each day's follows minus unfollows, and
// Instagram media without insights (posted before the business conversion) kept without failing the sync.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAS } from '../../../sandbox/platforms/demo-accounts.ts';
import { CONVERTED_ACCOUNT_INDEX, SHAPE as INSTAGRAM_SHAPE } from '../../../sandbox/platforms/instagram-metrics.ts';
import { dayOf as sandboxDay, isoDay, netFollowers } from '../../../sandbox/platforms/metrics-data.ts';
import { accountMetrics, contentItems, contentMetrics, syncStates } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function connectNew(platform: 'tiktok' | 'twitter' | 'instagram', accountIndex: number) {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: accountIndex });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

describe('retries', () => {
  it('a platform that keeps failing spends the retry budget, then the sync shows as failed with its message', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('tiktok', 2);
    const attempts = server.config.sync.retryLimit + 1;
    // Each attempt asks for both of its parts (the profile, the videos), and both fail.
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      sandbox.failNext('tiktok', 'profile', 'server_error');
      sandbox.failNext('tiktok', 'metrics', 'server_error');
    }
    const { trigger, status } = await syncNow(server, account.token, connectionId, { ignoreStartAfter: true });
    expect(status).toMatchObject({ status: 'failed', message: 'TikTok: The platform could not answer (HTTP 500, internal_error).', nextRunAt: null, attempts });
    // Each attempt is a job of its own (the retries are ours, on the backoff of sync-backoff.ts).
    expect(await server.sync.job(trigger.body.jobId)).toMatchObject({ state: 'failed', retryCount: 0 });
    // Nothing is left to run, and a later manual sync starts afresh.
    expect(await server.sync.drain({ ignoreStartAfter: true })).toEqual([]);
    const again = await syncNow(server, account.token, connectionId);
    expect(again.status).toMatchObject({ status: 'idle', message: null });
  });
});

describe('X rate limits', () => {
  it('x-rate-limit-reset (epoch seconds) becomes the wait before the next attempt', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('twitter', 2);
    sandbox.failNext('twitter', 'metrics', 'rate_limited');
    const { status } = await syncNow(server, account.token, connectionId);
    // The sandbox's window resets 15 minutes after the refused call.
    const windowMs = 15 * 60_000;
    expect(status).toMatchObject({ status: 'queued', message: expect.stringContaining('rate limiting') });
    expect(Date.parse(status!.nextRunAt!) - server.clock.now().getTime()).toBe(windowMs);
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    const job = await server.sync.job(state!.jobId!);
    expect(job).toMatchObject({ state: 'created', retryCount: 0, data: { connectionId, deferrals: 1 } });
    // pg-boss runs on the real clock: the job waits the same 15 minutes from now.
    expect(job!.startAfter.getTime()).toBeGreaterThan(Date.now() + windowMs - 60_000);
    expect(job!.startAfter.getTime()).toBeLessThanOrEqual(Date.now() + windowMs + 1_000);
    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null });
  });
});

describe('Instagram follower totals and media insights', () => {
  it('totals are derived backwards from today’s followers_count and each day’s follows minus unfollows; media without insights are kept', async () => {
    // The demo account that began as a personal account: its oldest 30 media have no insights (100 / 2108006).
    const accountIndex = CONVERTED_ACCOUNT_INDEX;
    const persona = PERSONAS[accountIndex]!;
    const { account, connectionId } = await connectNew('instagram', accountIndex);
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', message: null });
    const items = await server.db.select({ id: contentItems.id }).from(contentItems).where(eq(contentItems.connectionId, connectionId)).orderBy(asc(contentItems.publishedAt));
    const withViews = new Set(
      (await server.db.select({ id: contentMetrics.contentItemId }).from(contentMetrics).where(and(eq(contentMetrics.connectionId, connectionId), eq(contentMetrics.metricType, 'views')))).map((row) => row.id),
    );
    expect(items.length).toBeGreaterThan(100);
    // The 30 oldest are stored, without insights; the next one has them.
    expect(items.slice(0, 30).filter((item) => withViews.has(item.id))).toEqual([]);
    expect(withViews.has(items[30]!.id)).toBe(true);
    const rows = await server.db
      .select({ date: accountMetrics.date, value: accountMetrics.value })
      .from(accountMetrics)
      .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, 'followers')));
    const stored = new Map(rows.map((row) => [row.date, row.value]));
    const today = sandboxDay(server.clock.now());
    const followersNow = stored.get(isoDay(today))!;
    expect(followersNow).toBeGreaterThanOrEqual(10_000);

    // The sandbox's own numbers: each day's follows less unfollows, from its growth curve for this persona. (Its
    // follower_count is the follows alone: a sync reading it as the net change fails here.)
    const growth = INSTAGRAM_SHAPE[persona.tier].growth;
    const net = (day: number) => netFollowers('instagram', persona, followersNow, growth, day).net;
    // Insights cover the last 30 days (today excluded: it is not over).
    expect(rows).toHaveLength(31);
    // The total at the end of a day is today's count less every later day's net gain (yesterday's is the last).
    let laterNet = 0;
    for (let day = today - 1; day >= today - 30; day -= 1) {
      expect(stored.get(isoDay(day)), isoDay(day)).toBe(followersNow - laterNet);
      laterNet += net(day);
    }
    // Growth: thirty days ago the account had fewer followers than today.
    expect(stored.get(isoDay(today - 30))!).toBeLessThan(followersNow);
  });
});
