// Patreon's rate limits, kept on our side so a sync never sends the request Patreon would refuse (corrections row 29;
// Patreon/platform-documentation `_rate_limits.md`): 100 requests per 2 seconds per client, 100 per minute per token.
// A refreshed token keeps the count, so the minute window is kept per creator (the connection's platform user id),
// not per token string. Before each request the pacer waits until both windows have room; a wait longer than
// `maxWaitMs` is not waited out: the sync stops as rate limited and resumes after it. Windows slide on `now`
// (wall-clock milliseconds by default; tests pass their own clock and a `sleep` that moves it).
import { PlatformError } from './platform-error.ts';

export const PATREON_LIMITS = { perClient: { requests: 100, windowMs: 2_000 }, perToken: { requests: 100, windowMs: 60_000 } } as const;

export interface Pacer {
  /** Resolves when one more request of this client for this creator fits both windows, and counts it. */
  beforeRequest(clientId: string, creatorId: string): Promise<void>;
}

export function createPacer({
  now = () => Date.now(),
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  maxWaitMs = 65_000,
}: { now?: () => number; sleep?: (ms: number) => Promise<void>; maxWaitMs?: number } = {}): Pacer {
  const sent = new Map<string, number[]>();
  function waitFor(key: string, limit: { requests: number; windowMs: number }, at: number): number {
    const times = (sent.get(key) ?? []).filter((time) => time > at - limit.windowMs);
    sent.set(key, times);
    return times.length < limit.requests ? 0 : times[times.length - limit.requests]! + limit.windowMs - at;
  }
  return {
    async beforeRequest(clientId, creatorId) {
      const clientKey = `client:${clientId}`;
      const tokenKey = `creator:${clientId}:${creatorId}`;
      for (;;) {
        const at = now();
        const wait = Math.max(waitFor(clientKey, PATREON_LIMITS.perClient, at), waitFor(tokenKey, PATREON_LIMITS.perToken, at));
        if (wait <= 0) {
          sent.get(clientKey)!.push(at);
          sent.get(tokenKey)!.push(at);
          return;
        }
        if (wait > maxWaitMs) {
          throw new PlatformError('rate_limited', 'patreon', 'metrics', 'The platform is rate limiting us', { retryAfterSeconds: Math.ceil(wait / 1000) });
        }
        await sleep(wait);
      }
    },
  };
}

/** The process's one pacer: every Patreon request of this server counts against the same windows. */
export const patreonPacer = createPacer();
