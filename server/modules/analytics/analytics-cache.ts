// A shared cache of computed analytics answers, kept as the exact JSON text sent to the browser. An answer is
// reused only while the user's platform data fingerprint (platforms/data-fingerprint.ts) is what it was when the
// answer was computed, so any change of data is a miss.
//
// Why text and not jsonb: a hit of the shared row is then one small query and a byte copy. Decoding jsonb, re-validating hundreds of
// records with zod and serializing them again on every request cost far more than the SQL (bench/analytics.ts).
// The answer is validated against its response schema once, when it is computed.
//
// Each process also remembers the last answer it sent per user and query, with its fingerprint. The database
// stays the judge: every request reads the current fingerprint (a request's own comes with its session, in the
// authentication query), and the remembered bytes are used only when it is unchanged; otherwise the shared row (or
// a fresh computation) is used. A hit of a remembered answer therefore costs no query of its own.
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Database, queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { platformDataFingerprint } from '../../db/platform-data-fingerprint.ts';

/** Answers remembered per process (least recently used dropped first); about 100 kB each at most. */
const REMEMBERED_ANSWERS = 256;

/** Whose answer: the user, and their platform data fingerprint when the caller has just read it (with the session). */
export interface CacheOwner {
  userId: number;
  currentFingerprint?: string;
}

interface Remembered {
  fingerprint: string;
  json: Buffer;
}

export function createAnalyticsCache({ db, clock }: { db: Database; clock: Clock }) {
  const remembered = new Map<string, Remembered>();

  function remember(key: string, entry: Remembered) {
    remembered.delete(key);
    remembered.set(key, entry);
    if (remembered.size > REMEMBERED_ANSWERS) remembered.delete(remembered.keys().next().value!);
  }

  /** The answer as JSON text (UTF-8), from the cache when the user's platform data is unchanged, else computed. */
  return async function cachedJson<Schema extends z.ZodType>(
    owner: CacheOwner,
    cacheKey: string,
    schema: Schema,
    compute: () => Promise<z.input<Schema>>,
  ): Promise<Buffer> {
    const { userId, currentFingerprint } = owner;
    const memoKey = `${userId}\u0000${cacheKey}`;
    const known = remembered.get(memoKey);
    if (known && known.fingerprint === currentFingerprint) {
      remember(memoKey, known);
      return known.json;
    }
    // One round trip: the current fingerprint (unless given), and the shared answer only when this process lacks it.
    const fingerprintSql = currentFingerprint === undefined ? platformDataFingerprint(userId) : sql`${currentFingerprint}::text`;
    const [found] = await queryRows<{ fingerprint: string; body: string | null }>(
      db,
      sql`with current_fingerprint as (select ${fingerprintSql} as value)
          select f.value as fingerprint,
                 (select c.body from analytics_cache c
                   where c.user_id = ${userId} and c.cache_key = ${cacheKey} and c.fingerprint = f.value
                     and f.value is distinct from ${known?.fingerprint ?? null}::text) as body
          from current_fingerprint f`,
    );
    const fingerprint = found?.fingerprint ?? '';
    if (known && known.fingerprint === fingerprint) {
      remember(memoKey, known);
      return known.json;
    }
    if (found?.body != null) {
      const json = Buffer.from(found.body, 'utf8');
      remember(memoKey, { fingerprint, json });
      return json;
    }
    const text = JSON.stringify(schema.parse(await compute()));
    // Concurrent misses may both compute; the last write wins with an equally fresh answer.
    await db.execute(sql`
      insert into analytics_cache (user_id, cache_key, fingerprint, body, created_at)
      values (${userId}, ${cacheKey}, ${fingerprint}, ${text}, ${clock.now().toISOString()})
      on conflict (user_id, cache_key) do update set fingerprint = excluded.fingerprint, body = excluded.body, created_at = excluded.created_at`);
    const json = Buffer.from(text, 'utf8');
    remember(memoKey, { fingerprint, json });
    return json;
  };
}

export type AnalyticsCache = ReturnType<typeof createAnalyticsCache>;

/** Answers kept per user, newest first: a user asking for many distinct ranges cannot grow the table without bound. */
export const ANALYTICS_CACHE_ROWS_PER_USER = 100;
/** An answer not recomputed for this long is dropped (a daily key is dead after its day anyway). */
export const ANALYTICS_CACHE_MAX_AGE_MS = 2 * 24 * 3_600_000;

/** Deletes answers older than two days and all but each user's newest hundred. Answers the rows deleted. */
export async function pruneAnalyticsCache(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ANALYTICS_CACHE_MAX_AGE_MS).toISOString();
  const rows = await queryRows<{ user_id: number }>(
    db,
    sql`delete from analytics_cache c using (
        select user_id, cache_key, created_at < ${before} as stale,
          row_number() over (partition by user_id order by created_at desc, cache_key) as rank
        from analytics_cache
      ) r
      where c.user_id = r.user_id and c.cache_key = r.cache_key and (r.stale or r.rank > ${ANALYTICS_CACHE_ROWS_PER_USER})
      returning c.user_id`,
  );
  return rows.length;
}
