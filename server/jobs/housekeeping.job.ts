// Housekeeping as a job on the server's one queue: every hour, the tables that grow with traffic rather than with
// data (analytics answers, rate-limit buckets) are cut back to what can still be used. pg-boss sends each tick once
// whatever the number of processes; the deletes are idempotent, so an overlapping run does no harm.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { pruneRateLimitBuckets } from '../lib/rate-limiter.ts';
import type { JobDefinition } from './job-definition.ts';

export const HOUSEKEEPING_JOB = 'housekeeping';
const HOURLY = '17 * * * *';

export interface Housekeeping {
  /** Deletes what no request can use any more; answers the rows deleted per table. */
  run(): Promise<{ analyticsCache: number; rateLimitBuckets: number }>;
}

/** `pruneAnalyticsCache` comes from the analytics feature, which owns that table (composed in server/app.ts). */
export function createHousekeeping({ db, clock, pruneAnalyticsCache }: { db: Database; clock: Clock; pruneAnalyticsCache: (db: Database, now: Date) => Promise<number> }): Housekeeping {
  return {
    async run() {
      const now = clock.now();
      return { analyticsCache: await pruneAnalyticsCache(db, now), rateLimitBuckets: await pruneRateLimitBuckets(db, now) };
    },
  };
}

export function housekeepingJob(housekeeping: Housekeeping, logger: FastifyBaseLogger): JobDefinition {
  return {
    name: HOUSEKEEPING_JOB,
    queue: { policy: 'singleton', expireInSeconds: 15 * 60 },
    schedule: HOURLY,
    work: { pollingIntervalSeconds: 60 },
    async handle() {
      const deleted = await housekeeping.run();
      logger.info({ event: 'housekeeping.pruned', ...deleted }, 'housekeeping pruned');
    },
  };
}
