// Runs one job definition's queued jobs the way a worker would, without polling or sleeping: for the jobs tests
// drive themselves (the test server works no queue). `ignoreStartAfter` also runs jobs waiting for a retry delay.
import type { JobDefinition } from '../jobs/job-definition.ts';
import type { JobQueue } from '../jobs/job-queue.ts';

/**
 * Waits (a millisecond at most) until the database clock has passed the start of every job of the queue due now.
 * pg-boss fetches jobs with `start_after < now()`, and PGlite's clock counts whole milliseconds: a job sent in the
 * same millisecond as the fetch is not fetched. A worker would fetch it at its next poll; a test drains once, and
 * would read nothing (a possible cause of two PGlite-only failures in CI where a drain found no job that was due).
 * On PostgreSQL, whose clock counts microseconds, this practically never waits.
 */
export async function pastJobsDueNow(boss: JobQueue['boss'], name: string) {
  const db = boss.getDb();
  for (;;) {
    const { rows } = await db.executeSql(`select exists (select 1 from pgboss.job where name = $1 and state < 'active' and start_after = now()) as waiting`, [name]);
    if (!(rows[0] as { waiting: boolean }).waiting) return;
  }
}

export function createJobDriver<Data extends object>(jobQueue: JobQueue, definition: JobDefinition<Data>) {
  const { boss } = jobQueue;
  return {
    /** Runs the ready jobs until none is left; answers each one's outcome (the handler's result, or its error). */
    async drain({ ignoreStartAfter = false, maxJobs = 20 }: { ignoreStartAfter?: boolean; maxJobs?: number } = {}) {
      const outcomes: ({ ok: true; result: unknown } | { ok: false; error: string })[] = [];
      if (!ignoreStartAfter) await pastJobsDueNow(boss, definition.name);
      for (let handled = 0; handled < maxJobs; handled += 1) {
        const [job] = await boss.fetch<Data>(definition.name, { includeMetadata: true, batchSize: 1, ignoreStartAfter });
        if (!job) break;
        try {
          outcomes.push({ ok: true, result: await definition.handle(job) });
          await boss.complete(definition.name, job.id);
        } catch (error) {
          outcomes.push({ ok: false, error: (error as Error).message });
          await boss.fail(definition.name, job.id, { message: (error as Error).message });
        }
      }
      return outcomes;
    },
  };
}
