// Issue 14, "recover in seconds": a sync whose worker died (kill -9) or hung is taken over by the recovery sweep
// every worker process runs, its dead pg-boss job is failed so that it no longer blocks the connection, and the sync
// runs again, storing nothing twice. The dead worker is simulated: a lease held by a process that is gone (its
// presence lock released) or that stopped renewing (the clock moved past the lease). server/main.crash.test.ts kills
// a real server process.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import { accountMetrics, contentItems, contentMetrics, syncDeadLetters, syncStates } from '../../db/schema.ts';
import { createWorkerPresence } from '../../jobs/worker-presence.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { INTERRUPTED_MESSAGE } from './sync.jobs.ts';
import { createSyncRepository } from './sync.repository.ts';
import { SYNC_LEASE_MS } from './sync.service.ts';

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
  // The first sync that connecting queued: run, so each test starts from a connection with no job pending.
  await server.sync.drain();
  return { account, connectionId: response.body.id as number };
}

async function rowCounts(connectionId: number) {
  const [account] = await server.db.select({ value: count() }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId));
  const [items] = await server.db.select({ value: count() }).from(contentItems).where(eq(contentItems.connectionId, connectionId));
  const [content] = await server.db.select({ value: count() }).from(contentMetrics).where(eq(contentMetrics.connectionId, connectionId));
  return { account: account!.value, items: items!.value, content: content!.value };
}

/** Another server process on the same database: alive until `close()`, as if killed then. */
async function otherProcess() {
  const presence = createWorkerPresence({ database: server.database.handle, logger: server.app.log });
  await presence.start();
  return presence;
}

/**
 * A worker of `owner` takes the connection's next sync (the job turns active, the lease is taken) and goes silent.
 * `account`: the user presses Sync first; without it, the sync the recovery queued again is taken.
 */
async function takenBy(owner: number, connectionId: number, account?: { token: string }) {
  if (account) expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
  const job = await server.sync.take();
  expect(job?.data.connectionId).toBe(connectionId);
  const claimed = await createSyncRepository(server.db).claim(connectionId, { token: `run-of-${owner}`, owner, jobId: job!.id }, server.clock.now(), SYNC_LEASE_MS);
  expect(claimed).toBe(true);
  return job!;
}

const recoveredEvents = () => server.logLines.filter((line) => line.includes('"event":"sync.run_recovered"')).map((line) => JSON.parse(line));

describe('recovery of syncs whose worker stopped', () => {
  it('checklist 31: a worker killed mid-sync is taken over at once, its dead job stops blocking, and the sync runs again with no row stored twice', async () => {
    const { account, connectionId } = await connectNew('linkedin', 1);
    await syncNow(server, account.token, connectionId);
    const stored = await rowCounts(connectionId);
    expect(stored.account).toBeGreaterThan(0);

    const dead = await otherProcess();
    const job = await takenBy(dead.instanceId, connectionId, account);
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'running' });
    // Nothing is taken over from a live owner whose lease holds.
    expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 0 });
    await dead.close(); // kill -9: the session ends and its presence lock with it.

    // No waiting for the lease to run out: the owner is gone.
    expect(await server.sync.recover()).toEqual({ runs: 1, jobs: 0 });
    expect(await server.sync.job(job.id)).toMatchObject({ state: 'failed' });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'queued', message: INTERRUPTED_MESSAGE, attempts: 1, lastFailedAt: server.clock.now().toISOString() });
    expect(recoveredEvents().at(-1)).toMatchObject({ level: 40, connectionId, jobId: job.id, deadOwner: dead.instanceId, attempts: 1 });
    // A second sweep (another process, a moment later) finds nothing left to do.
    expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 0 });

    const outcomes = await server.sync.drain();
    expect(outcomes).toEqual([expect.objectContaining({ kind: 'done' })]);
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null, attempts: 0, lastFailedAt: null });
    expect(await rowCounts(connectionId)).toEqual(stored);
  });

  it('checklist 31: a worker that stops heartbeating (alive but stuck) loses its run when the lease runs out, not before', async () => {
    const { account, connectionId } = await connectNew('tiktok', 1);
    const stuck = await otherProcess();
    try {
      const job = await takenBy(stuck.instanceId, connectionId, account);
      server.clock.advance(SYNC_LEASE_MS - 1_000);
      expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 0 });
      server.clock.advance(2_000);
      expect(await server.sync.recover()).toEqual({ runs: 1, jobs: 0 });
      expect(await server.sync.job(job.id)).toMatchObject({ state: 'failed' });
      await server.sync.drain();
      expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', attempts: 0 });
      expect((await rowCounts(connectionId)).account).toBeGreaterThan(0);
      // The stuck worker wakes up: its lease is gone, so it can neither renew it nor store.
      const repository = createSyncRepository(server.db);
      expect(await repository.renewLease(connectionId, `run-of-${stuck.instanceId}`, server.clock.now(), SYNC_LEASE_MS)).toBe(false);
      await expect(repository.storeRun(connectionId, `run-of-${stuck.instanceId}`, { daily: [], content: [], usage: { calls: 0 } }, { platform: 'tiktok', today: '2026-11-02', now: server.clock.now(), nextRunAt: server.clock.now(), cursor: {} })).rejects.toThrow('the sync lease was lost');
    } finally {
      await stuck.close();
    }
  });

  it('checklist 31: a worker killed after storing but before completing its job: the dead job no longer blocks any sync, and nothing is stored twice', async () => {
    const first = await connectNew('patreon', 1);
    const second = await connectNew('instagram', 1);
    expect((await server.request('POST', `/api/sync/platform/${first.connectionId}`, { token: first.account.token })).status).toBe(202);
    const job = (await server.sync.take())!;
    expect(await server.sync.runWithoutCompleting(job)).toMatchObject({ kind: 'done' });
    const stored = await rowCounts(first.connectionId);
    expect(stored.account).toBeGreaterThan(0);
    expect(await server.sync.job(job.id)).toMatchObject({ state: 'active' });

    // The stately policy allows one active job per connection, and pg-boss fetches the oldest job first: while the
    // dead job stays active, the connection's next sync cannot start, and neither can anyone else's behind it.
    await server.request('POST', `/api/sync/platform/${first.connectionId}`, { token: first.account.token });
    await server.request('POST', `/api/sync/platform/${second.connectionId}`, { token: second.account.token });
    expect(await server.sync.drain()).toEqual([]);

    // A live run takes its lease within moments of being fetched; this job has had none for longer than a lease.
    expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 0 });
    await server.db.execute(sql`update pgboss.job set started_on = started_on - interval '2 minutes' where id = ${job.id}::uuid`);
    expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 1 });
    expect(await server.sync.job(job.id)).toMatchObject({ state: 'failed' });

    const outcomes = await server.sync.drain();
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['done', 'done']);
    expect(await rowCounts(first.connectionId)).toEqual(stored);
    expect(await syncStatusOf(server, second.account.token, second.connectionId)).toMatchObject({ status: 'idle' });
  });

  it('a sync whose runs keep dying gives up after retryLimit + 1 attempts, with a dead letter, instead of killing workers forever', async () => {
    const { account, connectionId } = await connectNew('linkedin', 2);
    const attempts = server.config.sync.retryLimit + 1;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const dead = await otherProcess();
      // Only the first is the user's Sync (which starts the count afresh); the others are the recovery's.
      await takenBy(dead.instanceId, connectionId, attempt === 1 ? account : undefined);
      await dead.close();
      expect(await server.sync.recover()).toEqual({ runs: 1, jobs: 0 });
    }
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'failed', message: INTERRUPTED_MESSAGE, attempts, nextRunAt: null });
    const letters = await server.db.select().from(syncDeadLetters).where(eq(syncDeadLetters.connectionId, connectionId));
    expect(letters).toEqual([expect.objectContaining({ reason: 'interrupted', attempts, lastError: INTERRUPTED_MESSAGE, platform: 'linkedin', userId: account.user.id })]);
    // Stopped: nothing is queued for it, the scheduler leaves it alone, and the sweep has nothing left of it.
    expect(await server.sync.take()).toBeUndefined();
    await server.sync.enqueueDue();
    expect(await server.sync.recover()).toEqual({ runs: 0, jobs: 0 });
    const [state] = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
    expect(state).toMatchObject({ status: 'failed', leaseToken: null, leaseOwner: null });
  });
});
