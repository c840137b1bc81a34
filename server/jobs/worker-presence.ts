// A server process's presence in the database: a session-level advisory lock on a random instance id, held on a
// connection of its own for as long as the process lives. When a process dies, even by kill -9, the kernel closes
// its sockets, PostgreSQL ends its session and releases the lock (PGlite belongs to one process: a restart starts
// without it). Another process can therefore tell at once that the owner of a sync lease is gone, by reading
// pg_locks, instead of waiting for the lease to run out. The lease and its heartbeat stay the rule for an owner that
// is alive but stuck.
import { randomInt } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { holdDedicatedConnection } from '../lib/dedicated-connection.ts';

/** The first half of every presence lock's key (ASCII "SYNC"), so presence locks never collide with other advisory locks. */
export const PRESENCE_LOCK_CLASS = 0x53594e43;

/**
 * True while the process with this instance id holds its presence lock in the current database. `owner` is a SQL
 * expression of the instance id (e.g. a column).
 */
export const ownerIsPresent = (owner: SQL) => sql`exists (
  select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${PRESENCE_LOCK_CLASS}::bigint::oid and l.objid::bigint = ${owner})`;

export interface WorkerPresence {
  /** This process's instance id, recorded as the owner of the leases it takes. */
  readonly instanceId: number;
  /** Takes the presence lock; resolves once it is held. */
  start(): Promise<void>;
  /** Releases it (a clean shutdown; a crash releases it too). */
  close(): Promise<void>;
}

export function createWorkerPresence({ database, logger }: { database: { kind: 'pglite' | 'postgres'; pglite?: PGlite; url?: string }; logger: FastifyBaseLogger }): WorkerPresence {
  // Positive 31-bit, so pg_locks shows it as the same number in objid. A clash of two live processes (one in two
  // billion) would only make a dead owner look alive, and its leases are then taken over when they run out.
  const instanceId = randomInt(1, 2 ** 31 - 1);
  const lockSql = `select pg_advisory_lock(${PRESENCE_LOCK_CLASS}, ${instanceId})`;
  let stop: (() => Promise<void>) | undefined;

  // While the lock is lost, other processes take over this one's running syncs; those runs then fail to renew
  // their leases and stop without writing (sync.service.ts), so nothing is stored twice.
  async function holdOnPostgres(url: string) {
    stop = await holdDedicatedConnection({
      url,
      logger,
      what: 'worker presence',
      logContext: { instanceId },
      applicationName: `analytics-hub worker ${instanceId}`,
      setUp: async (client) => {
        await client.query(lockSql);
      },
    });
  }

  return {
    instanceId,
    async start() {
      if (database.kind === 'pglite') {
        if (!database.pglite) throw new Error('the embedded database is not open');
        const pglite = database.pglite;
        await pglite.query(lockSql);
        stop = async () => {
          if (!pglite.closed) await pglite.query(`select pg_advisory_unlock(${PRESENCE_LOCK_CLASS}, ${instanceId})`);
        };
      } else {
        if (!database.url) throw new Error('the PostgreSQL connection string is missing');
        await holdOnPostgres(database.url);
      }
    },
    async close() {
      await stop?.();
    },
  };
}
