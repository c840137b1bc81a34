// Runs once per test run: builds a migrated template database that every test file copies, so each
// file starts from a clean schema in a fraction of a second (PGlite's initdb alone takes ~2 s).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type DatabaseHandle, openPostgres, wrapPglite } from '../db/client.ts';
import { startTestServer } from './test-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | undefined;
    postgresTemplate: string | undefined;
    pgliteTemplateFile: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  project.provide('databaseUrl', databaseUrl);
  if (databaseUrl) {
    const template = `ah_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const templateUrl = new URL(databaseUrl);
    templateUrl.pathname = `/${template}`;
    const handle = openPostgres(templateUrl.toString(), { max: 2 });
    await handle.migrate();
    await installJobQueue(handle, templateUrl.toString());
    await handle.close();
    // CREATE DATABASE … TEMPLATE needs the template to itself: end any session the app's pools left behind.
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [template]);
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplateFile', undefined);
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), 'ah-template-'));
  const pglite = await PGlite.create();
  // PGlite never creates a database, so the copies need neither template database: two thirds of the catalog files
  // fewer make each copy about a quarter cheaper to load (about 0.25 s of a core per test server, issue 26).
  await pglite.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  await pglite.exec('drop database template0');
  await pglite.exec('drop database template1');
  const handle = wrapPglite(pglite);
  await handle.migrate();
  await installJobQueue(handle, undefined);
  await pglite.exec('checkpoint');
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(directory, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide('postgresTemplate', undefined);
  project.provide('pgliteTemplateFile', file);
  return () => rmSync(directory, { recursive: true, force: true });
}

/**
 * Starts the app once on the template and closes it, so every copy already holds the job queue's schema and queues:
 * each test server would otherwise install them again (pg-boss's tables, functions and a partition per queue; about
 * half a second a server on PGlite, issue 26). The app writes nothing else at start-up (its presence is an advisory
 * lock, and test servers run no workers or schedules).
 */
async function installJobQueue(handle: DatabaseHandle, url: string | undefined) {
  const server = await startTestServer({ database: { handle, url, drop: async () => {} } });
  await server.close();
}
