// A job as a small definition, independent of the queue that runs it: its name, the pg-boss queue options, an
// optional cron schedule, how it is polled, and its handler. Handlers re-read state and upsert, so running one twice
// does no harm. The one queue (job-queue.ts) creates, schedules and works every definition of the list (jobs.ts).
import type PgBoss from 'pg-boss';

export interface JobDefinition<Data extends object = object> {
  name: string;
  /** The pg-boss queue: policy (stately, singleton…), retries and backoff, expiry. */
  queue: Omit<PgBoss.Queue, 'name'>;
  /** A cron expression: pg-boss sends each tick once, whatever the number of processes. */
  schedule?: string;
  /** How a worker fetches it. */
  work: { batchSize?: number; pollingIntervalSeconds: number };
  /** Runs one job; throwing makes pg-boss retry it (or fail it, once its retry budget is spent). */
  handle(job: PgBoss.JobWithMetadata<Data>): Promise<unknown>;
  /**
   * Housekeeping every process that works this job runs for it: once at start-up, before it fetches a job, then
   * every `intervalSeconds` (unlike a schedule, which fires once per tick across all processes). Meant for cheap
   * queries such as finding the runs of a process that died.
   */
  sweep?: { intervalSeconds: number; run(): Promise<unknown> };
}
