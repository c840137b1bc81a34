// The run's lease heartbeat, on fake timers with the database and the platform stubbed: it renews while the run is
// alive, stops on every way out of the run, and a run that lost its lease stores nothing and records nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../test/manual-clock.ts';
import { PlatformError } from '../../providers/platform-error.ts';
import type { SyncOutput } from '../../providers/provider.ts';
import { createPlatformBudget } from './platform-budget.ts';
import { SyncLeaseLost, type SyncRepository } from './sync.repository.ts';
import { createSyncService, SYNC_HEARTBEAT_MS, SYNC_LEASE_MS } from './sync.service.ts';

const silent = { info() {}, warn: vi.fn(), error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent, level: 'info', silent() {} };
const OUTPUT: SyncOutput = { daily: [], content: [], usage: { calls: 1 } };

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

function setUp(options: { leaseHeld?: () => boolean; storeRun?: () => Promise<unknown> } = {}) {
  const clock = createManualClock(new Date('2026-11-02T10:00:00Z'));
  const platformCall = deferred<SyncOutput>();
  const repository = {
    claim: vi.fn(async () => true),
    renewLease: vi.fn(async () => options.leaseHeld?.() ?? true),
    state: vi.fn(async () => undefined),
    knownContentIds: vi.fn(async () => new Set<string>()),
    extraState: vi.fn(async () => undefined),
    storeRun: vi.fn(options.storeRun ?? (async () => ({ accountRows: 0, contentRows: 0, contentMetricRows: 0 }))),
    release: vi.fn(async () => ({ attempts: 1 })),
  };
  const connection = { id: 7, isActive: true, needsReconnect: false, manual: false, platform: 'linkedin', platformUserId: 'li-1', scope: '' };
  const service = createSyncService({
    repository: repository as unknown as SyncRepository,
    platformsRepository: { findConnectionById: async () => connection } as never,
    custody: { providers: {}, withPlatformAccess: () => platformCall.promise, readProfile: async () => ({}), logPlatformFailure() {} } as never,
    clock,
    intervalMs: 6 * 3_600_000,
    instanceId: 42,
    logger: silent as never,
    // No budgets: LinkedIn is not metered, nothing is read from the database.
    budget: createPlatformBudget({ db: undefined as never, clock, budgetsUsd: {}, logger: silent as never }),
  });
  return { service, repository, platformCall, clock };
}

/** Lets the run's awaited promises settle (no timers involved). */
const settle = async () => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the sync lease heartbeat', () => {
  it('takes the lease as this process, renews it every 20 s while the platform answers, and stops once the run is stored', async () => {
    const { service, repository, platformCall } = setUp();
    const run = service.run(7, 'job-1');
    await settle();
    expect(repository.claim).toHaveBeenCalledWith(7, expect.objectContaining({ owner: 42, jobId: 'job-1' }), expect.any(Date), SYNC_LEASE_MS);
    vi.advanceTimersByTime(3 * SYNC_HEARTBEAT_MS);
    expect(repository.renewLease).toHaveBeenCalledTimes(3);
    platformCall.resolve(OUTPUT);
    expect(await run).toMatchObject({ kind: 'done' });
    vi.advanceTimersByTime(10 * SYNC_HEARTBEAT_MS);
    expect(repository.renewLease).toHaveBeenCalledTimes(3);
  });

  it('stops when the run fails, and counts the failure', async () => {
    const { service, repository, platformCall } = setUp();
    const run = service.run(7, 'job-1');
    await settle();
    vi.advanceTimersByTime(SYNC_HEARTBEAT_MS);
    platformCall.reject(new PlatformError('unavailable', 'linkedin', 'metrics', 'The platform could not answer', { status: 503 }));
    expect(await run).toMatchObject({ kind: 'retry', attempts: 1 });
    expect(repository.release).toHaveBeenCalledWith(7, expect.any(String), expect.objectContaining({ status: 'queued', failed: true }), expect.any(Date));
    vi.advanceTimersByTime(10 * SYNC_HEARTBEAT_MS);
    expect(repository.renewLease).toHaveBeenCalledTimes(1);
  });

  it('stops as soon as a renewal is refused (the run was taken over), and the run then stores and records nothing', async () => {
    let held = true;
    const { service, repository, platformCall } = setUp({
      leaseHeld: () => held,
      // storeRun checks the lease in its transaction: taken over, it refuses.
      storeRun: async () => {
        throw new SyncLeaseLost();
      },
    });
    const run = service.run(7, 'job-1');
    await settle();
    vi.advanceTimersByTime(SYNC_HEARTBEAT_MS);
    held = false;
    vi.advanceTimersByTime(SYNC_HEARTBEAT_MS);
    await settle();
    vi.advanceTimersByTime(5 * SYNC_HEARTBEAT_MS);
    expect(repository.renewLease).toHaveBeenCalledTimes(2);
    expect(silent.warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'sync.lease_lost', connectionId: 7 }), expect.any(String));
    platformCall.resolve(OUTPUT);
    expect(await run).toEqual({ kind: 'skipped', reason: 'another worker took this run over' });
    expect(repository.release).not.toHaveBeenCalled();
  });
});
