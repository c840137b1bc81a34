// The sync's jobs on the server's one queue (server/jobs): `sync-connection` { connectionId } runs one attempt of a
// sync, and `sync-schedule` (cron) enqueues every connection that is due, whichever process fires it. The `stately`
// policy with the connection id as singletonKey keeps at most one queued and one running job per connection, and the
// run lease (sync_states) keeps two workers off the same connection.
//
// Retries are ours, not pg-boss's (its retryLimit is 0): the failed attempts are counted in sync_states, so the wait
// keeps growing across jobs, scheduler ticks and restarts (sync-backoff.ts), the connection can say when it tries
// next, and a manual Sync can start afresh. A failed attempt queues the next one as a new job after its backoff; a
// platform's Retry-After reschedules without counting an attempt. A sync gives up, and stops until the user acts,
// when retrying cannot help (malformed answer, not found, revoked access) or after retryLimit + 1 attempts; each
// give-up leaves a dead letter (sync_dead_letters) and one `sync.gave_up` log event for alerting.
//
// Recovery: every worker process sweeps for runs whose worker died (its presence lock is gone) or stopped renewing
// its lease, at start-up and every 30 s; it fails their dead job (which the stately policy would otherwise keep
// active, blocking the connection, for pg-boss's 15-minute expiry) and queues the sync again at once.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { Clock } from '../../lib/clock.ts';
import { backoffDelayMs } from './sync-backoff.ts';
import type { RunOutcome, SyncService } from './sync.service.ts';
import { SYNC_LEASE_MS } from './sync.service.ts';
import type { GiveUpReason, SyncRepository } from './sync.repository.ts';

export const SYNC_JOB = 'sync-connection';
export const SCHEDULE_JOB = 'sync-schedule';
/** How often the scheduler looks for due connections. */
const SCHEDULE_CRON = '*/5 * * * *';
/** How often every worker process looks for runs whose worker died or hung. */
export const RECOVERY_SWEEP_SECONDS = 30;
/** A Retry-After chain longer than this is treated as a failure. */
const MAX_DEFERRALS = 20;
/** A queued sync still waiting this long after its time has lost its job: the scheduler queues it again. */
const LOST_JOB_AFTER_MS = 15 * 60_000;
/** What a connection says while its interrupted run is queued again. */
export const INTERRUPTED_MESSAGE = 'The sync was interrupted: the server running it stopped.';

/**
 * The wait after the n-th throttle (1-based) that came without a time: 1 minute, doubling up to an hour. Meta
 * counts its limits over a rolling hour and often says nothing; a fixed minute would spend all the deferrals in
 * 20 minutes and fail a sync that an hour's patience would have finished.
 */
export function unsignalledThrottleWaitSeconds(deferral: number): number {
  return Math.min(3600, 60 * 2 ** Math.max(0, deferral - 1));
}

export interface SyncJobData {
  connectionId: number;
  /** How many times this sync was put off by a 429 or a busy connection. */
  deferrals?: number;
  /** A retry after this many failed attempts (waiting out its backoff). */
  retry?: number;
}

export interface SyncJobsConfig {
  /** Retries after the first failed attempt; attempt retryLimit + 1 is the last. */
  retryLimit: number;
  /** The first retry's backoff step; each later one doubles. */
  retryDelaySeconds: number;
  /** No backoff step is longer. */
  retryMaxDelaySeconds: number;
}

export interface SyncJobsDeps {
  /** The server's pg-boss instance (server/jobs/job-queue.ts). */
  boss: PgBoss;
  service: SyncService;
  repository: SyncRepository;
  clock: Clock;
  config: SyncJobsConfig;
  /** This process's instance id (server/jobs/worker-presence.ts): the recovery sweep leaves its own runs alone. */
  instanceId: number;
  logger: FastifyBaseLogger;
  /** Where the backoff's jitter comes from (default Math.random). */
  random?: () => number;
  /**
   * Told when a sync stops for a reason only the user can fix (reconnecting, a refused or missing account): the
   * alerts feature's reconnect notice and email (decision 015). Its failure is logged, never the sync's.
   */
  onUserMustAct?: (event: { connectionId: number; message: string }) => Promise<void>;
  /** Told after each stored run: the follower milestone and top post alerts (decisions 015, 018). Its failure is logged, never the sync's. */
  onStored?: (event: { connectionId: number; followersBefore: number | null; followersAfter: number }) => Promise<void>;
  /** Every run's outcome and duration, as it ends (the metrics). Must not throw. */
  onRunSettled?: (event: { connectionId: number; outcome: RunOutcome; seconds: number }) => Promise<void>;
}

export function createSyncJobs({ boss, service, repository, clock, config, instanceId, logger, random = Math.random, onUserMustAct, onStored, onRunSettled }: SyncJobsDeps) {
  const backoff = { baseMs: config.retryDelaySeconds * 1000, capMs: config.retryMaxDelaySeconds * 1000 };
  const sql = (text: string, values: unknown[]) => boss.getDb().executeSql(text, values);

  async function activeJobId(connectionId: number): Promise<{ id: string; state: string } | undefined> {
    const result = await sql(
      `select id::text as id, state::text as state from pgboss.job where name = $1 and singleton_key = $2 and state in ('created', 'retry', 'active') order by (state = 'active') desc, created_on desc limit 1`,
      [SYNC_JOB, String(connectionId)],
    );
    return result.rows[0] as { id: string; state: string } | undefined;
  }

  /** Queues a sync of the connection (now, or after `startAfterSeconds`); an already queued one is answered instead. */
  async function enqueue(
    connectionId: number,
    options: { startAfterSeconds?: number; deferrals?: number; retry?: number } = {},
  ): Promise<{ jobId: string; status: 'queued' | 'running' }> {
    const data: SyncJobData = { connectionId, ...(options.deferrals ? { deferrals: options.deferrals } : {}), ...(options.retry ? { retry: options.retry } : {}) };
    const id = await boss.send(SYNC_JOB, data, {
      singletonKey: String(connectionId),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
    const now = clock.now();
    const nextRunAt = new Date(now.getTime() + (options.startAfterSeconds ?? 0) * 1000);
    if (id) {
      const state = await repository.state(connectionId);
      // A running sync keeps showing as running; the queued follow-up is its next run.
      if (state?.status === 'running' && state.leaseUntil && state.leaseUntil > now) await repository.setStatus(connectionId, { status: 'running', nextRunAt }, now);
      else await repository.setStatus(connectionId, { status: 'queued', jobId: id, nextRunAt }, now);
      return { jobId: id, status: 'queued' };
    }
    // Deduplicated: one is queued (or running) already.
    const existing = await activeJobId(connectionId);
    if (!existing) throw new Error('the sync job could not be queued');
    return { jobId: existing.id, status: existing.state === 'active' ? 'running' : 'queued' };
  }

  /**
   * The user pressed Sync: the failure count starts again, a stopped sync runs again, and a retry waiting out its
   * backoff runs now. A platform's Retry-After is still honoured: asking sooner would only be refused again.
   */
  async function requestNow(connectionId: number): Promise<{ jobId: string; status: 'queued' | 'running' }> {
    await repository.resetFailures(connectionId, clock.now());
    await sql(
      `update pgboss.job set start_after = now() where name = $1 and singleton_key = $2 and state in ('created', 'retry') and not (data ? 'deferrals') and start_after > now()`,
      [SYNC_JOB, String(connectionId)],
    );
    return enqueue(connectionId);
  }

  /** Stops the connection's sync until the user acts: a dead letter for the operator and one alert event. */
  async function giveUp(connectionId: number, entry: { jobId: string | null; attempts: number; reason: GiveUpReason; message: string }) {
    const now = clock.now();
    await repository.setStatus(connectionId, { status: 'failed', message: entry.message, nextRunAt: null }, now);
    const owner = await repository.addDeadLetter(connectionId, { jobId: entry.jobId, attempts: entry.attempts, reason: entry.reason, lastError: entry.message }, now);
    // Retrying cannot fix it (the user must act): a warning. Retries spent, or runs that keep dying: an error to page on.
    const level = entry.reason === 'not_retryable' ? 'warn' : 'error';
    logger[level](
      { event: 'sync.gave_up', connectionId, userId: owner?.userId, platform: owner?.platform, jobId: entry.jobId, attempts: entry.attempts, reason: entry.reason, error: entry.message },
      'sync gave up: stopped until the user acts',
    );
    if (owner && entry.reason === 'not_retryable' && onUserMustAct) {
      await onUserMustAct({ connectionId, message: entry.message }).catch((error: unknown) =>
        logger.error({ event: 'alert.failed', connectionId, err: error }, 'the reconnect alert could not be created'),
      );
    }
  }

  /** A failed attempt: the next one after its backoff, or the give-up once attempt retryLimit + 1 has failed. */
  async function afterFailure(connectionId: number, jobId: string, attempts: number, message: string) {
    if (attempts > config.retryLimit) return giveUp(connectionId, { jobId, attempts, reason: 'retries_exhausted', message });
    const delayMs = backoffDelayMs(attempts, backoff, random);
    await enqueue(connectionId, { startAfterSeconds: Math.max(1, Math.ceil(delayMs / 1000)), retry: attempts });
    logger.info({ event: 'sync.retry_scheduled', connectionId, jobId, attempts, delayMs }, 'sync attempt failed; retrying after backoff');
  }

  /** What the queue does with a run's outcome. Throwing marks the pg-boss job failed (it is never retried by pg-boss). */
  async function settle(job: PgBoss.JobWithMetadata<SyncJobData>, outcome: RunOutcome): Promise<void> {
    const { connectionId } = job.data;
    const now = clock.now();
    if (outcome.kind === 'done' && onStored) {
      await onStored({ connectionId, followersBefore: outcome.followers.before, followersAfter: outcome.followers.after }).catch((error: unknown) =>
        logger.error({ event: 'alert.failed', connectionId, err: error }, 'an alert after the sync could not be created'),
      );
    }
    if (outcome.kind === 'done' || outcome.kind === 'skipped') return;
    if (outcome.kind === 'defer') {
      const deferrals = (job.data.deferrals ?? 0) + 1;
      if (deferrals <= MAX_DEFERRALS) {
        const seconds = Math.max(1, Math.ceil(outcome.seconds ?? unsignalledThrottleWaitSeconds(deferrals)));
        await enqueue(connectionId, { startAfterSeconds: seconds, deferrals });
        await repository.setStatus(connectionId, { status: 'queued', message: outcome.message, nextRunAt: new Date(now.getTime() + seconds * 1000) }, now);
        return;
      }
      // Put off too often: this counts as a failed attempt.
      const attempts = await repository.countFailure(connectionId, outcome.message, now);
      await afterFailure(connectionId, job.id, attempts, outcome.message);
      throw new Error(outcome.message);
    }
    if (outcome.kind === 'failed') await giveUp(connectionId, { jobId: job.id, attempts: outcome.attempts, reason: 'not_retryable', message: outcome.message });
    else await afterFailure(connectionId, job.id, outcome.attempts, outcome.message);
    throw new Error(outcome.message);
  }

  async function handle(job: PgBoss.JobWithMetadata<SyncJobData>): Promise<RunOutcome> {
    const started = performance.now();
    const outcome = await service.run(job.data.connectionId, job.id);
    await onRunSettled?.({ connectionId: job.data.connectionId, outcome, seconds: (performance.now() - started) / 1000 });
    await settle(job, outcome);
    return outcome;
  }

  /** Enqueues every active connection whose next sync is due (duplicates are refused by the singletonKey). */
  async function enqueueDue(limit = 500): Promise<number> {
    const due = await repository.dueConnections(clock.now(), limit, LOST_JOB_AFTER_MS);
    for (const connectionId of due) await enqueue(connectionId);
    return due.length;
  }

  /**
   * The recovery sweep: takes over runs whose worker died or stopped renewing the lease, fails their dead pg-boss
   * job, and queues the sync again now (or gives up, when runs of this connection keep dying). Then fails sync jobs
   * left active by a worker that died before taking the lease or after giving it back, queueing again the
   * connections that were waiting for them.
   */
  async function recoverAbandonedRuns(): Promise<{ runs: number; jobs: number }> {
    const abandoned = await repository.takeAbandonedRuns(clock.now(), instanceId, INTERRUPTED_MESSAGE);
    for (const run of abandoned) {
      if (run.jobId) await boss.fail(SYNC_JOB, run.jobId, { message: 'the worker running this sync stopped; the sync was queued again' });
      logger.warn({ event: 'sync.run_recovered', connectionId: run.connectionId, jobId: run.jobId, deadOwner: run.owner, attempts: run.attempts }, 'took over a sync whose worker stopped');
      if (run.attempts > config.retryLimit) await giveUp(run.connectionId, { jobId: run.jobId, attempts: run.attempts, reason: 'interrupted', message: INTERRUPTED_MESSAGE });
      else await enqueue(run.connectionId);
    }
    // pg-boss keeps its own clock (the database's); a live run takes its lease within moments of being fetched.
    const orphans = (
      await sql(
        `select j.id::text as id, j.singleton_key as key from pgboss.job j
         where j.name = $1 and j.state = 'active' and j.started_on < now() - make_interval(secs => $2)
           and not exists (select 1 from sync_states s where s.connection_id::text = j.singleton_key and s.status = 'running' and s.job_id = j.id::text)`,
        [SYNC_JOB, SYNC_LEASE_MS / 1000],
      )
    ).rows as { id: string; key: string }[];
    for (const orphan of orphans) {
      await boss.fail(SYNC_JOB, orphan.id, { message: 'the worker that fetched this sync stopped' });
      const connectionId = Number(orphan.key);
      logger.warn({ event: 'sync.job_recovered', connectionId, jobId: orphan.id }, 'failed a sync job whose worker stopped');
      if ((await repository.state(connectionId))?.status === 'queued') await enqueue(connectionId);
    }
    return { runs: abandoned.length, jobs: orphans.length };
  }

  const syncConnection: JobDefinition<SyncJobData> = {
    name: SYNC_JOB,
    // retryLimit 0: a failed attempt is retried by settle() as a new job, on our backoff. The expiry bounds one
    // attempt; a dead worker's job is failed by the sweep long before.
    queue: { policy: 'stately', retryLimit: 0, expireInSeconds: 15 * 60 },
    work: { batchSize: 1, pollingIntervalSeconds: 2 },
    handle,
    sweep: { intervalSeconds: RECOVERY_SWEEP_SECONDS, run: recoverAbandonedRuns },
  };
  const syncSchedule: JobDefinition = {
    name: SCHEDULE_JOB,
    queue: { policy: 'singleton' },
    schedule: SCHEDULE_CRON,
    work: { pollingIntervalSeconds: 30 },
    async handle() {
      const queued = await enqueueDue();
      if (queued > 0) logger.info({ queued }, 'scheduled syncs queued');
    },
  };

  return { enqueue, requestNow, enqueueDue, recoverAbandonedRuns, definitions: [syncConnection, syncSchedule] as const };
}

export type SyncJobs = ReturnType<typeof createSyncJobs>;
