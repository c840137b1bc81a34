// Starts the real server (buildApp + listen on a loopback port) on a fresh database, with a real SMTP
// server for its mail and a manual clock. Tests talk to it over HTTP, as the web app does.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { createSyncDriver } from './sync.ts';
import { createJobDriver } from './jobs.ts';
import { type PlatformSandbox, startPlatformSandbox } from '../../sandbox/platforms/platform-sandbox.ts';
import { startStripeSandbox, type StripeSandbox } from '../../sandbox/stripe/stripe-sandbox.ts';
import { buildApp } from '../app.ts';
import { loadConfig, withPlatformSandbox, withStripeSandbox } from '../config.ts';
import { createManualClock } from './manual-clock.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { confirmationLinkParams, isConfirmationMailTo, startSmtpCapture } from './smtp-capture.ts';
import { WELCOME_SUBJECT } from '../modules/accounts/emails.ts';

// A *.localhost name is loopback (RFC 6761), so the sandbox may run, yet it is not the localhost the platform
// sandbox accepts for any port: the exact redirect URIs are still checked.
export const TEST_PUBLIC_URL = 'http://app.analyticshub.localhost';
export const TEST_ENCRYPTION_KEYS = `v1:${Buffer.from('analytics-hub-test-key-32-bytes!').toString('base64')}`;

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /**
   * Also start the Stripe sandbox, with its webhooks going to this server, and point billing at it, as
   * server/main.ts does. The sandbox runs on the server's manual clock: moving the clock moves Stripe's.
   */
  stripe?: boolean;
  /**
   * Also start the platform sandbox (all six platforms) on the server's manual clock, and point every platform
   * at it as server/main.ts does. Platform calls get the production deadline (PLATFORM_TIMEOUT_MS, 10 s): the
   * sandbox, the embedded database and the test share one event loop, and on a loaded machine a synchronous PGlite
   * statement can hold it past a short deadline, so an answer already received read as a timeout (a PGlite-only CI
   * failure: a YouTube sync retried after a spurious timeout). A test of the timeout itself sets a shorter one
   * through `env`.
   */
  platforms?: boolean;
  /**
   * A platform sandbox the test started itself, used as `platforms` would use its own and left running on close
   * (e.g. for server processes the test starts after this server).
   */
  platformSandbox?: PlatformSandbox;
  /** The database to run on; by default a fresh copy of the test run's template (inside Vitest only). */
  database?: TestDatabase;
}

export async function startTestServer(options: TestServerOptions = {}) {
  const database = options.database ?? (await createTestDatabase());
  const smtp = await startSmtpCapture();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ah-test-'));
  const clock = createManualClock(new Date('2026-11-02T10:00:00Z'));
  const logLines: string[] = [];
  /** Every response body and header block the server sent through `request`, for scans (no platform token ever leaves). */
  const responseBodies: string[] = [];
  const responseHeaders: string[] = [];
  /** Passwords, bearer tokens and Stripe signatures sent to the server, and session tokens it issued: never logged. */
  const credentials = new Set<string>();
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  let config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_PUBLIC_URL,
    SMTP_URL: smtp.url,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LOG_LEVEL: 'info',
    // Tests run sync jobs themselves with `sync.drain()`: no polling workers, no schedule timers.
    SYNC_WORKERS: 'off',
    // The sandboxes, the embedded database and the test itself share this process's event loop, so a large seed
    // or sync stalls it for a whole sample (which under-pressure counts as an infinite delay): that is the test's
    // own work, not overload. Off here; server/plugins/overload.test.ts sets its own thresholds.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    // Sign-up and resend confirmation would each wait half a second; the tests of that floor set their own.
    AUTH_RESPONSE_FLOOR_MS: '0',
    ...options.env,
  });
  // The app listens on a port the system picks (a port probed free beforehand can be taken by any outgoing
  // connection before the app listens: a CI run failed on EADDRINUSE). The Stripe sandbox, started first since the app
  // needs its key, reads the webhook address when it delivers; nothing is delivered before the app listens.
  let webhookUrl = '';
  let stripeSandbox: StripeSandbox | undefined;
  if (options.stripe) {
    stripeSandbox = await startStripeSandbox({
      webhookUrl: () => webhookUrl,
      now: () => clock.now(),
      logger: {
        info() {},
        warn(obj, msg) {
          logLines.push(JSON.stringify({ source: 'stripe-sandbox', msg, ...obj }));
        },
      },
    });
    config = withStripeSandbox(config, stripeSandbox);
  }
  let platformSandbox: PlatformSandbox | undefined = options.platformSandbox;
  if (platformSandbox) {
    config = withPlatformSandbox(config, platformSandbox);
  } else if (options.platforms) {
    platformSandbox = await startPlatformSandbox({
      now: () => clock.now(),
      // The platform sandbox accepts any port only on localhost and 127.0.0.1: register the test server's callbacks exactly.
      allowedRedirectUris: PLATFORM_NAMES.map((platform) => `${TEST_PUBLIC_URL}/auth/${platform}/callback`),
      logger: {
        info(obj, msg) {
          logLines.push(JSON.stringify({ source: 'platform-sandbox', msg, ...obj }));
        },
        warn(obj, msg) {
          logLines.push(JSON.stringify({ source: 'platform-sandbox', msg, ...obj }));
        },
      },
    });
    config = withPlatformSandbox(config, platformSandbox);
  }
  const { app, mailer, platforms, tokenCustody, jobQueue, syncJobs, youngPostJobs, reports, notifications, billingJobs, answerWarming, retention } = await buildApp({ config, database: database.handle, clock, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  webhookUrl = `${baseUrl}/api/stripe/webhook`;

  async function request<T = any>(
    method: string,
    urlPath: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    rememberCredentials(credentials, init.body, headers);
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(init.body);
    }
    const response = await fetch(`${baseUrl}${urlPath}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    responseBodies.push(text);
    const headerLines: string[] = [];
    response.headers.forEach((value, name) => headerLines.push(`${name}: ${value}`));
    responseHeaders.push(headerLines.join('\n'));
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const issued = (parsed as { token?: unknown } | undefined)?.token;
    if (typeof issued === 'string') credentials.add(issued).add(issued.split('.').at(-1)!);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  let userCounter = 0;
  /** Registers, confirms and signs in a new user; returns its token. */
  async function signUp(overrides: { username?: string; email?: string; password?: string; confirm?: boolean } = {}) {
    userCounter += 1;
    const username = overrides.username ?? `creator${userCounter}_${Math.floor(clock.now().getTime() / 1000) % 100000}`;
    const email = overrides.email ?? `${username}@example.com`;
    const password = overrides.password ?? 'correct horse battery staple';
    const registered = await request('POST', '/api/auth/register', { body: { username, email, password } });
    if (registered.status !== 201) throw new Error(`sign-up failed: ${registered.status} ${JSON.stringify(registered.body)}`);
    if (overrides.confirm === false) return { username, email, password, user: registered.body.user, token: undefined as string | undefined };
    const mail = await smtp.waitFor((message) => isConfirmationMailTo(message, email));
    const confirmed = await request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(mail) });
    if (confirmed.status !== 200) throw new Error(`confirmation failed: ${confirmed.status}`);
    // The welcome goes out in the background: waited for here, so it never lands among a test's "mails since".
    await smtp.waitFor((message) => message.to.includes(email) && message.subject === WELCOME_SUBJECT);
    const login = await request('POST', '/api/auth/login', { body: { username, password } });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    return { username, email, password, user: login.body.user, token: login.body.token as string | undefined };
  }

  return {
    app,
    baseUrl,
    clock,
    config,
    database,
    db: database.handle.db,
    smtp,
    mailer,
    logLines,
    responseBodies,
    responseHeaders,
    /** The platforms service as built into the app. */
    platforms,
    /** Token custody as built into the app (tokens for platform calls, re-encryption). */
    tokenCustody,
    /** The sync jobs, driven as a worker would: `sync.drain()` runs queued jobs until none is left. */
    sync: createSyncDriver(jobQueue, syncJobs),
    /**
     * The young-post poll: `enqueueDue()` is its schedule's work, `drain()` runs the queued reads as a worker would,
     * `readConnection(id)` reads one connection now.
     */
    youngPosts: { enqueueDue: youngPostJobs.enqueueDue, readConnection: youngPostJobs.readConnection, ...createJobDriver(jobQueue, youngPostJobs.readJob) },
    /** The emailed reports: `reports.runDue()` sends what is due at the clock's time (no cron in tests). */
    reports,
    /** Alerts: `notifications.connectionNeedsUser(…)` is what a sync's give-up calls. */
    notifications,
    /** The retried releases of deleted accounts' Stripe customers: `customerReleases.drain()` runs the queued ones. */
    customerReleases: createJobDriver(jobQueue, billingJobs.definitions[0]),
    /** The analytics answers computed after a stored sync: `answerWarming.drain({ ignoreStartAfter: true })` runs the queued ones now. */
    answerWarming: createJobDriver(jobQueue, answerWarming.definition),
    /** The daily data-retention job's work: `retention.run()` applies the rules at the clock's time (no cron in tests). */
    retention,
    /** Only with `{ stripe: true }`. */
    stripeSandbox,
    /** Only with `{ platforms: true }`. */
    platformSandbox,
    request,
    signUp,
    async close() {
      // A webhook still in flight would hold its keep-alive connection open and stall app.close() for
      // Fastify's keepAliveTimeout (72 s): let Stripe's deliveries finish first.
      await stripeSandbox?.flushWebhooks();
      await app.close();
      // Checklist 25, for every test file that uses the platforms: no code, token or client secret the platforms
      // issued appears in anything this server answered or logged (read after close, so shutdown logs count too).
      const leaked = platformSandbox ? leakedSecrets(platformSandbox.issuedSecrets(), [...responseBodies, ...responseHeaders, ...logLines]) : [];
      // Checklist 40, for every test file: no password, bearer token, Stripe signature, session token or emailed link
      // token (confirmation, email change, unsubscribe) appears in a log line.
      for (const mail of smtp.messages) for (const match of `${mail.text}\n${mail.html}`.matchAll(/[?&]token=([A-Za-z0-9_%-]{20,})/g)) credentials.add(decodeURIComponent(match[1]!));
      const logged = leakedSecrets([...credentials], logLines);
      await stripeSandbox?.close();
      if (!options.platformSandbox) await platformSandbox?.close();
      await smtp.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (leaked.length > 0) throw new Error(`checklist 25: platform secrets left the backend (in a response or a log line): ${leaked.join(', ')}`);
      if (logged.length > 0) throw new Error(`checklist 40: credentials were written to the log: ${logged.join(', ')}`);
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The secrets found in any of the texts, each shown by its first characters only (one character repeated is no secret). */
function leakedSecrets(secrets: readonly string[], texts: readonly string[]): string[] {
  return secrets
    .filter((secret) => secret.length >= 8 && !/^(.)\1*$/.test(secret) && texts.some((text) => text.includes(secret)))
    .map((secret) => `${secret.slice(0, 6)}…`);
}

const PASSWORD_FIELDS = ['password', 'currentPassword', 'newPassword'];

/** What a request carries that must never be logged: passwords in its body, its bearer token, its Stripe signatures. */
function rememberCredentials(into: Set<string>, body: unknown, headers: Record<string, string>) {
  if (body && typeof body === 'object') {
    for (const field of PASSWORD_FIELDS) {
      const value = (body as Record<string, unknown>)[field];
      if (typeof value === 'string') into.add(value);
    }
  }
  const bearer = /^Bearer (\S{16,})$/.exec(headers.authorization ?? '')?.[1];
  if (bearer) into.add(bearer);
  for (const match of (headers['stripe-signature'] ?? '').matchAll(/v1=([0-9a-f]{64})/g)) into.add(match[1]!);
}
