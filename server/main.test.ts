// The real start-up script as a process: it starts on an empty DATA_DIR, serves, and shuts down cleanly.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from './lib/free-port.ts';
import { seedPgliteDataDir } from './test/databases.ts';
import { createMainProcesses } from './test/main-process.ts';
import { createTokenCrypto, rowBinding } from './lib/token-crypto.ts';

const processes = createMainProcesses();
// A failed test leaves its server running: stop it, and remove the data directories (only what this file made).
afterEach(() => processes.cleanUp());

const startMain = (env: Record<string, string>) => processes.start(env);

it('starts on an empty data directory, answers (the API docs too, with the sandbox mailbox mounted), and exits 0 on SIGTERM', async () => {
  const dataDir = processes.dataDir();
  const port = String(await freePort());
  const env: Record<string, string> = { DATA_DIR: path.join(dataDir, 'nested', 'data'), PORT: port, HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const run = startMain(env);
  await run.listening;
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
  expect(ready.status).toBe(200);
  // The API docs with the sandbox mailbox's pages mounted (no SMTP_URL): routes without a schema, left out of the
  // document, which once made it answer 500 (issue 25).
  for (const document of ['/api/openapi.json', '/api/docs/json']) expect((await fetch(`http://127.0.0.1:${port}${document}`)).status, document).toBe(200);
  // The web app's "check your email" screens link to the mailbox the sandbox keeps the mail in.
  const publicConfig = (await (await fetch(`http://127.0.0.1:${port}/api/config/public`)).json()) as { mailboxUrl: string };
  expect(publicConfig).toMatchObject({ sandbox: true, mailboxUrl: '/sandbox/mail' });
  expect((await fetch(`http://127.0.0.1:${port}${publicConfig.mailboxUrl}`)).status).toBe(200);
  run.child.kill('SIGTERM');
  expect(await run.exit).toBe(0);
  expect(run.output()).toContain('shutting down');
});

// Every secret a production start needs, valid and not a placeholder. Nothing here is ever called: SMTP and
// Stripe are only reached when mail is sent or billing is used.
const productionSecrets = {
  ENCRYPTION_KEYS: `v1:${Buffer.from('first-key-of-thirty-two-bytes!!!').toString('base64')}`,
  SMTP_URL: 'smtp://127.0.0.1:9',
  STRIPE_SECRET_KEY: 'sk_test_51Habcdefghijklmnop',
  STRIPE_WEBHOOK_SECRET: 'whsec_8d7f6e5d4c3b2a1908f7e6d5c4b3a291',
  STRIPE_PRICE_ID: 'price_1PqRsTuVwXyZ',
  STRIPE_API_BASE: 'http://127.0.0.1:9',
};

it('checklist 28: with a public PUBLIC_URL, /sandbox/* is never mounted, no stand-in starts, and the start-up log holds no secret', async () => {
  const dataDir = processes.dataDir();
  const port = String(await freePort());
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', PUBLIC_URL: 'https://analytics.example.com', SHUTDOWN_DRAIN_MS: '0', ...productionSecrets };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  else await seedPgliteDataDir(dataDir); // not a first start: the template's copy spares initdb
  const run = startMain(env);
  await run.listening;
  expect(run.output()).toContain('"sandbox":false');
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox/);
  for (const sandboxPath of ['/sandbox/mail', '/sandbox/mail/message.eml']) {
    const response = await fetch(`http://127.0.0.1:${port}${sandboxPath}`);
    expect(await response.text(), sandboxPath).not.toContain('Sandbox mailbox');
  }
  const publicConfig = await fetch(`http://127.0.0.1:${port}/api/config/public`);
  expect(await publicConfig.json()).toMatchObject({ sandbox: false, mailboxUrl: null });
  run.child.kill('SIGTERM');
  expect(await run.exit).toBe(0);
  // Nothing the process wrote, from start to exit, holds a secret's value.
  for (const secret of [productionSecrets.ENCRYPTION_KEYS.slice(3), productionSecrets.STRIPE_SECRET_KEY, productionSecrets.STRIPE_WEBHOOK_SECRET]) {
    expect(run.output()).not.toContain(secret);
  }
});

it('checklist 35: on SIGTERM readiness answers 503 at once, the drain still serves, idle keep-alive sockets close, and no request that arrived before the drain ended is reset', async () => {
  const dataDir = processes.dataDir();
  const port = await freePort();
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '3000' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  else await seedPgliteDataDir(dataDir); // not a first start: the template's copy spares initdb
  const run = startMain(env);
  await run.listening;

  // A keep-alive connection that served one request and now sits idle.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { idleSocketClosed } = await new Promise<{ idleSocketClosed: Promise<void> }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/api/health', agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ idleSocketClosed: new Promise((closed) => request.socket!.once('close', () => closed())) }));
    });
    request.on('error', reject);
  });

  // A request whose headers reached the server before SIGTERM, and whose body comes only after the drain.
  const body = JSON.stringify({ username: 'nobody-here', password: 'not the password at all' });
  const slow = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/auth/login', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const slowResponse = new Promise<{ status: number; text: string }>((resolve, reject) => {
    slow.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    slow.on('error', reject);
  });
  slow.write(body.slice(0, 10));
  await run.waitForOutput(/"msg":"incoming request"[^\n]*"path":"\/api\/auth\/login"|"path":"\/api\/auth\/login"[^\n]*"msg":"incoming request"/);

  run.child.kill('SIGTERM');
  await run.waitForOutput(/shutting down/);
  const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toMatchObject({ code: 'unavailable' });
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  // Clients are told to reconnect elsewhere rather than keep this connection.
  expect(health.headers.get('connection')).toBe('close');
  await idleSocketClosed;

  await run.waitForOutput(/drain over/);
  slow.end(body.slice(10));
  const finished = await slowResponse;
  expect(finished.status).toBe(401);
  expect(await run.exit).toBe(0);
  agent.destroy();
});

// Checklist 35 with jobs: a sync job running when SIGTERM comes. The platform is a stub in this test that holds every
// request until told, so the job is in flight for as long as the test wants. PostgreSQL only: the test reads the
// queue and writes the rows while the server process runs, which PGlite (one process's own database) cannot share.
describe.runIf(process.env.DATABASE_URL)('checklist 35: a sync job in flight at SIGTERM', () => {
  const ENCRYPTION_KEY = Buffer.from('shutdown-test-key-of-32-bytes!!!');
  let admin: pg.Client;
  const databases: string[] = [];
  afterAll(async () => {
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  /** A platform that records each request and holds it until `release` (then answers 503: a failed attempt). */
  async function startHoldingPlatform() {
    const held: http.ServerResponse[] = [];
    let arrived: () => void;
    const firstRequest = new Promise<void>((resolve) => (arrived = resolve));
    const stub = http.createServer((_request, response) => {
      held.push(response);
      arrived();
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      firstRequest,
      requests: () => held.length,
      release() {
        for (const response of held.splice(0)) response.writeHead(503, { 'content-type': 'application/json' }).end('{"errors":[{"status":"503"}]}');
      },
      close: () => {
        stub.closeAllConnections();
        return new Promise<void>((resolve) => stub.close(() => resolve()));
      },
    };
  }

  /** A fresh database, the server on it (Patreon pointed at the stub), a user with access and two Patreon connections. */
  async function startWithConnections(platformUrl: string, env: Record<string, string>) {
    admin ??= new pg.Client({ connectionString: process.env.DATABASE_URL });
    if (!databases.length) await admin.connect();
    const name = `ah_shutdown_${randomBytes(4).toString('hex')}`;
    databases.push(name);
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const dataDir = processes.dataDir();
    const port = await freePort();
    const run = startMain({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      ENCRYPTION_KEYS: `v1:${ENCRYPTION_KEY.toString('base64')}`,
      PATREON_CLIENT_ID: 'patreon-client',
      PATREON_CLIENT_SECRET: 'patreon-client-secret',
      PATREON_API_URL: platformUrl,
      PLATFORM_TIMEOUT_MS: '60000',
      ...env,
    });
    await run.listening;

    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const now = new Date();
    const [user] = (await client.query(`insert into users (username, email, password_hash, email_confirmed_at) values ('shutdown', 'shutdown@example.com', 'x', now()) returning id`)).rows;
    const secret = randomBytes(32).toString('base64url');
    const sessionId = randomBytes(16).toString('base64url');
    await client.query('insert into sessions (id, user_id, secret_hash, created_at, last_used_at) values ($1, $2, $3, now(), now())', [sessionId, user.id, createHash('sha256').update(secret).digest('hex')]);
    await client.query(`insert into subscriptions (user_id, stripe_customer_id, status, current_period_start, current_period_end, trial_used, synced_at) values ($1, 'cus_shutdown', 'active', now() - interval '1 day', now() + interval '29 days', true, now())`, [user.id]);
    const crypto = createTokenCrypto([{ version: 'v1', key: ENCRYPTION_KEY }]);
    const connections: number[] = [];
    for (const campaign of ['campaign-1', 'campaign-2']) {
      const [row] = (
        await client.query(`insert into platform_connections (user_id, platform, platform_user_id, connected_at, updated_at, token_expires_at) values ($1, 'patreon', $2, $3, $3, $4) returning id`, [
          user.id,
          campaign,
          now,
          new Date(now.getTime() + 3_600_000),
        ])
      ).rows;
      await client.query('update platform_connections set access_token = $1, refresh_token = $2 where id = $3', [
        crypto.encrypt(`access-${campaign}`, rowBinding('platform_connections', row.id, 'access_token')),
        crypto.encrypt(`refresh-${campaign}`, rowBinding('platform_connections', row.id, 'refresh_token')),
        row.id,
      ]);
      connections.push(row.id);
    }
    const sync = async (connectionId: number) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/sync/platform/${connectionId}`, { method: 'POST', headers: { authorization: `Bearer ${sessionId}.${secret}` } });
      expect(response.status).toBe(202);
      return ((await response.json()) as { jobId: string }).jobId;
    };
    const jobState = async (jobId: string) => (await client.query('select state from pgboss.job where id = $1', [jobId])).rows[0]?.state as string | undefined;
    return { run, port, client, connections, sync, jobState };
  }

  it('checklist 35: the worker stops fetching at once, the running job finishes, the database is closed and the exit is 0', async () => {
    const platform = await startHoldingPlatform();
    // The default drain (5 s) is longer than the worker's polling interval (2 s): a worker still fetching would take
    // the second job during it, hold it past the end of the drain, and have it failed at shutdown (a retry spent).
    const server = await startWithConnections(platform.url, {});
    try {
      const running = await server.sync(server.connections[0]!);
      await platform.firstRequest; // a worker fetched the job and is waiting on the platform
      expect(await server.jobState(running)).toBe('active');

      server.run.child.kill('SIGTERM');
      await server.run.waitForOutput(/shutting down/);
      // Still served during the drain, so queued; but no worker fetches it any more.
      const queued = await server.sync(server.connections[1]!);
      platform.release();
      expect(await server.run.exit).toBe(0);
      expect(server.run.output()).not.toContain('graceful shutdown timed out');
      // The running job finished its attempt (a 503: failed, the sync's own backoff decides the next one); the one
      // queued during the drain was never started.
      expect(['completed', 'failed', 'retry']).toContain(await server.jobState(running));
      expect(await server.jobState(queued)).toBe('created');
      expect(platform.requests()).toBe(0);
      // The server's connections are all closed: only this test's own remains.
      const others = await server.client.query('select count(*)::int as count from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      expect(others.rows[0].count).toBe(0);
    } finally {
      await server.client.end();
      await platform.close();
    }
  });

  it('checklist 35: a hung job makes the process exit (code 1) once SHUTDOWN_GRACE_MS is over, its job left for another worker', async () => {
    const platform = await startHoldingPlatform();
    const server = await startWithConnections(platform.url, { SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '2000' });
    try {
      const hung = await server.sync(server.connections[0]!);
      await platform.firstRequest;
      const started = Date.now();
      server.run.child.kill('SIGTERM');
      expect(await server.run.exit).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(server.run.output()).toContain('graceful shutdown timed out');
      // Still active in the queue: once its lease runs out, another worker takes the run over (at least once, checklist 31).
      expect(await server.jobState(hung)).toBe('active');
    } finally {
      await server.client.end();
      platform.release();
      await platform.close();
    }
  });
});
