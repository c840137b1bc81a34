// A sync is a set of parts: a fault injected into one part of a first sync (the platform sandbox's fault injector)
// loses only that part (every other part is stored, the sync reads `partial` with the part in words and a sooner
// retry), and the next run reads the part again. A first sync throttled halfway goes on from its checkpoint: the
// calls of both runs are those of one first sync and at most one part read again.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import { accountMetrics, contentItems, contentMetrics, syncStates } from '../../db/schema.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { lastCompleteMetaDay, metaDayStart } from '../../providers/instagram.sync.ts';
import { clearFaults, type FaultInput, injectFault } from '../../test/faults.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { PARTIAL_RETRY_MS } from './sync.service.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await clearFaults(server);
});

async function connectNew(platform: PlatformName, accountIndex: number) {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: accountIndex });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

async function storedDays(connectionId: number, metricType: string): Promise<Map<string, number>> {
  const rows = await server.db
    .select({ date: accountMetrics.date, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, metricType)));
  return new Map(rows.map((row) => [row.date, row.value]));
}

/** Today's stored counters of one post, by metric. */
async function postMetrics(connectionId: number, platformContentId: string): Promise<Record<string, number>> {
  const rows = await server.db
    .select({ metricType: contentMetrics.metricType, value: contentMetrics.value })
    .from(contentMetrics)
    .innerJoin(contentItems, eq(contentItems.id, contentMetrics.contentItemId))
    .where(and(eq(contentMetrics.connectionId, connectionId), eq(contentItems.platformContentId, platformContentId), eq(contentMetrics.asOf, dayOf(server.clock.now()))));
  return Object.fromEntries(rows.map((row) => [row.metricType, row.value]));
}

/** The scheduled retry of a partial run: the clock past its next run, the scheduler's tick, the queue run. */
async function runScheduledRetry(connectionId: number, token: string) {
  const before = await syncStatusOf(server, token, connectionId);
  server.clock.set(new Date(before!.nextRunAt!));
  server.clock.advance(1000);
  await server.sync.enqueueDue();
  await server.sync.drain();
  return syncStatusOf(server, token, connectionId);
}

const callsOf = (platform: PlatformName) => platformSandboxOf(server).calls.filter((call) => call.platform === platform).length;

describe('Instagram', () => {
  const MEDIA_INSIGHTS = 'views,reach,likes,comments,shares,saved,total_interactions';
  const unavailable = { status: 500, body: { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } } };

  it('one account-insight window and one post’s insights failing: the rest is stored, the sync is partial with both named, and the next run reads them', async () => {
    const { account, connectionId } = await connectNew('instagram', 2);
    const lastDay = lastCompleteMetaDay(server.clock.now());
    // The walk reads 30 days at a time, newest first: the second window.
    const windowLast = addDays(lastDay, -30);
    const windowFirst = addDays(lastDay, -59);
    await injectFault(server, { platform: 'instagram', path: '/v25.0/me/insights', query: { metric: 'reach', since: String(metaDayStart(windowFirst)) }, ...unavailable } satisfies FaultInput);
    await injectFault(server, { platform: 'instagram', path: '/v25.0/*/insights', query: { metric: MEDIA_INSIGHTS }, ...unavailable });

    const started = server.clock.now().getTime();
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', state: 'partial', message: null });
    expect(status!.missingParts).toHaveLength(2);
    expect(status!.missingParts.some((words) => words.startsWith('the metrics of post ') && words.includes('(HTTP 500, code 2)'))).toBe(true);
    expect(status!.missingParts).toContain(`the account figures of ${windowFirst} to ${windowLast}: The platform could not answer (HTTP 500, code 2)`);
    expect(new Date(status!.nextRunAt!).getTime() - started).toBeGreaterThanOrEqual(PARTIAL_RETRY_MS);
    expect(new Date(status!.nextRunAt!).getTime() - started).toBeLessThan(2 * PARTIAL_RETRY_MS);

    const views = await storedDays(connectionId, 'views');
    const inWindow = (day: string) => day >= windowFirst && day <= windowLast;
    expect([...views.keys()].filter(inWindow)).toEqual([]);
    expect(views.has(lastDay)).toBe(true);
    expect(views.has(addDays(windowFirst, -1))).toBe(true);
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    const post = state!.missingParts!.find((entry) => entry.part.startsWith('post-metrics:'))!.part.slice('post-metrics:'.length);
    expect(await postMetrics(connectionId, post)).not.toHaveProperty('views');
    expect(state!.checkpoint).toBeNull();

    const after = await runScheduledRetry(connectionId, account.token);
    expect(after).toMatchObject({ status: 'idle', state: 'ok', missingParts: [] });
    const recovered = await storedDays(connectionId, 'views');
    expect([...recovered.keys()].filter(inWindow)).toHaveLength(30);
    expect(await postMetrics(connectionId, post)).toHaveProperty('views');
  });

  it('a first sync throttled halfway keeps what it read and goes on from its checkpoint: one first sync’s calls and at most one window read again', async () => {
    const sandbox = platformSandboxOf(server);
    // The same account's first sync, untroubled, for the count of calls it makes.
    const reference = await connectNew('instagram', 1);
    const beforeReference = callsOf('instagram');
    expect((await syncNow(server, reference.account.token, reference.connectionId)).status).toMatchObject({ state: 'ok' });
    const oneFirstSync = callsOf('instagram') - beforeReference;
    const metrics = ['views', 'reach', 'engagements', 'followers'];
    const referenceDays = await Promise.all(metrics.map((metric) => storedDays(reference.connectionId, metric)));
    // One Instagram account connects to one Analytics Hub account at a time.
    expect((await server.request('DELETE', `/api/platformconnections/${reference.connectionId}`, { token: reference.account.token })).status).toBe(200);

    const { account, connectionId } = await connectNew('instagram', 1);
    const lastDay = lastCompleteMetaDay(server.clock.now());
    const throttledDay = addDays(lastDay, -45);
    await injectFault(server, {
      platform: 'instagram',
      path: '/v25.0/me/insights',
      query: { metric: 'views,total_interactions', since: String(metaDayStart(throttledDay)) },
      status: 400,
      body: { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4, is_transient: true } },
      headers: { 'x-business-use-case-usage': JSON.stringify({ '17841400000000000': [{ type: 'instagram', call_count: 100, estimated_time_to_regain_access: 5 }] }) },
    });
    const before = callsOf('instagram');
    const trigger = await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token });
    expect(trigger.status).toBe(202);
    // The throttled run alone (its follow-up waits out Meta's five minutes).
    await server.sync.drain();
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued', message: 'Instagram is rate limiting us; the sync will resume later.' });
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    expect(state!.lastSuccessAt).toBeNull();
    expect(state!.checkpoint).toMatchObject({ profileRead: true, postsDone: true, historyTop: lastDay, historyNext: addDays(lastDay, -30) });
    // The first window and the posts are stored already.
    expect((await storedDays(connectionId, 'views')).has(lastDay)).toBe(true);
    expect(await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connectionId))).not.toHaveLength(0);

    server.clock.advance(5 * 60_000);
    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', state: 'ok', missingParts: [] });
    const calls = callsOf('instagram') - before;
    // The throttled call, then its window (one reach series and at most 30 days) read again.
    expect(calls).toBeGreaterThan(oneFirstSync);
    expect(calls).toBeLessThanOrEqual(oneFirstSync + 1 + 1 + 30);
    for (const [index, metric] of metrics.entries()) expect(await storedDays(connectionId, metric), metric).toEqual(referenceDays[index]);
    const [done] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    expect(done!.checkpoint).toBeNull();
    expect(sandbox.calls.some((call) => call.platform === 'instagram' && 'fault' in call)).toBe(true);
  });
});

describe('TikTok', () => {
  it('the profile failing: the videos are stored, the sync is partial for the follower count, and the next run reads it', async () => {
    const { account, connectionId } = await connectNew('tiktok', 0);
    await injectFault(server, { platform: 'tiktok', path: '/v2/user/info', status: 500, body: { data: {}, error: { code: 'internal_error', message: 'Something went wrong.', log_id: '20261102100000' } } });
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', state: 'partial', missingParts: ['the profile and follower count: The platform could not answer (HTTP 500, code internal_error)'] });
    expect((await storedDays(connectionId, 'followers')).size).toBe(0);
    const videos = await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connectionId));
    expect(videos.length).toBeGreaterThan(0);

    expect(await runScheduledRetry(connectionId, account.token)).toMatchObject({ state: 'ok', missingParts: [] });
    expect((await storedDays(connectionId, 'followers')).size).toBe(1);
  });
});

describe('X', () => {
  it('the posts list failing: the follower count is stored, the sync is partial for the posts, and the next run reads them', async () => {
    const { account, connectionId } = await connectNew('twitter', 0);
    await injectFault(server, { platform: 'twitter', path: '/2/users/*/tweets', status: 503, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 } });
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', state: 'partial', missingParts: ['the posts list: The platform could not answer (HTTP 503)'] });
    expect((await storedDays(connectionId, 'followers')).size).toBe(1);
    expect(await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connectionId))).toEqual([]);

    expect(await runScheduledRetry(connectionId, account.token)).toMatchObject({ state: 'ok', missingParts: [] });
    expect((await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connectionId))).length).toBeGreaterThan(0);
  });
});

describe('LinkedIn', () => {
  it('one analytics range failing: every other range and metric is stored, the sync is partial for that range, and the next run reads it', async () => {
    const { account, connectionId } = await connectNew('linkedin', 0);
    await injectFault(server, { platform: 'linkedin', path: '/rest/memberCreatorPostAnalytics', query: { queryType: 'IMPRESSION' }, status: 500, body: { status: 500, serviceErrorCode: 0, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' } });
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', state: 'partial' });
    expect(status!.missingParts).toHaveLength(1);
    const [words] = status!.missingParts;
    const range = /^the daily impression figures of (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d): The platform could not answer \(HTTP 500(, code [A-Z_]+)?\)$/.exec(words!);
    expect(range, words).not.toBeNull();
    const [, first, last] = range!;
    const inRange = (day: string) => day >= first! && day <= last!;
    const impressions = await storedDays(connectionId, 'impressions');
    const reactions = await storedDays(connectionId, 'reactions');
    expect([...impressions.keys()].filter(inRange)).toEqual([]);
    expect([...reactions.keys()].filter(inRange).length).toBeGreaterThan(0);
    expect([...impressions.keys()].filter((day) => !inRange(day)).length).toBeGreaterThan(0);

    expect(await runScheduledRetry(connectionId, account.token)).toMatchObject({ state: 'ok', missingParts: [] });
    const recovered = await storedDays(connectionId, 'impressions');
    expect([...recovered.keys()].filter(inRange).length).toBe([...reactions.keys()].filter(inRange).length);
  });
});
