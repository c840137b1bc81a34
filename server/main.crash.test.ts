// Issue 14, "recover in seconds": the real start-up script as a process, killed with SIGKILL in the middle of a
// sync; a new process on the same database (PGlite under DATA_DIR, or the PostgreSQL copy) takes the run over and
// finishes it within two minutes of its start, storing every row once. The platform is the test's own sandbox, so
// the test can hold the platform's answer until the first process is dead.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, expect, inject, it } from 'vitest';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { startPlatformSandbox } from '../sandbox/platforms/platform-sandbox.ts';
import { type DatabaseHandle, openPglite, openPostgres, queryRows } from './db/client.ts';
import { freePort } from './lib/free-port.ts';
import { createTestDatabase, seedPgliteDataDir, type TestDatabase } from './test/databases.ts';
import { createMainProcesses } from './test/main-process.ts';
import { connect, signUpWithAccess } from './test/platforms.ts';
import { startTestServer, TEST_ENCRYPTION_KEYS, TEST_PUBLIC_URL } from './test/test-server.ts';

const processes = createMainProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterEach(() => {
  // A failed test leaves its servers running: stop them (only the children this file started).
  processes.killAll();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  processes.removeDataDirs();
});

const startMain = (env: Record<string, string>) => processes.start(env);

it('checklist 31: a server killed with SIGKILL mid-sync; the next server on the same database finishes the sync within two minutes, storing every row once', async () => {
  // The platform: the test's own sandbox, whose answers the test can hold.
  let heldCall: () => void = () => {};
  const held = new Promise<void>((resolve) => (heldCall = resolve));
  const sandbox = await startPlatformSandbox({
    allowedRedirectUris: PLATFORM_NAMES.map((platform) => `${TEST_PUBLIC_URL}/auth/${platform}/callback`),
    logger: {
      info(obj) {
        if ((obj as { status?: unknown }).status === 'held') heldCall();
      },
      warn() {},
    },
  });
  cleanups.push(() => sandbox.close());

  // The database both processes use, seeded by an in-process server: a user with access and a LinkedIn connection.
  const dataDir = processes.dataDir('ah-crash-');
  const databaseUrl = inject('databaseUrl');
  let postgres: TestDatabase | undefined;
  let handle: DatabaseHandle;
  if (databaseUrl) {
    postgres = await createTestDatabase();
    cleanups.push(() => postgres!.drop());
    handle = postgres.handle;
  } else {
    await seedPgliteDataDir(dataDir);
    handle = await openPglite(dataDir);
  }
  const seeder = await startTestServer({ stripe: true, platformSandbox: sandbox, database: { handle, url: postgres?.url, drop: () => handle.close() } });
  // Sessions and the trial are checked against the wall clock by the processes that follow.
  seeder.clock.set(new Date());
  const account = await signUpWithAccess(seeder);
  const connected = await connect(seeder, account, 'linkedin', { account: 1 });
  expect(connected.status).toBe(200);
  const connectionId = connected.body.id as number;
  // Connecting queued the first sync: run it here, so the only sync the processes below see is the one asked for.
  await seeder.sync.drain();
  await seeder.close();

  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHUTDOWN_DRAIN_MS: '0',
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LINKEDIN_CLIENT_ID: sandbox.credentials.linkedin.clientId,
    LINKEDIN_CLIENT_SECRET: sandbox.credentials.linkedin.clientSecret,
    LINKEDIN_API_URL: sandbox.baseUrl,
    // The held answer must outlast the first process.
    PLATFORM_TIMEOUT_MS: '120000',
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
  };
  const api = (method: string, urlPath: string) => fetch(`http://127.0.0.1:${port}${urlPath}`, { method, headers: { authorization: `Bearer ${account.token}`, connection: 'close' } });

  const first = startMain(env);
  await first.waitForOutput(/Analytics Hub is running/);
  sandbox.failNext('linkedin', 'metrics', 'timeout');
  expect((await api('POST', `/api/sync/platform/${connectionId}`)).status).toBe(202);
  await held;
  const running = (await (await api('GET', '/api/sync/status')).json()) as { connectionId: number; status: string }[];
  expect(running.find((entry) => entry.connectionId === connectionId)).toMatchObject({ status: 'running' });
  first.child.kill('SIGKILL');
  await first.exit;

  const restartedAt = Date.now();
  const second = startMain(env);
  await second.waitForOutput(/"msg":"sync stored"/);
  expect(Date.now() - restartedAt).toBeLessThan(120_000);
  expect(second.output()).toMatch(/"event":"sync.run_recovered"/);
  const status = (await (await api('GET', '/api/sync/status')).json()) as { connectionId: number }[];
  expect(status.find((entry) => entry.connectionId === connectionId)).toMatchObject({ status: 'idle', message: null, attempts: 0, lastSyncedAt: expect.any(String) });
  second.child.kill('SIGTERM');
  expect(await second.exit).toBe(0);

  // Every row once; nothing left running or active.
  const check = postgres?.url ? openPostgres(postgres.url, { max: 1 }) : await openPglite(dataDir);
  try {
    const [metrics] = await queryRows<{ rows: number; distinct: number }>(
      check.db,
      sql`select count(*)::int as rows, count(distinct (date, metric_type))::int as distinct from account_metrics where connection_id = ${connectionId}`,
    );
    expect(metrics!.rows).toBeGreaterThan(0);
    expect(metrics!.distinct).toBe(metrics!.rows);
    const [state] = await queryRows<{ status: string; lease_owner: number | null }>(check.db, sql`select status, lease_owner from sync_states where connection_id = ${connectionId}`);
    expect(state).toEqual({ status: 'idle', lease_owner: null });
    const active = await queryRows(check.db, sql`select id from pgboss.job where name = 'sync-connection' and state = 'active'`);
    expect(active).toEqual([]);
  } finally {
    await check.close();
  }
}, 240_000);
