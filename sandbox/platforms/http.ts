// The platform sandbox's tiny HTTP layer: replies as plain data (so failure injection and tests can handle them
// uniformly), a router keyed by the real host a request was addressed to, and body parsing for the formats the
// platforms accept (form-urlencoded everywhere, multipart for Instagram's token endpoint).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { PlatformName } from './demo-accounts.ts';

export type FailureGroup = 'token' | 'profile' | 'revoke' | 'metrics';
/**
 * `no_refresh_token`: the endpoint's own answer without its refresh token, as Google answers a repeated consent
 * without prompt=consent and X a grant without offline.access.
 */
export type FailureKind = 'server_error' | 'malformed_json' | 'invalid_grant' | 'rate_limited' | 'timeout' | 'token_expired' | 'revoked' | 'no_refresh_token';

/** Variations of an injected `rate_limited`, each the way the real platform signals it. */
export interface FailureOptions {
  /** YouTube: the Data API's spent daily quota (403 `quotaExceeded`, domain `youtube.quota`) instead of 429 throttling. */
  quotaExceeded?: boolean;
  /** Instagram (Graph API): the throttling `error.code`: 4 app, 17 user, 32 page, 613 custom, 80002 business use case; default 4. */
  graphErrorCode?: 4 | 17 | 32 | 613 | 80002;
  /** Instagram: `estimated_time_to_regain_access` (minutes) in an `X-Business-Use-Case-Usage` header. */
  regainAccessMinutes?: number;
  /** The `Retry-After` header to send instead of the platform's own: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
  retryAfter?: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (the `timeout` failure): the socket stays open until the client gives up or the sandbox closes. */
  hold?: true;
}

export interface SandboxRequest {
  method: string;
  /** The real host the request was addressed to, e.g. `oauth2.googleapis.com`. */
  host: string;
  /** The real path, e.g. `/token`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Named groups of the route's pattern. */
  params: Record<string, string>;
}

export interface RouteDefinition {
  platform: PlatformName;
  hosts: readonly string[];
  method: 'GET' | 'POST';
  /** A literal path, or a pattern whose named groups become `params`. */
  path: string | RegExp;
  /** The name recorded in `calls` (may depend on the request, e.g. YouTube's `mine=true` vs public lookups). */
  endpoint: string | ((request: SandboxRequest) => string);
  /** Which `failNext(platform, group, …)` queue applies to this route. */
  group?: FailureGroup;
  handle(request: SandboxRequest): Reply | Promise<Reply>;
}

export type RouteMatch = { route: RouteDefinition; params: Record<string, string> } | { wrongMethod: RouteDefinition } | null;

export class Router {
  private readonly byHost = new Map<string, RouteDefinition[]>();

  constructor(routes: readonly RouteDefinition[]) {
    for (const route of routes) {
      for (const host of route.hosts) {
        const list = this.byHost.get(host) ?? [];
        list.push(route);
        this.byHost.set(host, list);
      }
    }
  }

  servesHost(host: string): boolean {
    return this.byHost.has(host);
  }

  /** The platform a host belongs to (every host belongs to exactly one). */
  platformOf(host: string): PlatformName | undefined {
    return this.byHost.get(host)?.[0]?.platform;
  }

  match(host: string, method: string, path: string): RouteMatch {
    let pathMatched: RouteDefinition | undefined;
    for (const route of this.byHost.get(host) ?? []) {
      const params = matchPath(route.path, path);
      if (!params) continue;
      if (route.method !== method) {
        pathMatched ??= route;
        continue;
      }
      return { route, params };
    }
    return pathMatched ? { wrongMethod: pathMatched } : null;
  }
}

function matchPath(pattern: string | RegExp, path: string): Record<string, string> | null {
  if (typeof pattern === 'string') return pattern === path ? {} : null;
  const match = pattern.exec(path);
  if (!match) return null;
  try {
    return Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value ?? '')]));
  } catch {
    return null; // malformed percent-encoding in a path segment: no such resource
  }
}

export const MAX_BODY_BYTES = 1_000_000;

export class BodyTooLargeError extends Error {}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function mediaTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The request's form fields, or null when the body is not a form. `multipart` is accepted only where the platform
 * accepts it (Instagram's token endpoint); files are ignored, text fields kept.
 */
export async function readForm(request: SandboxRequest, options: { multipart?: boolean } = {}): Promise<URLSearchParams | null> {
  const mediaType = mediaTypeOf(request.headers);
  if (mediaType === 'application/x-www-form-urlencoded') return new URLSearchParams(request.rawBody.toString('utf8'));
  if (mediaType === 'multipart/form-data' && options.multipart) {
    try {
      // A Uint8Array view and forEach keep this portable between Node's and the DOM's fetch typings.
      const form = await new Response(new Uint8Array(request.rawBody), { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
      const fields = new URLSearchParams();
      form.forEach((value, name) => {
        if (typeof value === 'string') fields.append(name, value);
      });
      return fields;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Client credentials from `Authorization: Basic …`. RFC 6749 §2.3.1 form-encodes id and secret before base64
 * (twitter-api-v2 does; most clients' values need no encoding), so both halves are form-decoded.
 */
export function basicCredentials(headers: IncomingHttpHeaders): { clientId: string; clientSecret: string } | null {
  const header = headers.authorization;
  if (!header) return null;
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'basic') return null;
  const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const formDecode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

/** The token from `Authorization: Bearer …`, or null. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  if (!header) return null;
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'bearer') return null;
  return value.trim() || null;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }, body: JSON.stringify(body) };
}

/** A JSON reply whose text is given verbatim (for numbers JavaScript cannot represent, such as Instagram's user_id). */
export function rawJson(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }, body: text };
}

const PAGE_HEADERS = {
  // Inline styles, no scripts, nothing from elsewhere. No form-action: the consent form's answer redirects to the app.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function html(status: number, page: string): Reply {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS }, body: page };
}

export function redirect(location: string): Reply {
  return { status: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } };
}

export function svg(image: string): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
    body: image,
  };
}

/** A body cut off mid-way: what a proxy that drops the connection, or a broken upstream, hands the client. */
export function malformedJson(group: FailureGroup): Reply {
  const fragment = group === 'token' ? '{"access_token":"sbx-trunc' : group === 'revoke' ? '{"revoked":' : group === 'metrics' ? '{"data":[{"id":"17' : '{"data":{"id":"';
  return rawJson(200, fragment);
}

/**
 * Every value of a list parameter, whether it was sent comma-joined (`part=snippet,statistics`, as our adapters
 * write it) or repeated (`part=snippet&part=statistics`, as Google's client libraries send arrays), or both; null
 * when the parameter is absent. The real APIs accept both forms, so the sandbox must too.
 */
export function listParam(query: URLSearchParams, name: string): string[] | null {
  if (!query.has(name)) return null;
  return query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

/**
 * An RFC 9457 problem document, as X's API v2 answers its errors (`application/problem+json`, with `type`, `title`,
 * `detail`, `status`).
 */
export function problemJson(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Reply {
  return json(status, body, { 'content-type': 'application/problem+json', ...headers });
}
