// The one HTTP client every provider uses: a deadline on every call, network failures as `unavailable`, bodies
// parsed with zod at the boundary so a change on the platform's side fails loudly instead of storing garbage.
import { z } from 'zod';
import type { PlatformName } from '#contract/platforms.ts';
import { retryAfterSeconds } from './http-date.ts';
import { PlatformError } from './platform-error.ts';
import type { ProviderContext } from './provider.ts';

export function buildUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

export interface PlatformRequest {
  platform: PlatformName;
  /** For logs and errors: 'token', 'refresh', 'profile', 'revoke', 'lookup'. */
  operation: string;
  method?: 'GET' | 'POST';
  /** The real URL (query included); mapped through `context.url`. */
  url: string;
  headers?: Record<string, string>;
  form?: Record<string, string | undefined>;
  /** A JSON request body (TikTok's video list). */
  json?: unknown;
  /** `text`: a successful answer's body is kept as text (YouTube's report CSVs); errors are still read as JSON. */
  responseType?: 'json' | 'text';
}

export interface PlatformResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body was empty or not JSON; the text itself for a 2xx `text` request. */
  body: unknown;
  /** When the answer arrived, on the context's clock: the reference for relative waits (an HTTP-date Retry-After). */
  receivedAt: Date;
}

/** One HTTP call to a platform with a deadline. Network failures and timeouts become `unavailable`. */
export async function callPlatform(context: ProviderContext, request: PlatformRequest): Promise<PlatformResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(request.form).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(context.url(request.url), {
      method: request.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(context.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new PlatformError('unavailable', request.platform, request.operation, timedOut ? 'The platform did not answer in time' : 'The platform could not be reached');
  }
  let parsed: unknown;
  if (request.responseType === 'text' && response.status >= 200 && response.status < 300) parsed = text;
  else if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed, receivedAt: context.now() };
}

/** `details.errorCode` of a response that did not parse: retrying would read the same garbage. */
export const MALFORMED_RESPONSE = 'malformed_response';

/** Parses a successful body with `schema`; anything else is the platform misbehaving. */
export function parseBody<T>(schema: z.ZodType<T>, response: PlatformResponse, platform: PlatformName, operation: string): T {
  const result = schema.safeParse(response.body);
  if (!result.success) {
    throw new PlatformError('unavailable', platform, operation, 'The platform sent a response we could not read', { status: response.status, errorCode: MALFORMED_RESPONSE });
  }
  return result.data;
}

/** The error for a non-2xx answer of an API (profile) call. */
export function apiError(response: PlatformResponse, platform: PlatformName, operation: string, errorCode?: string): PlatformError {
  const details = { status: response.status, errorCode, retryAfterSeconds: retryAfterSeconds(response) };
  if (response.status === 429) return new PlatformError('rate_limited', platform, operation, 'The platform is rate limiting us', details);
  if (response.status === 401) return new PlatformError('unauthorized', platform, operation, 'The platform refused the access token', details);
  if (response.status === 404) return new PlatformError('not_found', platform, operation, 'The platform has no such account', details);
  return new PlatformError('unavailable', platform, operation, 'The platform could not answer', details);
}

/** Platforms report counts as numbers or numeric strings (YouTube's uint64 strings). */
export const count = z.union([z.number(), z.string().regex(/^\d+$/)]).transform((value) => Math.min(Number(value), 2_147_483_647));

/** Counts calls of one sync run. */
export function callCounter() {
  const usage = { calls: 0, quotaUnits: 0 };
  return {
    usage,
    call(context: ProviderContext, request: PlatformRequest, units = 0) {
      usage.calls += 1;
      usage.quotaUnits += units;
      return callPlatform(context, request);
    },
  };
}

