// A shared cache of computed analytics answers. An answer is reused only while the user's connections are
// exactly as they were when it was computed: every sync updates its connection row in the transaction that
// writes the metrics (a new row version, so a new xmin), and connecting or disconnecting changes the count
// or the newest id, so any change of data changes the fingerprint.
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';

export function createAnalyticsCache({ db, clock }: { db: Database; clock: Clock }) {
  return async function cached<T>(userId: number, cacheKey: string, compute: () => Promise<T>): Promise<T> {
    const [found] = await queryRows<{ fingerprint: string; body: T | null }>(
      db,
      sql`with fingerprint as (
            select count(*)::text || ':' || coalesce(max(id), 0)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text as value
            from platform_connections where user_id = ${userId})
          select (select value from fingerprint) as fingerprint,
                 (select body from analytics_cache
                   where user_id = ${userId} and cache_key = ${cacheKey} and fingerprint = (select value from fingerprint)) as body`,
    );
    if (found?.body != null) return found.body;
    const body = await compute();
    // Concurrent misses may both compute; the last write wins with an equally fresh answer.
    await db.execute(sql`
      insert into analytics_cache (user_id, cache_key, fingerprint, body, created_at)
      values (${userId}, ${cacheKey}, ${found?.fingerprint ?? ''}, ${JSON.stringify(body)}::jsonb, ${clock.now().toISOString()})
      on conflict (user_id, cache_key) do update set fingerprint = excluded.fingerprint, body = excluded.body, created_at = excluded.created_at`);
    return body;
  };
}

export type AnalyticsCache = ReturnType<typeof createAnalyticsCache>;
