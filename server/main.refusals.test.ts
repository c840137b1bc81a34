// The real start-up script as a process, refusing to start on a configuration it cannot serve safely.
// @runs-once-on: pglite (a refusal comes from the configuration, before any database is opened; scripts/test.ts).
import { afterEach, expect, it } from 'vitest';
import { createMainProcesses } from './test/main-process.ts';

const processes = createMainProcesses();
// A failed test leaves its server running: stop it, and remove the data directories (only what this file made).
afterEach(() => processes.cleanUp());

const startMain = (env: Record<string, string>) => processes.start(env);

it('refuses to start with SANDBOX=off and no secrets, naming the variables', async () => {
  const dataDir = processes.dataDir();
  const run = startMain({ DATA_DIR: dataDir, SANDBOX: 'off' });
  expect(await run.exit).toBe(1);
  expect(run.output()).toContain('ENCRYPTION_KEYS: required without the sandbox (off: SANDBOX=off)');
});

it('checklist 28: with a public PUBLIC_URL and no secrets, start-up stops naming the variables and starts no stand-in', async () => {
  const dataDir = processes.dataDir();
  const run = startMain({ DATA_DIR: dataDir, PUBLIC_URL: 'https://analytics.example.com' });
  expect(await run.exit).toBe(1);
  for (const variable of ['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID']) {
    expect(run.output()).toContain(`${variable}: required without the sandbox (off: PUBLIC_URL is not a loopback address)`);
  }
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox/);
});

it('refuses to start the sandbox on a non-loopback HOST, saying why and what to set, and serves nothing', async () => {
  const dataDir = processes.dataDir();
  const run = startMain({ DATA_DIR: dataDir, HOST: '0.0.0.0', PORT: '0', SANDBOX: 'on' });
  expect(await run.exit).toBe(1);
  expect(run.output()).toContain('SANDBOX: on would serve every email (/sandbox/mail), a fake Stripe and fake platform logins to anyone reaching HOST 0.0.0.0');
  expect(run.output()).toContain('set PUBLIC_URL and the real credentials (docs/deploy.md) and leave SANDBOX unset, or bind a loopback address (HOST=127.0.0.1)');
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox|is running/);
});

it('the image\'s HOST=0.0.0.0 without PUBLIC_URL or secrets (docker run -p 3000:3000) starts no stand-in and names what is missing', async () => {
  const dataDir = processes.dataDir();
  const run = startMain({ DATA_DIR: dataDir, HOST: '0.0.0.0', PORT: '0' });
  expect(await run.exit).toBe(1);
  for (const variable of ['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'PUBLIC_URL']) {
    expect(run.output()).toContain(`${variable}: required without the sandbox (off: HOST 0.0.0.0 is not a loopback address)`);
  }
  expect(run.output()).not.toMatch(/sandbox mailbox|Stripe sandbox|platform sandbox|is running/);
});
