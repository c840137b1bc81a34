// `node --import tsx bench/realistic.ts`: speed as users meet it (issue 16). PostgreSQL only: BENCH_DATABASE_URL, or
// postgres://postgres@127.0.0.1:5432/ah_bench_realistic, created and migrated when missing and seeded once
// (bench/lib/realistic-seed.ts: 1,000 subscribed users × six platforms × two years of daily history). The real server
// runs in-process; 50 clients replay a mix of the screens' calls, each user's first request of each call cold (the
// analytics cache is emptied first), and the same run measures the bare authenticated route GET /api/auth/me. Two
// phases (below): saturated, for throughput and ratios, and paced with think time, for the latency users meet.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { withSessionSettings } from '../server/db/client.ts';
import { randomToken, sha256 } from '../server/lib/secure-random.ts';
import { quantileOfSorted, startBenchServer } from './lib/bench-server.ts';
import { HISTORY_DAYS, SEED_VERSION, SEEDED_TABLES, USERNAME_PREFIX, USERS, seed, seededVersion } from './lib/realistic-seed.ts';

const CLIENTS = 50;
const STEPS_PER_USER = 20;
const EXPORT_EVERY = 50;
const TARGET_COLD_P95_MS = 25;
const TARGET_WARM_P95_MS = 10;
const out = (line: string) => process.stdout.write(`${line}\n`);

// The database: created when missing; dropped and created again when it holds another seed version.
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ah_bench_realistic';
const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
const adminUrl = new URL(databaseUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [databaseName])).rowCount === 1;
let seeded: Awaited<ReturnType<typeof seededVersion>>;
if (exists) {
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  seeded = await seededVersion(probe);
  await probe.end();
  if (!seeded) {
    out(`${databaseName} holds no ${SEED_VERSION} seed: dropping it`);
    await admin.query(`drop database ${pg.escapeIdentifier(databaseName)} with (force)`);
  }
}
if (!seeded) await admin.query(`create database ${pg.escapeIdentifier(databaseName)}`);
await admin.end();

// The product's own migrate path runs as the server starts.
// The product's own pool size (server/db/client.ts), as `npm start` runs it.
const server = await startBenchServer({ databaseUrl });
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
if (!seeded) {
  out(`seeding ${databaseName} (${SEED_VERSION}):`);
  seeded = await seed(client, out);
}
out(`seed ${SEED_VERSION} of ${seeded.anchor}: ${seeded.seconds.toFixed(1)} s; rows: ${SEEDED_TABLES.map((table) => `${table} ${(seeded.counts[table] ?? 0).toLocaleString('en-US')}`).join(', ')}`);
const today = ((await client.query(`select current_date::text as day`)).rows[0] as { day: string }).day;
if (seeded.anchor !== today) out(`note: the history ends on ${seeded.anchor}, the seed's day (set BENCH_DATABASE_URL to a new database, or drop it, for today's)`);

// Sessions as the accounts module stores them: the public id and the SHA-256 of the secret; the token is
// `<id>.<secret>` (accounts.service.ts createSession). New ones each run, the previous run's removed.
const users = (await client.query(`select id, username from users where username like '${USERNAME_PREFIX}%' order by username`)).rows as { id: number; username: string }[];
const tokens = new Map<number, string>();
const sessionRows = users.map((user) => {
  const id = randomToken(16);
  const secret = randomToken(32);
  tokens.set(user.id, `${id}.${secret}`);
  return { id, userId: user.id, secretHash: sha256(secret) };
});
await client.query(`delete from sessions where user_id = any($1::int[])`, [users.map((user) => user.id)]);
await client.query(
  `insert into sessions (id, user_id, secret_hash, created_at, last_used_at, user_agent)
   select id, user_id, secret_hash, now(), now(), 'bench/realistic' from unnest($1::text[], $2::int[], $3::text[]) as s(id, user_id, secret_hash)`,
  [sessionRows.map((row) => row.id), sessionRows.map((row) => row.userId), sessionRows.map((row) => row.secretHash)],
);
// Two of each user's videos to open: a recent one and one from the back catalogue.
const videoRows = (
  await client.query(`select c.user_id, array_agg(v.content_item_id order by ci.published_at desc) as ids
    from youtube_videos v join content_items ci on ci.id = v.content_item_id join platform_connections c on c.id = v.connection_id
    where c.user_id = any($1::int[]) group by c.user_id`, [users.map((user) => user.id)])
).rows as { user_id: number; ids: number[] }[];
const videosOf = new Map(videoRows.map((row) => [row.user_id, row.ids]));
// The opened videos' retention curves as a sync fetched them today (the sync reads them for recent and top videos,
// and a video page reads a curve a day old again from YouTube, which this offline bench cannot reach): 100 points
// falling from full to about 40 % watched, set by the video.
const openedVideos = videoRows.flatMap((row) => [row.ids[0]!, row.ids[Math.floor(row.ids.length / 2)]!]);
await client.query(
  `update youtube_videos v set retention_fetched_at = now(), retention = coalesce(v.retention, (
     select jsonb_agg(jsonb_build_object('timeRatio', t / 100.0, 'watchRatio', round((1 - 0.6 * t / 100.0 - (v.content_item_id % 7) / 100.0)::numeric, 3),
       'relativePerformance', round((0.3 + (v.content_item_id % 40) / 100.0)::numeric, 2)) order by t) from generate_series(1, 100) t))
   where v.content_item_id = any($1::int[])`,
  [openedVideos],
);

// Each user's script: the screens' calls in a fixed cycle, rotated per user so the clients do not move in step.
// Analytics asks three questions per user (a range and maybe a platform, from the user's number), each twice;
// the video list two orders; the video page two videos. Every 50th request (over all users) is a CSV export.
type Call = 'bare (auth/me)' | 'summary' | 'analytics' | 'video list' | 'video detail' | 'export csv';
const CYCLE: Call[] = ['summary', 'analytics', 'video list', 'video detail', 'bare (auth/me)', 'analytics', 'summary', 'video list', 'video detail', 'analytics'];
const RANGES = ['days=7', 'days=30', 'days=90', 'days=365', `days=${HISTORY_DAYS}`, 'custom-month', 'days=30&compare=none', 'days=90&compare=year'];
const PLATFORM_FILTERS = ['', '', '', '&platformId=1', '&platformId=2', '&platformId=3', '&platformId=4', '&platformId=5', '&platformId=6'];
function analyticsPath(userNumber: number, variant: number) {
  const pick = (userNumber * 31 + variant * 17) >>> 0;
  let range = RANGES[pick % RANGES.length]!;
  if (range === 'custom-month') {
    // A whole calendar month, one to twelve months back.
    const month = new Date(`${today}T00:00:00Z`);
    month.setUTCDate(1);
    month.setUTCMonth(month.getUTCMonth() - 1 - ((userNumber + variant) % 12));
    const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0));
    range = `startDate=${month.toISOString().slice(0, 10)}&endDate=${end.toISOString().slice(0, 10)}`;
  }
  return `/api/analytics?${range}${PLATFORM_FILTERS[(pick >> 3) % PLATFORM_FILTERS.length]}`;
}
interface Request {
  call: Call;
  path: string;
  token: string;
}
const scripts = users.map((user, userIndex) => {
  const token = tokens.get(user.id)!;
  const videoIds = videosOf.get(user.id) ?? [];
  const counts = new Map<Call, number>();
  const script: Request[] = [];
  for (let step = 0; step < STEPS_PER_USER; step += 1) {
    let call = CYCLE[(step + userIndex * 3) % CYCLE.length]!;
    if ((userIndex * STEPS_PER_USER + step) % EXPORT_EVERY === EXPORT_EVERY - 1) call = 'export csv';
    const nth = counts.get(call) ?? 0;
    counts.set(call, nth + 1);
    const path = {
      'bare (auth/me)': () => '/api/auth/me',
      summary: () => '/api/analytics/summary',
      analytics: () => analyticsPath(userIndex + 1, nth % 3),
      'video list': () => (nth % 2 === 0 ? '/api/youtubeanalytics/videos?page=1&pageSize=25&sort=publishedAt&order=desc' : '/api/youtubeanalytics/videos?page=1&pageSize=25&sort=views&order=desc'),
      'video detail': () => `/api/youtubeanalytics/videos/${videoIds[nth % 2 === 0 ? 0 : Math.floor(videoIds.length / 2)]}`,
      'export csv': () => '/api/analytics/export?format=csv&days=90',
    }[call]();
    script.push({ call, path, token });
  }
  return script;
});
// Two phases on disjoint users, each starting with the analytics cache empty, so each user's first request of each
// call and query is cold in both:
// - saturated: the first 800 users; every client sends its next request as soon as the last one is answered (no
//   think time). This finds the throughput; its latencies are mostly queueing (50 requests in flight on a machine
//   with a few CPUs), so they are read as ratios to the bare route measured in the same phase.
// - paced: the last 200 users; each client thinks between requests (exponential, mean THINK_MS, seeded), as a person
//   does between screens. Requests seldom wait for one another, so its latencies are what a user meets: the targets
//   are judged on this phase.
const SATURATED_USERS = Math.round(USERS * 0.8);
const THINK_MS = 1_000;

/** Client c serves the given users' scripts c, c + 50, …, one step of each in turn. */
function clientScriptsOf(userScripts: Request[][]): Request[][] {
  return Array.from({ length: CLIENTS }, (_, clientIndex) => {
    const mine = userScripts.filter((_, userIndex) => userIndex % CLIENTS === clientIndex);
    const sequence: Request[] = [];
    for (let step = 0; step < STEPS_PER_USER; step += 1) for (const script of mine) sequence.push(script[step]!);
    return sequence;
  });
}

// The clients run in a worker thread over node:http with keep-alive (as bench/analytics.ts explains: clients in the
// server's own event loop would add their work to every latency).
const REPLAY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, clients, thinkMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients.length });
const get = (path, token) => new Promise((resolve, reject) => {
  const request = http.get(base + path, { headers: { authorization: 'Bearer ' + token }, agent }, (response) => {
    response.on('data', () => {});
    response.on('end', () => resolve(response.statusCode));
    response.on('error', reject);
  });
  request.on('error', reject);
});
// mulberry32 per client: the same think times every run.
const seeded = (seed) => () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const think = (random) => new Promise((resolve) => setTimeout(resolve, -thinkMs * Math.log(1 - random())));
(async () => {
  const results = clients.map(() => []);
  await Promise.all(clients.map(async (sequence, clientIndex) => {
    const random = seeded(clientIndex + 1);
    if (thinkMs > 0) await think(random);
    for (const request of sequence) {
      const started = performance.now();
      const status = await get(request.path, request.token);
      results[clientIndex].push([performance.now() - started, status]);
      if (thinkMs > 0) await think(random);
    }
  }));
  agent.destroy();
  parentPort.postMessage(results);
})();
`;
async function replay(clients: Request[][], thinkMs: number): Promise<[ms: number, status: number][][]> {
  const worker = new Worker(REPLAY_WORKER, { eval: true, workerData: { base: server.base, clients, thinkMs }, execArgv: [] });
  const results = await new Promise<[number, number][][]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return results;
}

interface Figures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}
interface PhaseResult {
  total: number;
  seconds: number;
  failures: Map<number, number>;
  figures: (call: Call, temperature: 'cold' | 'warm') => Figures;
  bareP95: number;
}

/** Replays the users' scripts with the analytics cache emptied first; cold is each user's first request of a call and query. */
async function runPhase(userScripts: Request[][], thinkMs: number): Promise<PhaseResult> {
  const clientScripts = clientScriptsOf(userScripts);
  await client.query('truncate analytics_cache');
  const started = performance.now();
  const results = await replay(clientScripts, thinkMs);
  const seconds = (performance.now() - started) / 1000;
  const seen = new Set<string>();
  const samples = new Map<string, number[]>();
  const failures = new Map<number, number>();
  let total = 0;
  clientScripts.forEach((sequence, clientIndex) =>
    sequence.forEach((request, index) => {
      const [ms, status] = results[clientIndex]![index]!;
      total += 1;
      if (status < 200 || status >= 300) failures.set(status, (failures.get(status) ?? 0) + 1);
      const key = `${request.token} ${request.path}`;
      const cold = !seen.has(key);
      seen.add(key);
      const bucket = `${request.call}|${cold ? 'cold' : 'warm'}`;
      const bucketSamples = samples.get(bucket) ?? [];
      bucketSamples.push(ms);
      samples.set(bucket, bucketSamples);
    }),
  );
  for (const values of samples.values()) values.sort((a, b) => a - b);
  const figures = (call: Call, temperature: 'cold' | 'warm'): Figures => {
    const values = samples.get(`${call}|${temperature}`) ?? [];
    return { n: values.length, p50: quantileOfSorted(values, 0.5), p95: quantileOfSorted(values, 0.95), p99: quantileOfSorted(values, 0.99) };
  };
  const bareAll = [...(samples.get('bare (auth/me)|cold') ?? []), ...(samples.get('bare (auth/me)|warm') ?? [])].sort((a, b) => a - b);
  return { total, seconds, failures, figures, bareP95: quantileOfSorted(bareAll, 0.95) };
}

function printPhase(title: string, phase: PhaseResult, judged: boolean) {
  const { total, seconds, failures, figures, bareP95 } = phase;
  out('');
  out(
    `${title}: ${total} requests in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s)` +
      `${failures.size ? `, non-2xx: ${[...failures].map(([status, n]) => `${n} × ${status}`).join(', ')}` : ', all 2xx'}; bare route p95 ${bareP95.toFixed(1)} ms`,
  );
  const header = ['call', 'cold n', 'cold p50', 'cold p95', 'cold p99', '÷ bare', 'warm n', 'warm p50', 'warm p95', 'warm p99', '÷ bare'];
  if (judged) header.push(`cold<${TARGET_COLD_P95_MS}`, `warm<${TARGET_WARM_P95_MS}`);
  const widths = [16, 7, 9, 9, 9, 7, 7, 9, 9, 9, 7, 8, 8];
  const row = (cells: string[]) => out(cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join(' '));
  row(header);
  const ms = (value: number) => value.toFixed(1);
  for (const call of ['bare (auth/me)', 'summary', 'analytics', 'video list', 'video detail', 'export csv'] as Call[]) {
    const cold = figures(call, 'cold');
    const warm = figures(call, 'warm');
    const verdict = (value: number, n: number, target: number) => (call === 'bare (auth/me)' || n === 0 ? '—' : value < target ? 'PASS' : 'MISS');
    const cells = [call, String(cold.n), ms(cold.p50), ms(cold.p95), ms(cold.p99), (cold.p95 / bareP95).toFixed(1), String(warm.n), ms(warm.p50), ms(warm.p95), ms(warm.p99), warm.n ? (warm.p95 / bareP95).toFixed(1) : '—'];
    if (judged) cells.push(verdict(cold.p95, cold.n, TARGET_COLD_P95_MS), verdict(warm.p95, warm.n, TARGET_WARM_P95_MS));
    row(cells);
  }
}

// Warm the server's code (not its data): one pass of every call by one user.
await replay([scripts[scripts.length - 1]!.slice(0, 10)], 0);
const loadBefore = os.loadavg()[0]!;
// The answers must read the seeded history: the first user's views of the summary's 30 days, summed here from
// account_metrics, are what the summary answers (a day-row table left empty, say, would answer zeros, and fast).
{
  const first = users[0]!;
  const utcToday = new Date().toISOString().slice(0, 10);
  const expected = (
    await client.query(
      `select coalesce(sum(m.value), 0)::float8 as views from account_metrics m join platform_connections c on c.id = m.connection_id
       where c.user_id = $1 and c.is_active and m.metric_type = 'views' and m.date between $2::date - 29 and $2::date`,
      [first.id, utcToday],
    )
  ).rows[0] as { views: number };
  const response = await fetch(`${server.base}/api/analytics/summary`, { headers: { authorization: `Bearer ${tokens.get(first.id)}` } });
  const summary = (await response.json()) as { totalViews?: number };
  if (summary.totalViews !== expected.views || expected.views <= 0) {
    throw new Error(`the summary answers ${summary.totalViews} views for ${first.username}, the history holds ${expected.views}: not measuring the seeded data`);
  }
}
// The settings the answers were measured under, as the product's own pool sees them (the server's defaults with the
// product's session settings on top, server/db/client.ts), and the server's jit default beside.
const productSession = new pg.Client({ connectionString: withSessionSettings(databaseUrl) });
await productSession.connect();
const serverJit = ((await client.query(`select current_setting('jit') as jit`)).rows[0] as { jit: string }).jit;
const postgres = (
  await productSession.query(
    `select current_setting('server_version') as version, current_setting('jit') as jit,
       current_setting('shared_buffers') as shared_buffers, current_setting('work_mem') as work_mem`,
  )
).rows[0] as { version: string; jit: string; shared_buffers: string; work_mem: string };
await productSession.end();
const saturated = await runPhase(scripts.slice(0, SATURATED_USERS), 0);
const paced = await runPhase(scripts.slice(SATURATED_USERS), THINK_MS);
const loadAfter = os.loadavg()[0]!;
out(`${USERS} users, ${CLIENTS} concurrent clients; machine load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${os.availableParallelism()} CPUs`);
out(`PostgreSQL ${postgres.version}: jit ${postgres.jit} on the product's connections (the server's default: ${serverJit}), shared_buffers ${postgres.shared_buffers}, work_mem ${postgres.work_mem}`);
printPhase(`saturated, no think time (users 1–${SATURATED_USERS})`, saturated, false);
printPhase(`paced, ${THINK_MS} ms mean think time (users ${SATURATED_USERS + 1}–${USERS}); the targets are judged here`, paced, true);
out('');
out(
  `ms; ÷ bare is a p95 over the bare route's p95 in the same phase; the export is a file download (CSV, 90 days), shown against the same targets. ` +
    `Offered load in the paced phase: ${(paced.total / paced.seconds).toFixed(0)}/s, ${((100 * paced.total) / paced.seconds / (saturated.total / saturated.seconds)).toFixed(0)} % of the saturated throughput.`,
);

// One line for machines: the judged (paced) figures, the saturated throughput and what they ran under.
const round1 = (value: number) => Math.round(value * 10) / 10;
out(
  JSON.stringify({
    realistic: {
      saturatedRps: Math.round(saturated.total / saturated.seconds),
      bareP95: round1(paced.bareP95),
      calls: (['summary', 'analytics', 'video list', 'video detail', 'export csv'] as Call[]).map((call) => ({
        call,
        coldP50: round1(paced.figures(call, 'cold').p50),
        coldP95: round1(paced.figures(call, 'cold').p95),
        warmP95: paced.figures(call, 'warm').n ? round1(paced.figures(call, 'warm').p95) : null,
      })),
      nonSuccess: [...saturated.failures, ...paced.failures].reduce<Record<string, number>>((all, [status, n]) => ({ ...all, [status]: (all[status] ?? 0) + n }), {}),
      postgres: { ...postgres, serverDefaultJit: serverJit },
      loadAverage: [round1(loadBefore), round1(loadAfter)],
    },
  }),
);

await client.end();
await server.close();
