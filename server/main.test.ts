// The real start-up script as a process: it starts on an empty DATA_DIR, serves, and shuts down cleanly.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const directories: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  // A failed test leaves its server running: stop it (only the children this file started).
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
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
  /** Resolves once the output (so far or later) matches: waits on the process's own words, never on time. */
  const waitForOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return false;
        child.stdout.off('data', check);
        resolve();
        return true;
      };
      if (check()) return;
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`exited before ${pattern}:\n${output}`)));
    });
  return { child, exit, listening, output: () => output, waitForOutput };
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
  const env: Record<string, string> = { DATA_DIR: path.join(dataDir, 'nested', 'data'), PORT: port, HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0' };
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

it('checklist 28: with a public PUBLIC_URL and no secrets, start-up stops naming the variables and starts no stand-in', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-main-'));
  directories.push(dataDir);
  const run = startMain({ DATA_DIR: dataDir, PUBLIC_URL: 'https://analytics.example.com' });
  expect(await run.exit).toBe(1);
  for (const variable of ['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID']) {
    expect(run.output()).toContain(`${variable}: required when SANDBOX=off`);
  }
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox/);
});

it('checklist 28: with a public PUBLIC_URL, /sandbox/* is never mounted and no stand-in starts', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-main-'));
  directories.push(dataDir);
  const port = String(20_000 + ((process.pid + 1) % 20_000));
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', PUBLIC_URL: 'https://analytics.example.com', SHUTDOWN_DRAIN_MS: '0', ...productionSecrets };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const run = startMain(env);
  await run.listening;
  expect(run.output()).toContain('"sandbox":false');
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox/);
  for (const sandboxPath of ['/sandbox/mail', '/sandbox/mail/message.eml']) {
    const response = await fetch(`http://127.0.0.1:${port}${sandboxPath}`);
    expect(await response.text(), sandboxPath).not.toContain('Sandbox mailbox');
  }
  const publicConfig = await fetch(`http://127.0.0.1:${port}/api/config/public`);
  expect(await publicConfig.json()).toMatchObject({ sandbox: false });
  run.child.kill('SIGTERM');
  expect(await run.exit).toBe(0);
}, 60_000);

it('checklist 35: on SIGTERM readiness answers 503 at once, the drain still serves, idle keep-alive sockets close, and no request that arrived before the drain ended is reset', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-main-'));
  directories.push(dataDir);
  const port = Number(20_000 + ((process.pid + 2) % 20_000));
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '3000' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
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
}, 60_000);
