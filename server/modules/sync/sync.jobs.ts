// The sync's jobs on the server's one queue (server/jobs): `sync-connection` { connectionId } runs one sync, and
// `sync-schedule` (cron) enqueues every connection that is due, whichever process fires it. Retries back off
// exponentially with jitter (pg-boss's retryBackoff); a platform's Retry-After reschedules the work as a new job
// (startAfter) without spending the retry budget; the `stately` policy with the connection id as singletonKey keeps
// at most one queued and one running job per connection, and the run lease (sync_states) keeps two workers off the
// same connection.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RunOutcome, SyncService } from './sync.service.ts';
import type { SyncRepository } from './sync.repository.ts';

export const SYNC_JOB = 'sync-connection';
export const SCHEDULE_JOB = 'sync-schedule';
/** How often the scheduler looks for due connections. */
const SCHEDULE_CRON = '*/5 * * * *';
/** A Retry-After chain longer than this is treated as a failure. */
const MAX_DEFERRALS = 20;

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
}

export interface SyncJobsConfig {
  retryLimit: number;
  retryDelaySeconds: number;
}

export interface SyncJobsDeps {
  /** The server's pg-boss instance (server/jobs/job-queue.ts). */
  boss: PgBoss;
  service: SyncService;
  repository: SyncRepository;
  clock: Clock;
  config: SyncJobsConfig;
  logger: FastifyBaseLogger;
}

export function createSyncJobs({ boss, service, repository, clock, config, logger }: SyncJobsDeps) {
  async function activeJobId(connectionId: number): Promise<{ id: string; state: string } | undefined> {
    const result = await boss
      .getDb()
      .executeSql(
        `select id::text as id, state::text as state from pgboss.job where name = $1 and singleton_key = $2 and state in ('created', 'retry', 'active') order by (state = 'active') desc, created_on desc limit 1`,
        [SYNC_JOB, String(connectionId)],
      );
    return result.rows[0] as { id: string; state: string } | undefined;
  }

  /** Queues a sync of the connection (now, or after `startAfterSeconds`); an already queued one is answered instead. */
  async function enqueue(connectionId: number, options: { startAfterSeconds?: number; deferrals?: number } = {}): Promise<{ jobId: string; status: 'queued' | 'running' }> {
    const data: SyncJobData = { connectionId, ...(options.deferrals ? { deferrals: options.deferrals } : {}) };
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

  /** What the queue does with a run's outcome. Throwing makes pg-boss retry (or fail, when the budget is spent). */
  async function settle(job: PgBoss.JobWithMetadata<SyncJobData>, outcome: RunOutcome): Promise<void> {
    const { connectionId } = job.data;
    const now = clock.now();
    if (outcome.kind === 'done' || outcome.kind === 'skipped' || outcome.kind === 'failed') return;
    if (outcome.kind === 'defer') {
      const deferrals = (job.data.deferrals ?? 0) + 1;
      if (deferrals <= MAX_DEFERRALS) {
        const seconds = Math.max(1, Math.ceil(outcome.seconds ?? unsignalledThrottleWaitSeconds(deferrals)));
        await enqueue(connectionId, { startAfterSeconds: seconds, deferrals });
        await repository.setStatus(connectionId, { status: 'queued', message: outcome.message, nextRunAt: new Date(now.getTime() + seconds * 1000) }, now);
        return;
      }
    }
    const message = outcome.message;
    if (job.retryCount >= job.retryLimit) {
      await repository.setStatus(connectionId, { status: 'failed', message, nextRunAt: null }, now);
    } else {
      await repository.setStatus(connectionId, { status: 'queued', message: `${message} Retrying.`, nextRunAt: null }, now);
    }
    throw new Error(message);
  }

  async function handle(job: PgBoss.JobWithMetadata<SyncJobData>): Promise<RunOutcome> {
    const outcome = await service.run(job.data.connectionId, job.id);
    await settle(job, outcome);
    return outcome;
  }

  /** Enqueues every active connection whose next sync is due (duplicates are refused by the singletonKey). */
  async function enqueueDue(limit = 500): Promise<number> {
    const due = await repository.dueConnections(clock.now(), limit);
    for (const connectionId of due) await enqueue(connectionId);
    return due.length;
  }

  const syncConnection: JobDefinition<SyncJobData> = {
    name: SYNC_JOB,
    queue: { policy: 'stately', retryLimit: config.retryLimit, retryDelay: config.retryDelaySeconds, retryBackoff: true, expireInSeconds: 15 * 60 },
    work: { batchSize: 1, pollingIntervalSeconds: 2 },
    handle,
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

  return { enqueue, enqueueDue, definitions: [syncConnection, syncSchedule] as const };
}

export type SyncJobs = ReturnType<typeof createSyncJobs>;
