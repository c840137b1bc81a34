// The real server, started in-process for a bench: the sandbox mailbox, the product's config, its migrate path and
// buildApp, listening on a loopback port. Sync workers are off: only the API is measured.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { startSandboxMailbox } from '../../sandbox/mailbox/mailbox.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type DatabaseHandle, openPostgres, wrapPglite } from '../../server/db/client.ts';

export interface BenchServer {
  base: string;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * Starts the server against `databaseUrl` (PostgreSQL, a pool of `poolMax`, else the product's own default) or, without one, an in-memory PGlite.
 * The database is migrated first, as `npm start` does.
 */
export async function startBenchServer(options: { databaseUrl: string | undefined; poolMax?: number; env?: Record<string, string> }): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-'));
  const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const mailbox = await startSandboxMailbox({ directory: path.join(dataDir, 'mail'), logger: { info: () => {} } });
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, SMTP_URL: mailbox.smtpUrl, LOG_LEVEL: 'silent', SYNC_WORKERS: 'off', ...options.env };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const config = loadConfig(env);
  const database = options.databaseUrl ? openPostgres(options.databaseUrl, options.poolMax ? { max: options.poolMax } : {}) : wrapPglite(await PGlite.create());
  await database.migrate();
  const { app } = await buildApp({ config, database, logStream: silent });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    base,
    database,
    async close() {
      await app.close();
      await mailbox.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The q-quantile (0–1) of ascending values, nearest rank; 0 for none. */
export function quantileOfSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}
