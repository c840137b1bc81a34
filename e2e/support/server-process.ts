// Starts the real product (`node --import tsx server/main.ts`, serving the built web app) as its own
// process on a free port with a fresh data directory — and a fresh database on PostgreSQL runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../server/lib/free-port.ts';

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-e2e-'));
  let databaseName: string | undefined;
  let databaseUrl = process.env.DATABASE_URL || undefined;
  if (databaseUrl) {
    databaseName = `ah_e2e_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    // Thrown away after the journey: commits need not wait for the disk (server/test/databases.ts says why).
    await admin.query(`alter database ${databaseName} set synchronous_commit = off`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const baseUrl = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // No load balancer to notice a draining readiness here: close at once on SIGTERM.
      SHUTDOWN_DRAIN_MS: '0',
      // Every test of a worker signs up from 127.0.0.1 on the worker's one server: more than a person would in an hour.
      REGISTER_LIMIT_PER_IP_PER_HOUR: '200',
      // Chromium, PostgreSQL and this server share two cores in CI, and a start-up's first work (the ECB history, the
      // sandbox's generated data) once stalled the loop past the 1 s default: the journeys' sign-up got the 503 of load
      // shedding. Shedding has its own tests (server/plugins/overload*.test.ts); here it would only measure the machine.
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '5000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    dataDir,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseName && process.env.DATABASE_URL) {
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${databaseName} with (force)`);
        await admin.end();
      }
    },
  };
}
