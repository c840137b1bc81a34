// Runs one job definition's queued jobs the way a worker would, without polling or sleeping: for the jobs tests
// drive themselves (the test server works no queue). `ignoreStartAfter` also runs jobs waiting for a retry delay.
import type { JobDefinition } from '../jobs/job-definition.ts';
import type { JobQueue } from '../jobs/job-queue.ts';

export function createJobDriver<Data extends object>(jobQueue: JobQueue, definition: JobDefinition<Data>) {
  const { boss } = jobQueue;
  return {
    /** Runs the ready jobs until none is left; answers each one's outcome (the handler's result, or its error). */
    async drain({ ignoreStartAfter = false, maxJobs = 20 }: { ignoreStartAfter?: boolean; maxJobs?: number } = {}) {
      const outcomes: ({ ok: true; result: unknown } | { ok: false; error: string })[] = [];
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
