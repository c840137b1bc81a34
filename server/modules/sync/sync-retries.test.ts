// Issue 14, "never retry forever": a failed sync backs off (the attempt count kept in sync_states, the waits doubling
// within their jitter window), gives up after retryLimit + 1 attempts or at once when retrying cannot help, leaves a
// dead letter and one alert event for each give-up, and stays stopped until the user acts. GET /api/sync/status says
// when the last attempt failed, why, and when the next one is due.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import { syncDeadLetters } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { backoffStepMs } from './sync-backoff.ts';

const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function connectNew(platform: PlatformName, accountIndex: number) {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: accountIndex });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

const gaveUpEvents = (connectionId: number) =>
  server.logLines
    .filter((line) => line.includes('"event":"sync.gave_up"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => event.connectionId === connectionId);

const deadLetters = (connectionId: number) => server.db.select().from(syncDeadLetters).where(eq(syncDeadLetters.connectionId, connectionId));

describe('retries, backoff and dead letter', () => {
  it('checklist 32: a platform answering 500 every time is tried retryLimit + 1 times, each wait inside its jittered window, then dead-lettered with its last error and one alert', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('tiktok', 2);
    const { retryLimit, retryDelaySeconds, retryMaxDelaySeconds } = server.config.sync;
    const policy = { baseMs: retryDelaySeconds * 1000, capMs: retryMaxDelaySeconds * 1000 };
    // Each attempt asks for both of its parts (the profile, the videos), and both fail.
    for (let attempt = 0; attempt <= retryLimit; attempt += 1) {
      sandbox.failNext('tiktok', 'profile', 'server_error');
      sandbox.failNext('tiktok', 'metrics', 'server_error');
    }
    const message = 'TikTok: The platform could not answer (HTTP 500, internal_error).';
    const calls = sandbox.countCalls('tiktok', 'video.list');

    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
    for (let attempt = 1; attempt <= retryLimit + 1; attempt += 1) {
      const failedAt = server.clock.now();
      expect(await server.sync.drain({ ignoreStartAfter: true, maxJobs: 1 })).toEqual([{ kind: 'job_failed', message }]);
      const status = await syncStatusOf(server, account.token, connectionId);
      expect(status).toMatchObject({ message, attempts: attempt, lastFailedAt: failedAt.toISOString() });
      if (attempt > retryLimit) break;
      // Equal jitter: between half and all of base·2^(n−1), capped.
      const step = backoffStepMs(attempt, policy);
      const wait = Date.parse(status!.nextRunAt!) - failedAt.getTime();
      expect(status!.status).toBe('queued');
      expect(wait).toBeGreaterThanOrEqual(step / 2);
      expect(wait).toBeLessThanOrEqual(step);
      // Nothing runs before its time: not the waiting job, not the scheduler.
      server.clock.advance(wait - 1_000);
      expect(await server.sync.drain()).toEqual([]);
      await server.sync.enqueueDue();
      expect(await server.sync.drain()).toEqual([]);
      server.clock.advance(1_000);
    }
    expect(sandbox.countCalls('tiktok', 'video.list') - calls).toBe(retryLimit + 1);

    const status = await syncStatusOf(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message, attempts: retryLimit + 1, nextRunAt: null });
    const [letter, ...others] = await deadLetters(connectionId);
    expect(others).toEqual([]);
    expect(letter).toMatchObject({ userId: account.user.id, platform: 'tiktok', attempts: retryLimit + 1, reason: 'retries_exhausted', lastError: message, jobId: expect.any(String) });
    expect(await server.sync.job(letter!.jobId!)).toMatchObject({ state: 'failed', data: { connectionId, retry: retryLimit } });
    // One alert, at error level, in our words: no token, no platform body.
    const events = gaveUpEvents(connectionId);
    expect(events).toEqual([expect.objectContaining({ level: 50, userId: account.user.id, platform: 'tiktok', attempts: retryLimit + 1, reason: 'retries_exhausted', error: message, jobId: letter!.jobId })]);
    expect(JSON.stringify(events)).not.toMatch(/access_token|refresh_token|Bearer/i);

    // Stopped until the user acts: a week later the scheduler still leaves it alone.
    server.clock.advance(7 * DAY);
    await server.sync.enqueueDue();
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'failed', attempts: retryLimit + 1 });
    await server.sync.drain({ ignoreStartAfter: true });
    expect(sandbox.countCalls('tiktok', 'video.list') - calls).toBe(retryLimit + 1);
    // The user's Sync starts afresh.
    const again = await syncNow(server, account.token, connectionId);
    expect(again.status).toMatchObject({ status: 'idle', message: null, attempts: 0, lastFailedAt: null });
  });

  it('checklist 32: a poison sync does not hold up the others', async () => {
    const sandbox = platformSandboxOf(server);
    const poison = await connectNew('twitter', 1);
    const healthy = await connectNew('linkedin', 1);
    // Each attempt asks for both of its parts (the profile, the posts), and both fail.
    for (let attempt = 0; attempt <= server.config.sync.retryLimit; attempt += 1) {
      sandbox.failNext('twitter', 'profile', 'server_error');
      sandbox.failNext('twitter', 'metrics', 'server_error');
    }
    await server.request('POST', `/api/sync/platform/${poison.connectionId}`, { token: poison.account.token });
    await server.request('POST', `/api/sync/platform/${healthy.connectionId}`, { token: healthy.account.token });
    const outcomes = await server.sync.drain({ ignoreStartAfter: true });
    // The healthy sync ran right after the poison's first attempt, not after its last.
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['job_failed', 'done', ...Array<string>(server.config.sync.retryLimit).fill('job_failed')]);
    expect(await syncStatusOf(server, healthy.account.token, healthy.connectionId)).toMatchObject({ status: 'idle' });
    expect(await syncStatusOf(server, poison.account.token, poison.connectionId)).toMatchObject({ status: 'failed' });
    expect(gaveUpEvents(poison.connectionId)).toHaveLength(1);
  });

  it('a pressed Sync while a retry waits out its backoff runs it now, with the count started afresh', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('patreon', 1);
    sandbox.failNext('patreon', 'metrics', 'server_error');
    sandbox.failNext('patreon', 'metrics', 'server_error');
    const first = await syncNow(server, account.token, connectionId);
    expect(first.status).toMatchObject({ status: 'queued', attempts: 1 });
    // The retry waits minutes (in pg-boss's time too): pressing Sync brings it forward.
    const second = await syncNow(server, account.token, connectionId);
    expect(second.trigger.body.jobId).not.toBe(first.trigger.body.jobId);
    expect(second.status).toMatchObject({ status: 'queued', attempts: 1 });
    const third = await syncNow(server, account.token, connectionId);
    expect(third.status).toMatchObject({ status: 'idle', attempts: 0, lastFailedAt: null, message: null });
  });
});

describe('failures retrying cannot fix', () => {
  it('a malformed answer stops the sync at once, with a dead letter and a warning, until the user presses Sync', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('instagram', 1);
    sandbox.failNext('instagram', 'metrics', 'malformed_json');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: expect.stringContaining('could not read'), attempts: 1, lastFailedAt: server.clock.now().toISOString(), nextRunAt: null });
    expect(await deadLetters(connectionId)).toEqual([expect.objectContaining({ reason: 'not_retryable', attempts: 1, lastError: status!.message })]);
    // The user must act, not the operator: a warning, not an error.
    expect(gaveUpEvents(connectionId)).toEqual([expect.objectContaining({ level: 40, reason: 'not_retryable', platform: 'instagram' })]);

    // Other connections come due after a day; this one stays stopped.
    server.clock.advance(DAY);
    await server.sync.enqueueDue();
    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'failed', attempts: 1 });
    const again = await syncNow(server, account.token, connectionId);
    expect(again.status).toMatchObject({ status: 'idle', attempts: 0 });
  });

  it('a changed setting, or connecting again, starts a stopped sync again at once', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await connectNew('patreon', 0);
    sandbox.failNext('patreon', 'metrics', 'malformed_json');
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'failed' });
    const patched = await server.request('PATCH', `/api/platformconnections/${connectionId}`, { token: account.token, body: { currency: 'EUR' } });
    expect(patched.status).toBe(200);
    // Queued at once, the failures forgotten; the schedule finds nothing more to add for it.
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued', attempts: 0, lastFailedAt: null, message: null });
    await server.sync.drain();
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', attempts: 0 });

    // Access revoked at the platform: stopped, and the user must connect again.
    sandbox.failNext('patreon', 'metrics', 'revoked');
    sandbox.failNext('patreon', 'metrics', 'revoked');
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'failed', message: expect.stringContaining('Connect it again') });
    expect((await connect(server, account, 'patreon', { account: 0 })).status).toBe(200);
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued', attempts: 0, message: null });
    await server.sync.drain();
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', attempts: 0, message: null });
  });
});
