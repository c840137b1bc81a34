// Issue 16, roles: a ROLE=web and a ROLE=worker process of the real start-up script on one PostgreSQL. A sync asked for
// through the web process is done by the worker; the web process works no job, and the worker answers HTTP only for
// health and readiness. PostgreSQL only: two processes cannot share one embedded PGlite.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, inject, it } from 'vitest';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { startPlatformSandbox } from '../sandbox/platforms/platform-sandbox.ts';
import { loadConfig } from './config.ts';
import { freePort } from './lib/free-port.ts';
import { createTestDatabase } from './test/databases.ts';
import { createMainProcesses } from './test/main-process.ts';
import { connect, signUpWithAccess } from './test/platforms.ts';
import { startTestServer, TEST_ENCRYPTION_KEYS, TEST_PUBLIC_URL } from './test/test-server.ts';

const processes = createMainProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterEach(() => processes.killAll());
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('refuses a worker that may not work jobs, and lets a web process work none', () => {
  expect(() => loadConfig({ ROLE: 'worker', SYNC_WORKERS: 'off' })).toThrow(/SYNC_WORKERS: off leaves a ROLE=worker process nothing to do/);
  expect(() => loadConfig({ ROLE: 'both' })).toThrow(/ROLE: expected all, web or worker/);
  expect(loadConfig({ ROLE: 'web', SYNC_WORKERS: 'on' }).sync.workers).toBe(false);
  expect(loadConfig({ ROLE: 'worker' }).sync.workers).toBe(true);
  expect(loadConfig({}).role).toBe('all');
});

it.skipIf(!inject('databaseUrl'))('a sync asked for through a web process is done by a worker process on the same database', async () => {
  const sandbox = await startPlatformSandbox({ allowedRedirectUris: PLATFORM_NAMES.map((platform) => `${TEST_PUBLIC_URL}/auth/${platform}/callback`), logger: { info() {}, warn() {} } });
  cleanups.push(() => sandbox.close());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-roles-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  // A user with access and a LinkedIn connection, made by an in-process server that is then closed.
  const seeder = await startTestServer({ stripe: true, platformSandbox: sandbox, database: { handle: database.handle, url: database.url, drop: async () => {} } });
  seeder.clock.set(new Date());
  const account = await signUpWithAccess(seeder);
  const connected = await connect(seeder, account, 'linkedin', { account: 1 });
  expect(connected.status).toBe(200);
  const connectionId = connected.body.id as number;
  // Connecting queued the first sync: run it here, so the only sync left is the one asked for below.
  await seeder.sync.drain();
  const seeded = await seeder.request<{ connectionId: number; lastSyncedAt: string | null }[]>('GET', '/api/sync/status', { token: account.token });
  const seededAt = seeded.body.find((entry) => entry.connectionId === connectionId)?.lastSyncedAt;
  expect(seededAt).toEqual(expect.any(String));
  await seeder.close();

  const env = (role: string, port: number): Record<string, string> => ({
    ROLE: role,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHUTDOWN_DRAIN_MS: '0',
    DATABASE_URL: database.url!,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LINKEDIN_CLIENT_ID: sandbox.credentials.linkedin.clientId,
    LINKEDIN_CLIENT_SECRET: sandbox.credentials.linkedin.clientSecret,
    LINKEDIN_API_URL: sandbox.baseUrl,
  });
  const [webPort, workerPort] = [await freePort(), await freePort()];
  const web = processes.start(env('web', webPort));
  const worker = processes.start(env('worker', workerPort));
  await web.waitForOutput(/Analytics Hub is running/);
  await worker.waitForOutput(/Analytics Hub is running/);
  const call = (port: number, method: string, urlPath: string) =>
    fetch(`http://127.0.0.1:${port}${urlPath}`, { method, headers: { authorization: `Bearer ${account.token}`, connection: 'close' } });

  // The worker answers health and readiness, nothing else.
  expect((await call(workerPort, 'GET', '/api/health')).status).toBe(200);
  expect((await call(workerPort, 'GET', '/api/ready')).status).toBe(200);
  const refused = await call(workerPort, 'GET', '/api/auth/me');
  expect(refused.status).toBe(404);
  expect(await refused.json()).toMatchObject({ code: 'not_found', message: expect.stringContaining('ROLE=worker') });

  expect((await call(webPort, 'POST', `/api/sync/platform/${connectionId}`)).status).toBe(202);
  await worker.waitForOutput(/"msg":"sync stored"/);
  const status = (await (await call(webPort, 'GET', '/api/sync/status')).json()) as { connectionId: number; status: string; lastSyncedAt: string | null }[];
  const synced = status.find((entry) => entry.connectionId === connectionId);
  expect(synced).toMatchObject({ status: 'idle', lastSyncedAt: expect.any(String) });
  expect(Date.parse(synced!.lastSyncedAt!)).toBeGreaterThan(Date.parse(seededAt!));
  expect(web.output()).not.toMatch(/"msg":"sync stored"/);

  web.child.kill('SIGTERM');
  worker.child.kill('SIGTERM');
  expect(await web.exit).toBe(0);
  expect(await worker.exit).toBe(0);
}, 180_000);
