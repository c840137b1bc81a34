// The one durable job queue of the server (pg-boss), on the embedded PGlite (through the `db.executeSql` adapter) or
// on PostgreSQL (its own pool from the connection string). Every process creates the queues; only processes that
// work jobs (SYNC_WORKERS) poll them and fire the cron schedules, so several processes on one database run each job
// once.
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { JobDefinition } from './job-definition.ts';

export interface JobQueueDeps {
  database: { kind: 'pglite' | 'postgres'; pglite?: PGlite; url?: string };
  /** Work jobs and fire schedules in this process (off in tests, which run the handlers themselves). */
  workers: boolean;
  logger: FastifyBaseLogger;
}

/** PGlite's query() is one statement with parameters; pg-boss also sends parameterless multi-statement DDL. */
function pgliteAdapter(pg: PGlite): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) =>
      values?.length ? { rows: (await pg.query(text, values)).rows } : { rows: (await pg.exec(text)).at(-1)?.rows ?? [] },
  };
}

export function createJobQueue({ database, workers, logger }: JobQueueDeps) {
  const options: PgBoss.ConstructorOptions = {
    schema: 'pgboss',
    // Maintenance and cron timers only where jobs are worked.
    supervise: workers,
    schedule: workers,
  };
  if (database.kind === 'pglite') {
    if (!database.pglite) throw new Error('the embedded database is not open');
    options.db = pgliteAdapter(database.pglite);
  } else {
    if (!database.url) throw new Error('the PostgreSQL connection string is missing');
    options.connectionString = database.url;
    options.max = 4;
  }
  const boss = new PgBoss(options);
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  let started = false;
  const sweepTimers: ReturnType<typeof setInterval>[] = [];
  /** The sweep of each job that is running now: a slow one is not started again on top of itself. */
  const sweepsRunning = new Map<string, Promise<void>>();

  /** Runs a definition's sweep, logging (never throwing) its failure: the next interval tries again. */
  function runSweep(definition: JobDefinition): Promise<void> {
    const running =
      sweepsRunning.get(definition.name) ??
      definition
        .sweep!.run()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, job: definition.name }, 'job sweep failed'),
        )
        .finally(() => sweepsRunning.delete(definition.name));
    sweepsRunning.set(definition.name, running);
    return running;
  }
  const worked: string[] = [];

  return {
    boss,

    /** Starts pg-boss, creates every definition's queue, and (with workers) works and schedules them. */
    async start(definitions: readonly JobDefinition[]) {
      await boss.start();
      started = true;
      for (const definition of definitions) {
        await boss.createQueue(definition.name, { name: definition.name, ...definition.queue });
        // createQueue leaves an existing queue as it was: a changed definition (retries, expiry) takes effect here.
        await boss.updateQueue(definition.name, { name: definition.name, ...definition.queue });
      }
      if (!workers) return;
      for (const definition of definitions) {
        if (!definition.sweep) continue;
        await runSweep(definition);
        const timer = setInterval(() => void runSweep(definition), definition.sweep.intervalSeconds * 1000);
        timer.unref();
        sweepTimers.push(timer);
      }
      for (const definition of definitions) {
        worked.push(definition.name);
        await boss.work<object>(definition.name, { includeMetadata: true, batchSize: definition.work.batchSize ?? 1, pollingIntervalSeconds: definition.work.pollingIntervalSeconds }, async (jobs) => {
          for (const job of jobs) await definition.handle(job);
        });
        if (definition.schedule) await boss.schedule(definition.name, definition.schedule);
      }
    },

    /**
     * The first step of a shutdown: no new job is fetched from now on (one fetched during the drain would have to
     * finish within the grace period or be failed, spending a retry); running jobs go on, and `stop` waits for them.
     */
    async stopFetching() {
      if (!started) return;
      for (const name of worked.splice(0)) await boss.offWork(name);
    },

    /** Lets running jobs finish, then stops (shutdown). */
    async stop() {
      if (!started) return;
      started = false;
      for (const timer of sweepTimers.splice(0)) clearInterval(timer);
      await Promise.all(sweepsRunning.values());
      // Within SHUTDOWN_GRACE_MS (10 s by default), which bounds the whole shutdown.
      await boss.stop({ graceful: true, timeout: 8_000, wait: true });
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
