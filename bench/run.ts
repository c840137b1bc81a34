// `npm run bench`: throughput of the authenticated hot path relative to a route that does no work,
// measured in one run on this machine (ratios, not absolute timings, are what we compare over time).
// Uses the embedded PGlite unless DATABASE_URL is set. Traffic stays on loopback and the run is bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { startSandboxMailbox } from '../sandbox/mailbox/mailbox.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openPostgres, wrapPglite } from '../server/db/client.ts';
import { Writable } from 'node:stream';

const DURATION_MS = 5_000;
const CONCURRENCY = 32;

async function measure(url: string, headers: Record<string, string>) {
  let completed = 0;
  let failed = 0;
  const latencies: number[] = [];
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.ok) completed += 1;
        else failed += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: completed / (DURATION_MS / 1000), failed, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-'));
const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const mailbox = await startSandboxMailbox({ directory: path.join(dataDir, 'mail'), logger: { info: () => {} } });
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SMTP_URL: mailbox.smtpUrl, LOG_LEVEL: 'silent' });
const database = config.databaseUrl ? openPostgres(config.databaseUrl) : wrapPglite(await PGlite.create());
await database.migrate();
const { app } = await buildApp({ config, database, logStream: silent });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

// A confirmed user with a session, created through the real API and the database.
const username = `bench${Date.now()}`;
await fetch(`${base}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, email: `${username}@example.com`, password: 'benchmark passphrase' }) });
await database.db.execute((await import('drizzle-orm')).sql`update users set email_confirmed_at = now() where username = ${username}`);
const login = (await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'benchmark passphrase' }) })).json()) as { token: string };

const baseline = await measure(`${base}/api/health`, {});
const authenticated = await measure(`${base}/api/auth/me`, { authorization: `Bearer ${login.token}` });
const rows = [
  ['route', 'req/s', 'p99 ms', 'failed', 'ratio to /api/health'],
  ['GET /api/health', baseline.perSecond.toFixed(0), baseline.p99.toFixed(1), String(baseline.failed), '1.00'],
  ['GET /api/auth/me', authenticated.perSecond.toFixed(0), authenticated.p99.toFixed(1), String(authenticated.failed), (authenticated.perSecond / baseline.perSecond).toFixed(2)],
];
process.stdout.write(`database: ${database.kind}, ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s per route\n`);
for (const row of rows) process.stdout.write(`${row.map((cell, index) => cell.padEnd(index === 0 ? 20 : 22)).join('')}\n`);

await app.close();
await mailbox.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
