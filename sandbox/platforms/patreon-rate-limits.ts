// Patreon's API rate limits (../shared/platform-apis-corrections.md row 29, rule 28; Patreon/platform-documentation
// `source/includes/_rate_limits.md`): 100 requests per 2 seconds per client, and 100 requests per minute per token.
// A refreshed token keeps its predecessor's count (the documentation says refreshing does not reset it), so the
// per-token window is kept per grant: every access token of one authorization counts together. Beyond either, 429
// `errors[0].code_name: "RequestThrottled"` with `retry_after_seconds`. Windows slide on the sandbox clock.
import { bearerToken, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import type { OAuthStore } from './oauth-core.ts';

export const PER_CLIENT = { requests: 100, windowMs: 2_000 };
export const PER_TOKEN = { requests: 100, windowMs: 60_000 };

interface Window {
  requests: number;
  windowMs: number;
}

export function createPatreonRateLimits(deps: { store: OAuthStore; now(): Date; throttled(retryAfterSeconds: number): Reply }) {
  const seen = new Map<string, number[]>();

  /** Milliseconds until `key` may make another request within `window` (0: now), the old entries pruned. */
  function wait(key: string, window: Window, nowMs: number): number {
    const times = (seen.get(key) ?? []).filter((time) => time > nowMs - window.windowMs);
    seen.set(key, times);
    return times.length < window.requests ? 0 : times[times.length - window.requests]! + window.windowMs - nowMs;
  }

  /** The route, answering 429 instead when the caller's client or grant has spent its window. */
  function limited(route: RouteDefinition): RouteDefinition {
    return {
      ...route,
      handle(request: SandboxRequest) {
        const check = deps.store.checkAccess('patreon', bearerToken(request.headers));
        // An unusable token is the route's own 401; it is not counted.
        if (!check.ok) return route.handle(request);
        const nowMs = deps.now().getTime();
        const clientKey = `client:${check.grant.clientId}`;
        const grantKey = `grant:${check.grant.id}`;
        const waitMs = Math.max(wait(clientKey, PER_CLIENT, nowMs), wait(grantKey, PER_TOKEN, nowMs));
        if (waitMs > 0) return deps.throttled(Math.max(1, Math.ceil(waitMs / 1000)));
        seen.get(clientKey)!.push(nowMs);
        seen.get(grantKey)!.push(nowMs);
        return route.handle(request);
      },
    };
  }

  return { limited };
}
