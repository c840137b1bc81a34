// A fresh, migrated database for one test file: a copy of the run's template on PostgreSQL or PGlite.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openPostgres, wrapPglite } from '../db/client.ts';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Connection string of this copy (PostgreSQL only), for tests that start more processes. */
  url: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const databaseUrl = inject('databaseUrl');
  const template = inject('postgresTemplate');
  if (databaseUrl && template) {
    const name = `ah_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    // A test database is thrown away at the end: its commits need not wait for the disk. Waiting for each commit's WAL
    // flush was most of the PostgreSQL runs' time (a core sat idle beside them; issue 26). Durability is not what
    // these tests test; the statements, locks and isolation are PostgreSQL's own either way.
    await admin.query(`alter database ${name} set synchronous_commit = off`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const handle = openPostgres(url.toString(), { max: 10 });
    return {
      handle,
      url: url.toString(),
      async drop() {
        await handle.close().catch(() => {});
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const pglite = await PGlite.create({ loadDataDir: pgliteTemplate() });
  const handle = wrapPglite(pglite);
  return {
    handle,
    url: undefined,
    async drop() {
      await handle.close().catch(() => {});
    },
  };
}

/**
 * Makes `dataDir`'s embedded database a copy of the run's migrated template (PGlite runs only), for tests that start
 * server/main.ts on PGlite without testing a first start: a fresh data directory costs about 6 s of a core in initdb
 * per process (issue 26); the copy takes about 1.5 s.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const pglite = await PGlite.create(path.join(dataDir, 'pglite'), { loadDataDir: pgliteTemplate() });
  await pglite.close();
}

/** The run's migrated PGlite template (global-setup.ts), as PGlite loads a data directory. */
function pgliteTemplate(): Blob {
  return new Blob([readFileSync(inject('pgliteTemplateFile')!)]);
}
