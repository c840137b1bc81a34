// `node --import tsx bench/analytics.ts [scale]`: a creator account with 6 connections, 2 years of daily metrics and
// 2,000 content items with 80 days of counters (~500k metric rows), plus 1,000 other users with a connection and
// a month of metrics each; then the p95 latency of GET /api/analytics?days=90 and /api/analytics/summary, and the cost
// of the period comparison (issue 15): /api/analytics?days=90 with compare=previous against compare=none, as ratios
// of one run (p95 under load, and the first, computed answer).
// PostgreSQL (DATABASE_URL): 50 concurrent clients; PGlite: one client. `scale` multiplies the account's
// history (e.g. 10 for the "tenfold" check). Sync workers are off: only the API is measured.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { quantileOfSorted, startBenchServer } from './lib/bench-server.ts';

const scale = Math.max(1, Number(process.argv[2] ?? 1));
const DURATION_MS = 5_000;

// Without wrk, the load runs in a worker thread: clients in the server's own event loop would add their work to every
// latency measured (real clients never share the server's thread). It uses node:http with keep-alive, the
// lightest client at hand: on a two-core machine every cycle the load generator spends is taken from the server
// and the database, and fetch's WHATWG streams cost several times more per request.
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, concurrency, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const get = () => new Promise((resolve, reject) => {
  const request = http.get(url, { headers, agent }, (response) => {
    response.on('data', () => {});
    response.on('end', () => resolve(response.statusCode));
    response.on('error', reject);
  });
  request.on('error', reject);
});
(async () => {
  const latencies = [];
  let failed = 0;
  const end = Date.now() + durationMs;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < end) {
      const started = performance.now();
      const status = await get();
      latencies.push(performance.now() - started);
      if (status < 200 || status >= 300) failed += 1;
    }
  }));
  agent.destroy();
  parentPort.postMessage({ latencies, failed });
})();
`;

// wrk (Debian's `wrk` package), when installed, is the load generator: written in C, it takes a fraction of the CPU
// of any Node.js client, and on a small machine every cycle it spends is taken from the server and the database.
// Its Lua hook prints the figures as JSON (latencies in microseconds).
const WRK_REPORT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"failed":%d,"p50":%.3f,"p95":%.3f}\\n', summary.requests,
    e.status + e.connect + e.read + e.write + e.timeout, latency:percentile(50) / 1000, latency:percentile(95) / 1000))
end
`;
const wrkScript = path.join(mkdtempSync(path.join(os.tmpdir(), 'ah-bench-wrk-')), 'report.lua');
writeFileSync(wrkScript, WRK_REPORT);
// BENCH_LOAD_GENERATOR=node forces the Node.js clients, to compare the two on one machine.
const hasWrk = process.env.BENCH_LOAD_GENERATOR !== 'node' && spawnSync('wrk', ['--version']).error === undefined;

interface LoadResult {
  requests: number;
  failed: number;
  p50: number;
  p95: number;
}

async function runWrk(url: string, headers: Record<string, string>, concurrency: number, durationMs: number): Promise<LoadResult> {
  const args = ['-t1', `-c${concurrency}`, `-d${Math.max(1, Math.round(durationMs / 1000))}s`, '-s', wrkScript];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', [...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
  });
  const line = output.split('\n').find((candidate) => candidate.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no report: ${output}`);
  return JSON.parse(line) as LoadResult;
}

async function runNodeClients(url: string, headers: Record<string, string>, concurrency: number, durationMs: number): Promise<LoadResult> {
  const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { url, headers, concurrency, durationMs }, execArgv: [] });
  const { latencies, failed } = await new Promise<{ latencies: number[]; failed: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, failed, p50: quantileOfSorted(latencies, 0.5), p95: quantileOfSorted(latencies, 0.95) };
}

async function measure(url: string, headers: Record<string, string>, concurrency: number, durationMs = DURATION_MS) {
  const loopBefore = performance.eventLoopUtilization();
  const result = await (hasWrk ? runWrk : runNodeClients)(url, headers, concurrency, durationMs);
  // Busy time of the server's thread per request: a cost figure that other load on the machine disturbs far less
  // than the latencies do.
  const loop = performance.eventLoopUtilization(loopBefore);
  return { ...result, serverMsPerRequest: loop.active / Math.max(1, result.requests) };
}

// On PostgreSQL (DATABASE_URL) the bench seeds a database of its own (created here, dropped at the end), so runs repeat cleanly.
const adminUrl = process.env.DATABASE_URL;
const benchDatabaseName = `ah_bench_${process.pid}`;
const admin = adminUrl ? new pg.Client({ connectionString: adminUrl }) : undefined;
let benchDatabaseUrl: string | undefined;
if (admin && adminUrl) {
  await admin.connect();
  await admin.query(`create database ${benchDatabaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${benchDatabaseName}`;
  benchDatabaseUrl = url.toString();
}
const server = await startBenchServer({ databaseUrl: benchDatabaseUrl, poolMax: 20 });
const { base, database } = server;
const db = database.db;

const username = `bench${Date.now()}`;
const json = { 'content-type': 'application/json' };
await fetch(`${base}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ username, email: `${username}@example.com`, password: 'benchmark passphrase' }) });
await db.execute(sql`update users set email_confirmed_at = now() where username = ${username}`);
const login = (await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ username, password: 'benchmark passphrase' }) })).json()) as { token: string; user: { id: number } };
const userId = login.user.id;
const today = new Date().toISOString().slice(0, 10);

const seedStarted = performance.now();
await db.execute(sql`insert into subscriptions (user_id, stripe_customer_id, status, current_period_end, synced_at) values (${userId}, 'cus_bench', 'active', now() + interval '30 days', now())`);
await db.execute(sql`insert into platform_connections (user_id, platform, platform_user_id, followers, connected_at, updated_at)
  select ${userId}, p, 'bench-' || p, 10000 * n, now(), now() from unnest(array['youtube','instagram','tiktok','twitter','linkedin','patreon']) with ordinality as t(p, n)`);
const historyDays = 730 * scale;
// Daily account metrics: followers-type + views, likes, comments, shares (+ engagements, revenue on YouTube).
await db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
  select c.id, (${today}::date - d), m, (1000 + d % 97 * 13 + c.id)::float8
  from platform_connections c cross join generate_series(0, ${historyDays - 1}) d
  cross join unnest(array['views','likes','comments','shares']) m where c.user_id = ${userId}`);
await db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
  select c.id, (${today}::date - d), case c.platform when 'youtube' then 'subscribers' when 'patreon' then 'patrons' else 'followers' end, (50000 - d * 3)::float8
  from platform_connections c cross join generate_series(0, ${historyDays - 1}) d where c.user_id = ${userId}`);
await db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
  select c.id, (${today}::date - d), m, (d % 50 + 1)::float8
  from platform_connections c cross join generate_series(0, ${historyDays - 1}) d cross join unnest(array['engagements','revenue']) m
  where c.user_id = ${userId} and c.platform = 'youtube'`);
// 2,000 content items over the four content platforms, each with 80 days of likes/comments/views counters.
await db.execute(sql`insert into content_items (connection_id, platform_content_id, title, description, published_at, url)
  select c.id, 'item-' || i, 'Post ' || i, 'Description ' || i, now() - (i || ' hours')::interval, 'https://example.com/' || i
  from platform_connections c cross join generate_series(1, 500) i where c.user_id = ${userId} and c.platform in ('youtube','instagram','tiktok','twitter')`);
await db.execute(sql`insert into content_metrics (content_item_id, connection_id, metric_type, as_of, value)
  select ci.id, ci.connection_id, m, (${today}::date - d), ((ci.id * 7919) % 10000 + 80 - d)::float8
  from content_items ci join platform_connections c on c.id = ci.connection_id cross join generate_series(0, ${80 * scale - 1}) d
  cross join unnest(array['views','likes','comments']) m where c.user_id = ${userId}`);
// 1,000 other users with one connection and 30 days of metrics each.
await db.execute(sql`insert into users (username, email, password_hash) select 'other' || i || '_' || ${username}, 'other' || i || '_' || ${username} || '@example.com', 'x' from generate_series(1, 1000) i`);
await db.execute(sql`insert into platform_connections (user_id, platform, platform_user_id, followers, connected_at, updated_at)
  select u.id, 'youtube', 'other-' || u.id, 100, now(), now() from users u where u.username like ${`other%_${username}`}`);
await db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
  select c.id, (${today}::date - d), m, 10::float8 from platform_connections c cross join generate_series(0, 29) d
  cross join unnest(array['subscribers','views','likes','comments','shares']) m where c.platform_user_id like 'other-%'`);
await db.execute(sql`analyze`);
const [counts] = (
  (await db.execute(sql`select (select count(*) from account_metrics)::int as account, (select count(*) from content_metrics)::int as content`)) as unknown as {
    rows: { account: number; content: number }[];
  }
).rows;
const seedSeconds = (performance.now() - seedStarted) / 1000;

const concurrency = database.kind === 'postgres' ? 50 : 1;
const headers = { authorization: `Bearer ${login.token}` };
const routes = ['/api/analytics?days=90&compare=none', '/api/analytics?days=90&compare=previous', '/api/analytics/summary'];
process.stdout.write(
  `database: ${database.kind}, history ×${scale}, ${counts!.account} account + ${counts!.content} content metric rows (seeded in ${seedSeconds.toFixed(1)} s), ${concurrency} client(s), ${DURATION_MS / 1000} s per route, load from ${hasWrk ? 'wrk' : 'node:http clients in a worker thread (install wrk for a lighter load generator)'}\n`,
);
// Baselines in the same run: a route that does no work and one that only authenticates. On a small machine the
// load generator, the server and PostgreSQL share the cores, so the analytics figures are read against these.
const baselines: Record<string, number> = {};
for (const route of ['/api/health', '/api/auth/me']) {
  await measure(`${base}${route}`, headers, 1, 1_000); // warm-up
  const result = await measure(`${base}${route}`, headers, concurrency);
  baselines[route] = result.p95;
  process.stdout.write(
    `${route.padEnd(40)} requests ${String(result.requests).padEnd(7)} failed ${String(result.failed).padEnd(4)} p50 ${result.p50.toFixed(1).padStart(7)} ms   p95 ${result.p95.toFixed(1).padStart(7)} ms   (baseline)   server thread ${result.serverMsPerRequest.toFixed(2)} ms/request\n`,
  );
}
const results: Record<string, { p95: number }> = {};
for (const route of routes) {
  // The first request computes the answer (a cache miss, as after every sync); the load then reads it.
  const coldStarted = performance.now();
  await (await fetch(`${base}${route}`, { headers })).arrayBuffer();
  const coldMs = performance.now() - coldStarted;
  await measure(`${base}${route}`, headers, 1, 1_000); // warm-up
  const result = await measure(`${base}${route}`, headers, concurrency);
  results[route] = { p95: result.p95 };
  process.stdout.write(
    `${route.padEnd(40)} requests ${String(result.requests).padEnd(7)} failed ${String(result.failed).padEnd(4)} p50 ${result.p50.toFixed(1).padStart(7)} ms   p95 ${result.p95.toFixed(1).padStart(7)} ms   first (computed) ${coldMs.toFixed(1).padStart(7)} ms   server thread ${result.serverMsPerRequest.toFixed(2)} ms/request   p95 ÷ /api/auth/me p95 ${(result.p95 / baselines['/api/auth/me']!).toFixed(2)}\n`,
  );
}

// Issue 15: comparing with the previous period must keep /api/analytics' p95 within 1.5× of no comparison. The load
// above reads cached answers; the computed answers (what every sync's first request pays) are measured too: each
// request a new page size, so a new cache key, the two modes taken in turn so the machine's other load falls on both;
// their p50 is the steadier figure on a shared machine, their p95 is printed too.
const COMPUTED_ROUNDS = 30;
const computedMs: Record<'none' | 'previous', number[]> = { none: [], previous: [] };
for (let round = 0; round < COMPUTED_ROUNDS; round += 1) {
  for (const mode of round % 2 === 0 ? (['none', 'previous'] as const) : (['previous', 'none'] as const)) {
    const started = performance.now();
    await (await fetch(`${base}/api/analytics?days=90&compare=${mode}&pageSize=${200 + round}`, { headers })).arrayBuffer();
    computedMs[mode].push(performance.now() - started);
  }
}
const quantile = (values: number[], q: number) => quantileOfSorted([...values].sort((a, b) => a - b), q);
const compared = results['/api/analytics?days=90&compare=previous']!;
const alone = results['/api/analytics?days=90&compare=none']!;
const p95Ratio = compared.p95 / alone.p95;
const computedRatio = (q: number) => quantile(computedMs.previous, q) / quantile(computedMs.none, q);
const figures = (mode: 'none' | 'previous') => `p50 ${quantile(computedMs[mode], 0.5).toFixed(1)} ms p95 ${quantile(computedMs[mode], 0.95).toFixed(1)} ms`;
process.stdout.write(
  `computed answers (${COMPUTED_ROUNDS} each): compare=none ${figures('none')}; compare=previous ${figures('previous')}\n` +
    `compare=previous ÷ compare=none on /api/analytics?days=90: p95 under load ${p95Ratio.toFixed(2)}× (budget 1.5×: ${p95Ratio <= 1.5 ? 'within' : 'OVER'}); ` +
    `computed p50 ${computedRatio(0.5).toFixed(2)}×, p95 ${computedRatio(0.95).toFixed(2)}×\n`,
);

await server.close();
if (admin) {
  await admin.query(`drop database if exists ${benchDatabaseName} with (force)`);
  await admin.end();
}
rmSync(path.dirname(wrkScript), { recursive: true, force: true });
