// Test helpers for the sync engine: trigger a sync over HTTP, run the queue until idle (no sleeping) through the
// job definition's own handler, read the connection's sync status.
import type PgBoss from 'pg-boss';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { SYNC_JOB, type SyncJobData, type SyncJobs } from '../modules/sync/sync.jobs.ts';
import type { RunOutcome } from '../modules/sync/sync.service.ts';
import { pastJobsDueNow } from './jobs.ts';
import type { ApiResponse, TestServer } from './test-server.ts';

/** POST /api/sync/platform/{id}, then runs the queue until no job is ready; answers the trigger and the status after. */
export async function syncNow(
  server: TestServer,
  token: string,
  connectionId: number,
  options: { ignoreStartAfter?: boolean } = {},
): Promise<{ trigger: ApiResponse; status: ConnectionSyncStatus | undefined }> {
  const trigger = await server.request('POST', `/api/sync/platform/${connectionId}`, { token });
  if (trigger.status !== 202) throw new Error(`sync answered ${trigger.status}: ${JSON.stringify(trigger.body)}`);
  await server.sync.drain(options);
  return { trigger, status: await syncStatusOf(server, token, connectionId) };
}

export async function syncStatusOf(server: TestServer, token: string, connectionId: number): Promise<ConnectionSyncStatus | undefined> {
  const response = await server.request<ConnectionSyncStatus[]>('GET', '/api/sync/status', { token });
  return response.body.find((entry) => entry.connectionId === connectionId);
}

/** A job's end as `drain()` saw it: the run's outcome, or the failure the handler threw after recording it. */
export type DrainedJob = RunOutcome | { kind: 'job_failed'; message: string };

/**
 * Drives the app's sync jobs the way a worker would, without polling or sleeping: `drain()` fetches queued
 * sync-connection jobs and runs the job definition's own handler until none is ready (`ignoreStartAfter` also runs
 * jobs waiting for a retry's backoff or a Retry-After); `job(id)` reads one; `enqueueDue()` is the schedule's work;
 * `recover()` is the recovery sweep each worker process runs every 30 s.
 */
export function createSyncDriver(jobQueue: JobQueue, syncJobs: SyncJobs) {
  const definition = syncJobs.definitions.find((candidate) => candidate.name === SYNC_JOB)!;
  const { boss } = jobQueue;
  return {
    enqueueDue: syncJobs.enqueueDue,
    recover: syncJobs.recoverAbandonedRuns,
    job: (id: string) => boss.getJobById<SyncJobData>(SYNC_JOB, id),
    /** Takes the next ready job as a worker would (it is active from now on), without running it: a worker about to die. */
    async take(): Promise<PgBoss.JobWithMetadata<SyncJobData> | undefined> {
      await pastJobsDueNow(boss, SYNC_JOB);
      const [job] = await boss.fetch<SyncJobData>(SYNC_JOB, { includeMetadata: true, batchSize: 1 });
      return job;
    },
    /** Runs a taken job's handler and never completes the job: a worker that dies right after its work. */
    runWithoutCompleting: (job: PgBoss.JobWithMetadata<SyncJobData>) => definition.handle(job as never) as Promise<RunOutcome>,
    async drain({ ignoreStartAfter = false, maxJobs = 50 }: { ignoreStartAfter?: boolean; maxJobs?: number } = {}): Promise<DrainedJob[]> {
      const outcomes: DrainedJob[] = [];
      if (!ignoreStartAfter) await pastJobsDueNow(boss, SYNC_JOB);
      for (let handled = 0; handled < maxJobs; handled += 1) {
        const [job] = await boss.fetch<SyncJobData>(SYNC_JOB, { includeMetadata: true, batchSize: 1, ignoreStartAfter });
        if (!job) break;
        try {
          outcomes.push((await definition.handle(job as never)) as RunOutcome);
          await boss.complete(SYNC_JOB, job.id);
        } catch (error) {
          outcomes.push({ kind: 'job_failed', message: (error as Error).message });
          await boss.fail(SYNC_JOB, job.id, { message: (error as Error).message });
        }
      }
      return outcomes;
    },
  };
}

export type SyncDriver = ReturnType<typeof createSyncDriver>;
