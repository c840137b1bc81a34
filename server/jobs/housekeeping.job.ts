// Housekeeping as a job on the server's one queue: every hour, the tables that grow with traffic rather than with
// data (analytics answers, rate-limit buckets, the registry rows of streams whose process died, the sync's dead
// letters, the young posts' timed reads) are cut back to what can still be used; and on the embedded PGlite, which
// has no autovacuum daemon, the planner's statistics are refreshed (ANALYZE), so its plans follow the data as
// PostgreSQL's do. pg-boss sends each tick once whatever the number of processes; the deletes are idempotent, so an
// overlapping run does no harm.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { pruneRateLimitBuckets } from '../lib/rate-limiter.ts';
import type { JobDefinition } from './job-definition.ts';

export const HOUSEKEEPING_JOB = 'housekeeping';
const HOURLY = '17 * * * *';

/** Deletes a table's rows that nothing can use any more at `now`; answers how many. */
export type Prune = (db: Database, now: Date) => Promise<number>;

export interface Housekeeping {
  /** Deletes what no request can use any more, then refreshes statistics where asked; answers the rows deleted per table. */
  run(): Promise<Record<string, number>>;
}

/**
 * ANALYZE of the whole database, for PGlite only: PostgreSQL's autovacuum analyzes a table once enough of it changed,
 * PGlite has no such daemon, so a table filled by syncs kept the statistics of its empty self (the planner then
 * guessed one row, and a join chose a nested loop over thousands).
 */
export const refreshPlannerStatistics = async (db: Database) => {
  await db.execute(sql`analyze`);
};

/**
 * `prunes`: each feature's pruning of the tables it owns, by table (composed in server/app.ts); the rate-limit
 * buckets belong to the server's shared rate limiter.
 */
export function createHousekeeping({
  db,
  clock,
  prunes,
  refreshStatistics,
}: {
  db: Database;
  clock: Clock;
  prunes: Record<string, Prune>;
  /** Refreshes the planner's statistics after the prunes (the embedded PGlite: refreshPlannerStatistics). */
  refreshStatistics?: (db: Database) => Promise<void>;
}): Housekeeping {
  const all: Record<string, Prune> = { ...prunes, rateLimitBuckets: pruneRateLimitBuckets };
  return {
    async run() {
      const now = clock.now();
      const deleted: Record<string, number> = {};
      for (const [table, prune] of Object.entries(all)) deleted[table] = await prune(db, now);
      await refreshStatistics?.(db);
      return deleted;
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
