// The real start-up script as a process: it starts on an empty DATA_DIR, serves, and shuts down cleanly.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /"url":"(http[^"]+)","sandbox"/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.on('exit', () => reject(new Error(`exited before listening:\n${output}`)));
  });
  // The first test expects the process to exit before listening; nobody awaits `listening` there.
  listening.catch(() => {});
  return { child, exit, listening, output: () => output };
}

it('refuses to start with SANDBOX=off and no secrets, naming the variables', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-main-'));
  directories.push(dataDir);
  const run = startMain({ DATA_DIR: dataDir, SANDBOX: 'off' });
  expect(await run.exit).toBe(1);
  expect(run.output()).toContain('ENCRYPTION_KEYS: required when SANDBOX=off');
});

it('starts on an empty data directory, answers, and exits 0 on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-main-'));
  directories.push(dataDir);
  const port = String(20_000 + (process.pid % 20_000));
  const env: Record<string, string> = { DATA_DIR: path.join(dataDir, 'nested', 'data'), PORT: port, HOST: '127.0.0.1' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const run = startMain(env);
  await run.listening;
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
  expect(ready.status).toBe(200);
  run.child.kill('SIGTERM');
  expect(await run.exit).toBe(0);
  expect(run.output()).toContain('shutting down');
}, 60_000);
