// The database: embedded PGlite under DATA_DIR by default, or a real PostgreSQL when DATABASE_URL is set.
// The rest of the server sees one Drizzle type and never knows which one it has.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of the database, as drizzle hands it to `db.transaction`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The database or a transaction of it: what a write that may run inside another's transaction takes. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  /** True when the database answers and no migration is pending (PostgreSQL: within about a second). */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
  /** Raw PGlite instance for the job queue adapter (embedded mode only). */
  pglite?: PGlite;
  /** Raw pg pool (PostgreSQL mode only). */
  pool?: pg.Pool;
  /** The connection string (PostgreSQL mode only), for the job queue's own pool. */
  url?: string;
}

/** SQL text: the values as a comma-separated list of parameters, for `in (…)` and `array[…]`. */
export const sqlList = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// Any fixed 64-bit number: every process agrees on it, so migrations run in one of them at a time.
const MIGRATION_LOCK_ID = 7_241_865_325_823_964n;

async function countMigrationFiles(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedMigrationCount(db: Database): Promise<number> {
  const rows = await queryRows<{ count: string }>(db, sql`select count(*)::text as count from drizzle.__drizzle_migrations`);
  return Number(rows[0]?.count ?? 0);
}

/**
 * True when the database answers and no migration is pending. `timeoutMs` bounds the wait for a database across the
 * network (one that hangs would hold every probe); it is counted in time the process could have read the answer
 * (see `answeredWithin`). The embedded PGlite has no timeout: it runs inside this process, so a slow answer is this
 * process's own queue of queries (a first start stores the ECB history), not a database that went away; a probe
 * that waits for it is told the truth once the queue has moved.
 */
function readinessCheck(db: Database, timeoutMs: number | undefined) {
  const check = async () => {
    try {
      const [expected, applied] = await Promise.all([countMigrationFiles(), appliedMigrationCount(db)]);
      return applied >= expected;
    } catch {
      return false;
    }
  };
  return timeoutMs === undefined ? check : () => answeredWithin(check(), timeoutMs);
}

/** The longest stretch between two ticks that counts towards a timeout: the rest of a longer gap was a stall. */
const LONGEST_COUNTED_TICK_MS = 100;
const TICK_MS = 25;

/**
 * `check`'s answer, or false once it has had `ms` of the event loop's responsive time. A wall-clock timer would
 * also fire when the loop itself was blocked (a start-up's first work, a loaded machine): the timer and the answer
 * both wait, the timer runs first, and a database that had answered reads as down. Here a tick counts at most
 * LONGEST_COUNTED_TICK_MS however late it came, and the verdict waits one turn of the loop (setImmediate runs after
 * the poll phase), so an answer that arrived during a stall is read first.
 */
export function answeredWithin(check: Promise<boolean>, ms: number): Promise<boolean> {
  let interval: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    let counted = 0;
    let last = performance.now();
    interval = setInterval(() => {
      const now = performance.now();
      counted += Math.min(now - last, LONGEST_COUNTED_TICK_MS);
      last = now;
      if (counted < ms) return;
      clearInterval(interval);
      immediate = setImmediate(() => resolve(false));
    }, TICK_MS);
  });
  return Promise.race([check.catch(() => false), timeout]).finally(() => {
    clearInterval(interval);
    if (immediate) clearImmediate(immediate);
  });
}

/** How long readiness waits for PostgreSQL before it answers "not ready". */
const POSTGRES_READINESS_TIMEOUT_MS = 1_000;

/**
 * Settings every connection of ours starts with, sent in the startup packet (no extra round trip).
 *
 * `jit=off`: PostgreSQL compiles a query to machine code when its estimated cost passes `jit_above_cost`, and two years
 * of daily rows make the estimates of our range reads large although each reads a few hundred rows through an index.
 * On a stock server (jit on) that compilation was most of a cold answer: the summary's p95 went from about 1.4 s to
 * 0.23 s with jit off on the same data (bench/realistic.ts). Our queries are short index reads, where JIT never pays.
 */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = { jit: 'off' };

/**
 * The connection string with SESSION_SETTINGS in its `options` startup parameter, before whatever the operator's URL
 * already asked for there (`?options=-c …`), so an operator's own setting of the same name wins. (pg lets a URL's
 * parameters override the pool's, so the settings go into the URL itself.) A string that is not a URL is passed on as
 * it is: pg reports it at connect, and such a pool runs with the server's defaults.
 */
export function withSessionSettings(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl;
  }
  const ours = Object.entries(SESSION_SETTINGS).map(([name, value]) => `-c ${name}=${value}`);
  const theirs = url.searchParams.get('options');
  url.searchParams.set('options', [...ours, ...(theirs ? [theirs] : [])].join(' '));
  return url.toString();
}

export function openPostgres(databaseUrl: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: withSessionSettings(databaseUrl),
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
  });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    pool,
    url: databaseUrl,
    async migrate() {
      // A blocking session-level advisory lock on one dedicated connection: later processes wait,
      // then find nothing left to apply.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID.toString()]);
        try {
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID.toString()]);
        }
      } finally {
        client.release();
      }
    },
    isReady: readinessCheck(db, POSTGRES_READINESS_TIMEOUT_MS),
    close: () => pool.end(),
  };
}

export function wrapPglite(pglite: PGlite): DatabaseHandle {
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite,
    // PGlite is one process's own database: there is nobody to race with.
    migrate: () => migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder }),
    isReady: readinessCheck(db, undefined),
    close: () => pglite.close(),
  };
}

export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const directory = path.join(dataDir, 'pglite');
  // PGlite's own mkdir is not recursive.
  mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(directory);
  return wrapPglite(pglite);
}

export async function openDatabase(config: { databaseUrl: string | undefined; dataDir: string }): Promise<DatabaseHandle> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
