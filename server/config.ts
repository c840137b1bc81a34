// The only reader of process.env. Everything the server does is decided by the values parsed here,
// never by NODE_ENV: an explicit variable says what it means.
import { REGISTER_LIMIT_PER_IP } from './lib/account-limits.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import path from 'node:path';
import { z } from 'zod';
import { PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import { DEFAULT_LINKEDIN_VERSION, LINKEDIN_VERSION_PATTERN } from './providers/linkedin-version.ts';
import type { FollowerHistoryMeaning } from './providers/provider.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
  .transform((value) => ['true', '1', 'on', 'yes'].includes(value));

/**
 * Fastify's `trustProxy`: which hops may speak for the client in X-Forwarded-For. `request.ip`, and with it
 * every per-IP rate limit, is the nearest address that is not trusted.
 */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

const TRUST_PROXY_FORMS =
  "expected false, a hop count (1 = one reverse proxy in front) or the proxies' addresses or CIDRs (e.g. 10.0.0.0/8,127.0.0.1)";

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustProxySetting = z
  .string()
  .optional()
  .transform((raw, context): TrustProxy => {
    const value = raw?.trim().toLowerCase();
    if (value === undefined || ['false', '0', 'off', 'no'].includes(value)) return false;
    if (['true', 'on', 'yes'].includes(value)) {
      // Trusting every hop makes request.ip the left-most X-Forwarded-For entry, which the client writes.
      context.issues.push({ code: 'custom', input: raw, message: `trusting every hop lets clients choose their IP; ${TRUST_PROXY_FORMS}` });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (!Number.isSafeInteger(hops)) {
        context.issues.push({ code: 'custom', input: raw, message: TRUST_PROXY_FORMS });
        return z.NEVER;
      }
      // Fastify 5 ignores a numeric trustProxy (it trusts nothing), so the hop count is a trust function. It
      // trusts the nearest `hops` addresses whoever they are: only for a server that the proxy alone can reach.
      return (_address, hop) => hop < hops;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    if (!entries.every(isAddressOrCidr)) {
      context.issues.push({ code: 'custom', input: raw, message: TRUST_PROXY_FORMS });
      return z.NEVER;
    }
    return entries;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /**
   * Unset: on while HOST and PUBLIC_URL are both loopback addresses, off otherwise. `on` with a non-loopback HOST or
   * PUBLIC_URL is refused (unless SANDBOX_PRIVATE_HOST vouches for the HOST).
   */
  SANDBOX: z.enum(['on', 'off']).optional(),
  /**
   * Says that HOST, though not a loopback address, is reachable from this machine only: a container whose port is
   * published on 127.0.0.1 (compose.yaml's demo). The server cannot check it, so it is never the default.
   */
  SANDBOX_PRIVATE_HOST: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxySetting,
  ENCRYPTION_KEYS: z
    .string()
    .regex(/^v\d+:[A-Za-z0-9+/=_-]{43,}(,v\d+:[A-Za-z0-9+/=_-]{43,})*$/, 'expected "v1:<base64 32-byte key>[,v0:<older key>]"')
    .optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Analytics Hub <no-reply@analyticshub.local>'),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, 'expected a Stripe secret key (sk_test_… or sk_live_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, 'expected a webhook signing secret (whsec_…)').optional(),
  STRIPE_PRICE_ID: z.string().regex(/^price_/, 'expected a price id (price_…)').optional(),
  STRIPE_PAYMENT_LINK: z.url({ protocol: /^https?$/ }).optional(),
  STRIPE_REQUIRE_CARD: booleanFlag.default(false),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Load shedding: above this mean event-loop delay (ms), requests other than health and readiness get 503; 0: off. */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** ... or above this much used V8 heap (MB); unset: 90 % of the heap limit. */
  OVERLOAD_MAX_HEAP_USED_MB: z.coerce.number().int().min(1).optional(),
  /** The Retry-After (seconds) sent with those 503s. */
  OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Sign-ups accepted per client IP per hour (a shared office or a test rig may need more). */
  REGISTER_LIMIT_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(REGISTER_LIMIT_PER_IP.limit),
  /** Requests one personal API token may make per API_TOKEN_RATE_WINDOW_SECONDS (decision 020); then 429 with Retry-After. */
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(600),
  /** At most an hour: rate-limit buckets are pruned a day after their window started. */
  API_TOKEN_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /** Sign-up and resend confirmation answer no sooner than this (ms), so their timing does not tell whether an account exists. */
  AUTH_RESPONSE_FLOOR_MS: z.coerce.number().int().min(0).max(5_000).default(500),
  /** After SIGTERM, readiness answers 503 and requests are still served this long, so the load balancer can stop sending. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  // Platform OAuth apps (TikTok calls its client id a client key); each platform without both values is
  // unavailable, or served by the platform sandbox when SANDBOX=on.
  YOUTUBE_CLIENT_ID: z.string().min(1).optional(),
  YOUTUBE_CLIENT_SECRET: z.string().min(1).optional(),
  INSTAGRAM_CLIENT_ID: z.string().min(1).optional(),
  INSTAGRAM_CLIENT_SECRET: z.string().min(1).optional(),
  TIKTOK_CLIENT_KEY: z.string().min(1).optional(),
  TIKTOK_CLIENT_SECRET: z.string().min(1).optional(),
  TWITTER_CLIENT_ID: z.string().min(1).optional(),
  TWITTER_CLIENT_SECRET: z.string().min(1).optional(),
  LINKEDIN_CLIENT_ID: z.string().min(1).optional(),
  LINKEDIN_CLIENT_SECRET: z.string().min(1).optional(),
  PATREON_CLIENT_ID: z.string().min(1).optional(),
  PATREON_CLIENT_SECRET: z.string().min(1).optional(),
  /** App credentials for reading public profiles without a user's OAuth (manual connections). */
  YOUTUBE_API_KEY: z.string().min(1).optional(),
  TWITTER_BEARER_TOKEN: z.string().min(1).optional(),
  // Base URL that stands in for every host of a platform: https://<host>/<path> is called as <URL>/<host>/<path>.
  YOUTUBE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  INSTAGRAM_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  TIKTOK_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  TWITTER_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  LINKEDIN_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The LinkedIn-Version sent: a published month, bumped deliberately (LinkedIn publishes no December version). */
  LINKEDIN_API_VERSION: z
    .string()
    .regex(LINKEDIN_VERSION_PATTERN, 'expected a published LinkedIn version as YYYYMM, January to November (LinkedIn publishes no December version)')
    .default(DEFAULT_LINKEDIN_VERSION),
  /**
   * What LinkedIn's daily follower values (`memberFollowersCount?q=dateRange`) mean: the day's new followers
   * (`daily_gain`, as the one published capture and peers read them) or the day's total (`running_total`).
   * Unverified (docs/platforms/linkedin.md#follower-history): set it once a real account has shown which.
   */
  LINKEDIN_FOLLOWER_HISTORY: z.enum(['daily_gain', 'running_total']).default('daily_gain'),
  PATREON_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Stands in for https://www.ecb.europa.eu (the euro reference rates the income view converts with), as the platforms'
   * URLs do for their hosts. Unset: the ECB itself, or the local ECB sandbox while SANDBOX=on and neither YouTube nor
   * Patreon has real credentials (real income is converted with real rates).
   */
  ECB_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long one call to a platform may take before it counts as failed (ms). */
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Every active connection is synced this often (hours). */
  SYNC_INTERVAL_HOURS: z.coerce.number().min(0.25).max(168).default(6),
  /**
   * What this process does: `all` (HTTP and the jobs, what `npm start` does), `web` (HTTP only: no job is worked and no
   * schedule fired here), `worker` (the jobs and schedules; HTTP only for /api/health and /api/ready). docs/deploy.md.
   */
  ROLE: z.enum(['all', 'web', 'worker'], { message: 'expected all, web or worker' }).default('all'),
  /** GET /metrics answers (Prometheus text) only to `Authorization: Bearer <METRICS_TOKEN>`; unset: no /metrics on the app. */
  METRICS_TOKEN: z.string().min(32, 'use at least 32 random characters (openssl rand -hex 24)').optional(),
  /**
   * A separate port serving only GET /metrics (never exposed by the load balancer): on loopback without METRICS_TOKEN,
   * on HOST with it, and then only to `Authorization: Bearer <METRICS_TOKEN>`.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * The public counters of each connection's posts under 7 days old are read this often (minutes), between syncs,
   * so a post's 24-hour and 7-day counts are measured rather than guessed (decision 018). 0 turns the poll off.
   */
  YOUNG_POST_POLL_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  /**
   * The Google Cloud project's YouTube Data API quota, units a day (10,000 unless Google granted more after an audit;
   * determine_quota_cost). Past 80 % of it the scheduler shares what is left (server/modules/quota/quota-sharing.ts).
   */
  YOUTUBE_DAILY_QUOTA_UNITS: z.coerce.number().int().min(1).default(10_000),
  /**
   * What X's reads may cost in a calendar month (UTC), in USD at X's published prices (each post and user read is
   * billed). Once reached, X refreshes pause until the month ends and the operator is alerted. Unset: no budget.
   */
  X_MONTHLY_BUDGET_USD: z.coerce.number().min(0).optional(),
  /** Work sync jobs and run the sync schedule in this process (ROLE=web turns it off). */
  SYNC_WORKERS: booleanFlag.default(true),
  /**
   * Retries after the first failed attempt of a sync that failed for a passing reason (5xx, timeout); then it stops
   * until the user acts. The waits double from SYNC_RETRY_DELAY_SECONDS (with jitter: between half and all of each
   * step), each capped at SYNC_RETRY_MAX_DELAY_SECONDS: by default 5, 10, 20, 40, 80 and 160 minutes, about 5 hours.
   */
  SYNC_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(6),
  SYNC_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(6 * 3600).default(300),
  SYNC_RETRY_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(24 * 3600).default(6 * 3600),
  // An OpenAI-compatible chat completions API that rewords YouTube insights; without both, the computed texts stand.
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
});

export type Env = z.input<typeof envSchema>;

export interface EncryptionKey {
  version: string;
  key: Buffer;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The stand-ins (mailbox, Stripe, platforms) may start: only on a loopback HOST and PUBLIC_URL. */
  sandbox: boolean;
  logLevel: string;
  trustProxy: TrustProxy;
  /** First key encrypts; every key can decrypt (rotation). */
  encryptionKeys: EncryptionKey[];
  smtpUrl: string | undefined;
  mailFrom: string;
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    priceId: string | undefined;
    paymentLink: string | undefined;
    requireCard: boolean;
    /** Another Stripe-compatible API to talk to (e.g. the sandbox's); undefined means api.stripe.com. */
    apiBase: string | undefined;
  };
  shutdownGraceMs: number;
  /** Sign-ups accepted per client IP per hour. */
  registerLimitPerIpPerHour: number;
  /** The minimum response time of sign-up and resend confirmation (ms); 0: none. */
  authResponseFloorMs: number;
  /** Personal API tokens: requests per token per window. */
  apiTokenRateLimit: { limit: number; windowMs: number };
  /** How long readiness answers 503 before the server stops taking requests and closes (ms). */
  shutdownDrainMs: number;
  /** Load shedding (@fastify/under-pressure): 503 with Retry-After above these; health and readiness exempt. */
  overload: { maxEventLoopDelayMs: number; maxHeapUsedBytes: number; retryAfterSeconds: number };
  platforms: Record<PlatformName, PlatformAppConfig>;
  platformAppKeys: { youtubeApiKey: string | undefined; twitterBearerToken: string | undefined };
  platformTimeoutMs: number;
  /** Prometheus metrics: the bearer token for GET /metrics, and/or a separate port serving only it. */
  metrics: { token: string | undefined; port: number | undefined };
  /** ROLE: what this process does (HTTP, jobs, or both). */
  role: 'all' | 'web' | 'worker';
  sync: { intervalHours: number; youngPostPollMinutes: number; workers: boolean; retryLimit: number; retryDelaySeconds: number; retryMaxDelaySeconds: number; youtubeDailyQuotaUnits: number };
  /** USD per calendar month each metered platform's reads may cost (X_MONTHLY_BUDGET_USD); absent: no budget. */
  platformBudgetsUsd: Partial<Record<PlatformName, number>>;
  /** Where the ECB reference rates are read: `apiUrl` stands in for https://www.ecb.europa.eu; undefined: the ECB itself. */
  exchangeRates: { apiUrl: string | undefined };
  /** The model that rewords YouTube insights; undefined when OPENAI_BASE_URL and OPENAI_API_KEY are not both set. */
  insightRewriting: { baseUrl: string; apiKey: string; model: string } | undefined;
  isSmtpConfigured: boolean;
  isStripeConfigured: boolean;
}

export interface PlatformAppConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Replaces https://<host> of every platform URL with <apiUrl>/<host> (the sandbox, a proxy); undefined: the real hosts. */
  apiUrl: string | undefined;
  /** Real credentials were configured (not filled in by the sandbox). */
  isConfigured: boolean;
  /** The API version to send, for a platform that versions its API (LinkedIn). */
  apiVersion: string | undefined;
  /** What the platform's daily follower values mean, where that is configured (LinkedIn). */
  followerHistory?: FollowerHistoryMeaning | undefined;
}

const platformEnvKeys = {
  youtube: { clientId: 'YOUTUBE_CLIENT_ID', clientSecret: 'YOUTUBE_CLIENT_SECRET', apiUrl: 'YOUTUBE_API_URL' },
  instagram: { clientId: 'INSTAGRAM_CLIENT_ID', clientSecret: 'INSTAGRAM_CLIENT_SECRET', apiUrl: 'INSTAGRAM_API_URL' },
  tiktok: { clientId: 'TIKTOK_CLIENT_KEY', clientSecret: 'TIKTOK_CLIENT_SECRET', apiUrl: 'TIKTOK_API_URL' },
  twitter: { clientId: 'TWITTER_CLIENT_ID', clientSecret: 'TWITTER_CLIENT_SECRET', apiUrl: 'TWITTER_API_URL' },
  linkedin: { clientId: 'LINKEDIN_CLIENT_ID', clientSecret: 'LINKEDIN_CLIENT_SECRET', apiUrl: 'LINKEDIN_API_URL' },
  patreon: { clientId: 'PATREON_CLIENT_ID', clientSecret: 'PATREON_CLIENT_SECRET', apiUrl: 'PATREON_API_URL' },
} as const satisfies Record<PlatformName, { clientId: keyof Env; clientSecret: keyof Env; apiUrl: keyof Env }>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function parseEncryptionKeys(raw: string): EncryptionKey[] {
  return raw.split(',').map((entry) => {
    const [version, encoded] = entry.split(':') as [string, string];
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32) throw new ConfigError([`ENCRYPTION_KEYS: key ${version} must decode to 32 bytes`]);
    // A key of one repeated byte (all zeros, or what `Buffer.alloc(32)` makes) is a placeholder, not a secret.
    if (key.every((byte) => byte === key[0])) throw new ConfigError([`ENCRYPTION_KEYS: key ${version} is a placeholder (one byte repeated); generate a random one`]);
    return { version, key };
  });
}

/** localhost (and *.localhost, RFC 6761), 127.0.0.0/8 and ::1: addresses nobody else can reach. */
export function isLoopbackUrl(url: string): boolean {
  const hostname = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIP(hostname) === 4) return hostname.startsWith('127.');
  // The URL parser writes every spelling of the IPv6 loopback as ::1.
  return hostname === '::1';
}

/** A listen address only this machine can reach: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (address === 'localhost') return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  // Every spelling of the IPv6 loopback, which has no zone; a zoned address (fe80::1%eth0) is a link, not loopback.
  return isIP(address) === 6 && !address.includes('%') && new URL(`http://[${address}]`).hostname === '[::1]';
}

const STRIPE_KEYS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID'] as const;
const SECRET_PREFIXES: Partial<Record<keyof Env, RegExp>> = {
  STRIPE_SECRET_KEY: /^(sk|rk)_(test|live)_/,
  STRIPE_WEBHOOK_SECRET: /^whsec_/,
  STRIPE_PRICE_ID: /^price_/,
};

/** A value that only looks like a secret: the prefix alone, a few characters, one character repeated, or a "changeme". */
function isPlaceholderSecret(key: keyof Env, value: string): boolean {
  const rest = value.replace(SECRET_PREFIXES[key] ?? /^/, '');
  return rest.length < 8 || /^(.)\1*$/.test(rest) || /^(x+|changeme|placeholder|your[_-]?.*|todo|secret|test)$/i.test(rest);
}

/** Problems the schema cannot see alone: a half-configured Stripe and placeholder secrets. Names, never values. */
function crossFieldProblems(values: z.output<typeof envSchema>): string[] {
  const problems: string[] = [];
  const stripeSet = STRIPE_KEYS.filter((key) => values[key]);
  if (stripeSet.length > 0 && stripeSet.length < STRIPE_KEYS.length) {
    for (const key of STRIPE_KEYS.filter((key) => !values[key])) {
      problems.push(`${key}: required with ${stripeSet.join(' and ')} (Stripe needs the secret key, the webhook secret and the price together)`);
    }
  }
  for (const key of STRIPE_KEYS) {
    const value = values[key];
    if (value && isPlaceholderSecret(key, value)) problems.push(`${key}: looks like a placeholder, not a real value`);
  }
  return problems;
}

/** When no key is configured (sandbox only), one is generated once and kept beside the data. */
function loadOrCreateLocalKey(dataDir: string): string {
  const file = path.join(dataDir, 'encryption-keys');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const generated = `v1:${randomBytes(32).toString('base64')}`;
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}

/** Parses and validates the environment. Problems name the variable, never its value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = parsed.data;
  const problems = crossFieldProblems(values);
  if (values.ROLE === 'worker' && env.SYNC_WORKERS !== undefined && !values.SYNC_WORKERS) {
    problems.push('SYNC_WORKERS: off leaves a ROLE=worker process nothing to do');
  }
  const publicUrlIsLoopback = values.PUBLIC_URL === undefined || isLoopbackUrl(values.PUBLIC_URL);
  const hostIsPrivate = isLoopbackHost(values.HOST) || values.SANDBOX_PRIVATE_HOST;
  // Fail closed: the stand-ins accept any card, any login and keep every email readable at /sandbox/mail.
  // They are for one person's machine, so they never run behind a public address or on a reachable interface,
  // whatever SANDBOX says: asking for them there stops start-up rather than being quietly ignored.
  if (values.SANDBOX === 'on' && !publicUrlIsLoopback) {
    problems.push('SANDBOX: on is only allowed while PUBLIC_URL is a loopback address (localhost, 127.0.0.0/8, ::1)');
  }
  if (values.SANDBOX === 'on' && !hostIsPrivate) {
    problems.push(
      `SANDBOX: on would serve every email (/sandbox/mail), a fake Stripe and fake platform logins to anyone reaching HOST ${values.HOST}; ` +
        'for a deployment set PUBLIC_URL and the real credentials (docs/deploy.md) and leave SANDBOX unset, or bind a loopback address (HOST=127.0.0.1)',
    );
  }
  const sandbox = (values.SANDBOX ?? (publicUrlIsLoopback && hostIsPrivate ? 'on' : 'off')) === 'on' && publicUrlIsLoopback && hostIsPrivate;

  if (!sandbox) {
    const why =
      values.SANDBOX === 'off'
        ? 'SANDBOX=off'
        : !hostIsPrivate
          ? `HOST ${values.HOST} is not a loopback address`
          : 'PUBLIC_URL is not a loopback address';
    const required = ['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'PUBLIC_URL'] as const;
    const missing = required.filter((key) => !values[key] && !problems.some((problem) => problem.startsWith(`${key}:`)));
    problems.push(...missing.map((key) => `${key}: required without the sandbox (off: ${why})`));
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(values.DATA_DIR);
  const encryptionKeys = parseEncryptionKeys(values.ENCRYPTION_KEYS ?? loadOrCreateLocalKey(dataDir));
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  const isStripeConfigured = Boolean(values.STRIPE_SECRET_KEY && values.STRIPE_WEBHOOK_SECRET && values.STRIPE_PRICE_ID);

  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    sandbox,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    encryptionKeys,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    stripe: {
      secretKey: values.STRIPE_SECRET_KEY,
      webhookSecret: values.STRIPE_WEBHOOK_SECRET,
      priceId: values.STRIPE_PRICE_ID,
      paymentLink: values.STRIPE_PAYMENT_LINK,
      requireCard: values.STRIPE_REQUIRE_CARD,
      apiBase: values.STRIPE_API_BASE,
    },
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    registerLimitPerIpPerHour: values.REGISTER_LIMIT_PER_IP_PER_HOUR,
    authResponseFloorMs: values.AUTH_RESPONSE_FLOOR_MS,
    apiTokenRateLimit: { limit: values.API_TOKEN_RATE_LIMIT, windowMs: values.API_TOKEN_RATE_WINDOW_SECONDS * 1000 },
    shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    overload: {
      maxEventLoopDelayMs: values.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes:
        values.OVERLOAD_MAX_HEAP_USED_MB !== undefined ? values.OVERLOAD_MAX_HEAP_USED_MB * 1024 * 1024 : Math.floor(getHeapStatistics().heap_size_limit * 0.9),
      retryAfterSeconds: values.OVERLOAD_RETRY_AFTER_SECONDS,
    },
    platforms: Object.fromEntries(
      PLATFORM_NAMES.map((name) => {
        const keys = platformEnvKeys[name];
        const clientId = values[keys.clientId];
        const clientSecret = values[keys.clientSecret];
        const apiVersion = name === 'linkedin' ? values.LINKEDIN_API_VERSION : undefined;
        const followerHistory = name === 'linkedin' ? values.LINKEDIN_FOLLOWER_HISTORY : undefined;
        return [name, { clientId, clientSecret, apiUrl: values[keys.apiUrl]?.replace(/\/+$/, ''), isConfigured: Boolean(clientId && clientSecret), apiVersion, followerHistory }];
      }),
    ) as Record<PlatformName, PlatformAppConfig>,
    platformAppKeys: { youtubeApiKey: values.YOUTUBE_API_KEY, twitterBearerToken: values.TWITTER_BEARER_TOKEN },
    platformTimeoutMs: values.PLATFORM_TIMEOUT_MS,
    metrics: { token: values.METRICS_TOKEN, port: values.METRICS_PORT },
    role: values.ROLE,
    sync: {
      intervalHours: values.SYNC_INTERVAL_HOURS,
      youngPostPollMinutes: values.YOUNG_POST_POLL_MINUTES,
      workers: values.ROLE !== 'web' && values.SYNC_WORKERS,
      retryLimit: values.SYNC_RETRY_LIMIT,
      retryDelaySeconds: values.SYNC_RETRY_DELAY_SECONDS,
      retryMaxDelaySeconds: values.SYNC_RETRY_MAX_DELAY_SECONDS,
      youtubeDailyQuotaUnits: values.YOUTUBE_DAILY_QUOTA_UNITS,
    },
    platformBudgetsUsd: values.X_MONTHLY_BUDGET_USD === undefined ? {} : { twitter: values.X_MONTHLY_BUDGET_USD },
    exchangeRates: { apiUrl: values.ECB_API_URL?.replace(/\/+$/, '') },
    insightRewriting:
      values.OPENAI_BASE_URL && values.OPENAI_API_KEY
        ? { baseUrl: values.OPENAI_BASE_URL.replace(/\/+$/, ''), apiKey: values.OPENAI_API_KEY, model: values.OPENAI_MODEL }
        : undefined,
    isSmtpConfigured: Boolean(values.SMTP_URL),
    isStripeConfigured,
  };
}

/**
 * The configuration with Stripe pointed at a locally started Stripe sandbox (server/main.ts starts one when
 * SANDBOX=on and Stripe is not configured). `isStripeConfigured` stays false: real Stripe is still missing.
 */
export function withStripeSandbox(
  config: Config,
  sandbox: { baseUrl: string; secretKey: string; webhookSecret: string; priceId: string; paymentLinkUrl: string },
): Config {
  return {
    ...config,
    stripe: {
      ...config.stripe,
      secretKey: sandbox.secretKey,
      webhookSecret: sandbox.webhookSecret,
      priceId: sandbox.priceId,
      paymentLink: sandbox.paymentLinkUrl,
      apiBase: sandbox.baseUrl,
    },
  };
}

/**
 * The configuration with every platform that has no credentials of its own pointed at a locally started
 * platform sandbox (server/main.ts starts one when SANDBOX=on): its credentials, and its base URL for all of
 * that platform's hosts. App keys for public-profile reads are filled in the same way when missing.
 */
export function withPlatformSandbox(
  config: Config,
  sandbox: {
    baseUrl: string;
    credentials: Record<PlatformName, { clientId: string; clientSecret: string }>;
    appKeys: { youtubeApiKey: string; twitterBearerToken: string };
  },
): Config {
  const platforms = Object.fromEntries(
    PLATFORM_NAMES.map((name) => {
      const own = config.platforms[name];
      if (own.isConfigured) return [name, own];
      return [name, { ...own, ...sandbox.credentials[name], apiUrl: sandbox.baseUrl.replace(/\/+$/, '') }];
    }),
  ) as Record<PlatformName, PlatformAppConfig>;
  return {
    ...config,
    platforms,
    platformAppKeys: {
      youtubeApiKey: config.platforms.youtube.isConfigured ? config.platformAppKeys.youtubeApiKey : sandbox.appKeys.youtubeApiKey,
      twitterBearerToken: config.platforms.twitter.isConfigured ? config.platformAppKeys.twitterBearerToken : sandbox.appKeys.twitterBearerToken,
    },
  };
}

/** Whether server/main.ts starts the ECB sandbox: sandbox mode, no ECB_API_URL, and no real YouTube or Patreon income. */
export function needsExchangeRatesSandbox(config: Config): boolean {
  return config.sandbox && !config.exchangeRates.apiUrl && !config.platforms.youtube.isConfigured && !config.platforms.patreon.isConfigured;
}

/** The configuration with the ECB rates read from a locally started ECB sandbox (server/main.ts). */
export function withExchangeRatesSandbox(config: Config, sandbox: { baseUrl: string }): Config {
  return { ...config, exchangeRates: { apiUrl: sandbox.baseUrl.replace(/\/+$/, '') } };
}
