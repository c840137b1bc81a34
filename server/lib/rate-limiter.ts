// Rate limits kept in the database so that every server process counts against the same buckets.
// Each hit is one atomic upsert: concurrent requests cannot slip between a read and a write.
import { eq, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.ts';
import { rateLimitBuckets } from '../db/schema.ts';
import type { Clock } from './clock.ts';

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until a retry can succeed; 0 when allowed. */
  retryAfterSeconds: number;
}

interface BucketRow {
  count: number;
  window_started_at: string | Date;
  blocked_until: string | Date | null;
  strikes: number;
}

const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

export interface FailureThrottleOptions {
  /** Failures allowed in a window before the key is blocked. */
  maxFailures: number;
  windowMs: number;
  /** First block; each further block doubles it, up to maxBlockMs. */
  baseBlockMs: number;
  maxBlockMs: number;
}

export function createRateLimiter({ db, clock }: { db: Database; clock: Clock }) {
  /** Fixed window: at most `limit` hits per `windowMs` for this key. */
  async function hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = clock.now();
    const windowExpired = new Date(now.getTime() - windowMs);
    const rows = await queryRows<BucketRow>(db, sql`
      insert into rate_limit_buckets as b (key, count, window_started_at)
      values (${key}, 1, ${now.toISOString()})
      on conflict (key) do update set
        count = case when b.window_started_at <= ${windowExpired.toISOString()} then 1 else b.count + 1 end,
        window_started_at = case when b.window_started_at <= ${windowExpired.toISOString()} then ${now.toISOString()}::timestamptz else b.window_started_at end
      returning count, window_started_at, blocked_until, strikes`);
    const row = rows[0]!;
    if (row.count <= limit) return { allowed: true, retryAfterSeconds: 0 };
    const windowEnd = new Date(toDate(row.window_started_at).getTime() + windowMs);
    return { allowed: false, retryAfterSeconds: secondsUntil(windowEnd, now) };
  }

  /**
   * Throttle for guesses against one account: each attempt is reserved before it is evaluated (so 50
   * parallel attempts evaluate at most `maxFailures`), failures past the limit block the key for a delay
   * that doubles with every further block, and a success clears the key.
   */
  function failureThrottle(options: FailureThrottleOptions) {
    const blockFor = (strikes: number) => Math.min(options.maxBlockMs, options.baseBlockMs * 2 ** strikes);

    async function reserveAttempt(key: string): Promise<RateLimitDecision> {
      const now = clock.now();
      const iso = now.toISOString();
      const windowExpired = new Date(now.getTime() - options.windowMs).toISOString();
      // States: blocked (no change), window over (start afresh), block just ended (one probe allowed),
      // otherwise count the attempt.
      const rows = await queryRows<BucketRow>(db, sql`
        insert into rate_limit_buckets as b (key, count, window_started_at)
        values (${key}, 1, ${iso})
        on conflict (key) do update set
          count = case
            when b.blocked_until > ${iso} then b.count
            when b.window_started_at <= ${windowExpired} and (b.blocked_until is null or b.blocked_until <= ${iso}) then 1
            when b.blocked_until is not null then ${options.maxFailures}
            else b.count + 1 end,
          strikes = case
            when b.blocked_until > ${iso} then b.strikes
            when b.window_started_at <= ${windowExpired} and (b.blocked_until is null or b.blocked_until <= ${iso}) then 0
            else b.strikes end,
          window_started_at = case
            when b.blocked_until > ${iso} then b.window_started_at
            when b.window_started_at <= ${windowExpired} and (b.blocked_until is null or b.blocked_until <= ${iso}) then ${iso}::timestamptz
            else b.window_started_at end,
          blocked_until = case when b.blocked_until > ${iso} then b.blocked_until else null end
        returning count, window_started_at, blocked_until, strikes`);
      const row = rows[0]!;
      if (row.blocked_until && toDate(row.blocked_until) > now) {
        return { allowed: false, retryAfterSeconds: secondsUntil(toDate(row.blocked_until), now) };
      }
      if (row.count > options.maxFailures) {
        return { allowed: false, retryAfterSeconds: Math.ceil(blockFor(row.strikes) / 1000) };
      }
      return { allowed: true, retryAfterSeconds: 0 };
    }

    /** Called after a failed attempt; blocks the key once its failures reach the limit. */
    async function recordFailure(key: string): Promise<void> {
      const now = clock.now();
      await db.execute(sql`
        update rate_limit_buckets set
          blocked_until = ${now.toISOString()}::timestamptz + (least(${options.maxBlockMs}, ${options.baseBlockMs} * power(2, strikes)) * interval '1 millisecond'),
          strikes = strikes + 1
        where key = ${key} and count >= ${options.maxFailures} and (blocked_until is null or blocked_until <= ${now.toISOString()})`);
    }

    async function clear(key: string): Promise<void> {
      await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
    }

    return { reserveAttempt, recordFailure, clear };
  }

  return { hit, failureThrottle };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** A bucket outlives its window and its last block by this much (its strikes still count for a repeat offender). */
export const RATE_LIMIT_BUCKET_RETENTION_MS = 24 * 3_600_000;

/**
 * Deletes buckets whose window started and whose last block ended over a day ago: every window is an hour at most,
 * so the table holds the keys of the last day only. Answers the rows deleted.
 */
export async function pruneRateLimitBuckets(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - RATE_LIMIT_BUCKET_RETENTION_MS).toISOString();
  const rows = await queryRows<{ key: string }>(
    db,
    sql`delete from rate_limit_buckets where window_started_at < ${before} and (blocked_until is null or blocked_until < ${before}) returning key`,
  );
  return rows.length;
}
