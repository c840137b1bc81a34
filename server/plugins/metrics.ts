// Prometheus metrics (issue 16), per process (scrape every process): HTTP request durations by route and status, sync
// runs by platform and outcome with their durations, platform calls and quota spent, the job queue's depth and oldest
// waiting job (read from PostgreSQL at scrape time, so every process reports the shared queue), event-loop delay and
// memory (prom-client's defaults), and each metered platform's spend this month against its budget (read from the shared
// platform_spend table at scrape time, so every process reports the same figure). Served at GET /metrics only to a request bearing METRICS_TOKEN, and on a separate
// METRICS_PORT: without a token that port listens on loopback only (a scraper on the same machine), with one it
// listens on HOST and asks for the token too. With neither, /metrics does not exist.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, queryRows } from '../db/client.ts';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SYNC_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

export interface SyncRunRecord {
  platform: string;
  /** The run's outcome kind: done, skipped, failed, retry or defer. */
  outcome: string;
  seconds: number;
  calls?: number;
  quotaUnits?: number;
}

/** A metered platform's reads this calendar month (UTC): what they cost, and its budget (null: none). */
export interface PlatformSpendRecord {
  platform: string;
  usd: number;
  billedReads: number;
  budgetUsd: number | null;
}

export function createMetrics({ db }: { db: Database }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const syncRuns = new Counter({ name: 'sync_runs_total', help: 'Sync runs by platform and outcome.', labelNames: ['platform', 'outcome'] as const, registers: [registry] });
  const syncDuration = new Histogram({
    name: 'sync_run_duration_seconds',
    help: 'Sync run durations by platform and outcome.',
    labelNames: ['platform', 'outcome'] as const,
    buckets: SYNC_BUCKETS,
    registers: [registry],
  });
  const platformCalls = new Counter({ name: 'platform_calls_total', help: 'Calls made to each platform by completed syncs.', labelNames: ['platform'] as const, registers: [registry] });
  const quotaUnits = new Counter({
    name: 'platform_quota_units_total',
    help: 'Quota spent at each platform by completed syncs (YouTube Data API units).',
    labelNames: ['platform'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting (created or retry, due or not yet) per queue, across all processes.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await queueState(db)) this.set({ queue: row.name }, row.waiting);
    },
  });
  new Gauge({
    name: 'job_queue_oldest_waiting_seconds',
    help: 'How long the oldest due job (its start time passed) has waited per queue, across all processes.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await queueState(db)) if (row.oldest_seconds !== null) this.set({ queue: row.name }, row.oldest_seconds);
    },
  });

  return {
    registry,
    /** Times every request under its route pattern (never the raw URL: ids would make one series per user). */
    observeHttp(app: FastifyInstance) {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
      });
    },
    /** The month's spend per metered platform (X), read at each scrape from `read` (the sync feature's budget). */
    observePlatformSpend(read: () => Promise<PlatformSpendRecord[]>) {
      const gauge = (name: string, help: string, value: (row: PlatformSpendRecord) => number | null) =>
        new Gauge({
          name,
          help,
          labelNames: ['platform'] as const,
          registers: [registry],
          async collect() {
            this.reset();
            for (const row of await read()) {
              const figure = value(row);
              if (figure !== null) this.set({ platform: row.platform }, figure);
            }
          },
        });
      gauge('platform_spend_usd', "This calendar month's (UTC) spend at each metered platform, in USD at its published prices, across all processes.", (row) => row.usd);
      gauge('platform_billed_reads', "This calendar month's (UTC) billed resource reads at each metered platform, across all processes.", (row) => row.billedReads);
      gauge('platform_budget_usd', 'The monthly budget of each metered platform that has one (X_MONTHLY_BUDGET_USD); its refreshes pause once the spend reaches it.', (row) => row.budgetUsd);
    },
    recordSyncRun(record: SyncRunRecord) {
      const labels = { platform: record.platform, outcome: record.outcome };
      syncRuns.inc(labels);
      syncDuration.observe(labels, record.seconds);
      if (record.calls) platformCalls.inc({ platform: record.platform }, record.calls);
      if (record.quotaUnits) quotaUnits.inc({ platform: record.platform }, record.quotaUnits);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function queueState(db: Database) {
  return queryRows<{ name: string; waiting: number; oldest_seconds: number | null }>(
    db,
    // The age counts from when a job became due: one that waits for its start time by design (a retry's backoff, the
    // analytics warming's delay) is not a backlog.
    sql`select name, count(*)::int as waiting,
        extract(epoch from now() - min(start_after) filter (where start_after <= now()))::float8 as oldest_seconds
      from pgboss.job where state in ('created', 'retry') group by name`,
  );
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const bearerToken = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';

/**
 * GET /metrics on the app for a request bearing the token; and a separate listener on `port` serving only /metrics:
 * on loopback without a token (metrics tell the traffic, the users' count and the queue to whoever reads them), on
 * `host` for the token's bearer with one. Returns the separate listener's address and close, if one was started.
 */
export async function serveMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  options: { token: string | undefined; port: number | undefined; host: string },
): Promise<{ address: AddressInfo; close(): Promise<void> } | undefined> {
  const { token } = options;
  if (token) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // Without the token, /metrics answers as if it did not exist.
      if (!sameSecret(bearerToken(request.headers.authorization), token)) return reply.status(404).send({ message: `No such API call: GET /metrics`, code: 'not_found' });
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
  if (options.port === undefined) return undefined;
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    if (token && !sameSecret(bearerToken(request.headers.authorization), token)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('GET /metrics here needs Authorization: Bearer <METRICS_TOKEN>.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, token ? options.host : '127.0.0.1', () => resolve());
  });
  return { address: server.address() as AddressInfo, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
