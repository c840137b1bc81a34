// Shared by the platform sandbox's tests: a sandbox on a movable clock, PKCE pairs, and small HTTP helpers that
// talk to it the way an adapter would (form posts, Basic auth, bearer GETs).
import { createHash, randomBytes } from 'node:crypto';
import { startPlatformSandbox, type PlatformName, type PlatformSandbox, type PlatformSandboxOptions } from './platform-sandbox.ts';

export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function testClock(start = new Date('2026-05-04T10:00:00Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface TestSandbox {
  sandbox: PlatformSandbox;
  clock: TestClock;
  close(): Promise<void>;
}

export async function startTestSandbox(options: PlatformSandboxOptions = {}): Promise<TestSandbox> {
  const clock = testClock();
  const sandbox = await startPlatformSandbox({ now: clock.now, ...options });
  return { sandbox, clock, close: () => sandbox.close() };
}

/** The redirect URI the product registers: its origin plus /auth/<platform>/callback. */
export const redirectUriFor = (platform: PlatformName) => `http://localhost:5173/auth/${platform}/callback`;

/** A verifier and its S256 challenge: RFC 7636 base64url, or hex as TikTok verifies it (corrections row 8). */
export function pkcePair(encoding: 'base64url' | 'hex' = 'base64url'): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest(encoding) };
}

export const newState = () => randomBytes(16).toString('base64url');

/** A real authorize URL with `params`, rewritten to the sandbox as the product does. */
export function authorizeUrl(sandbox: PlatformSandbox, realUrl: string, params: Record<string, string>): string {
  const url = new URL(realUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return sandbox.url(url.href);
}

export const callbackParams = (redirectUrl: string) => new URL(redirectUrl).searchParams;

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or null. `any`: tests read whatever the platform sent, and assertions stay short. */
  body: any;
}

async function answerOf(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return answerOf(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() }));
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return answerOf(await fetch(url, { headers }));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** HTTP Basic as RFC 6749 §2.3.1 and twitter-api-v2 build it: form-encode, join with a colon, base64. */
export const basicAuth = (clientId: string, clientSecret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
});
