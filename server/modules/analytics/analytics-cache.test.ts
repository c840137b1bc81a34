// The analytics cache's contract: an answer is reused only while the user's platform data fingerprint is unchanged;
// a remembered answer costs no query when the caller brings the fingerprint (read with the session); another
// process finds the answer in the shared table; an answer that breaks its schema is never stored.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Database, queryRows } from '../../db/client.ts';
import { createManualClock } from '../../test/manual-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { createAnalyticsCache } from './analytics-cache.ts';

const answer = z.object({ total: z.number() });
const clock = createManualClock(new Date('2026-11-02T10:00:00Z'));

let database: TestDatabase;
let userId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await queryRows<{ id: number }>(
    database.handle.db,
    sql`insert into users (username, email, password_hash) values ('cache_owner', 'cache_owner@example.com', 'x') returning id`,
  );
  userId = user!.id;
});
afterAll(async () => {
  await database?.drop();
});

/** The database as the cache sees it, counting the statements it runs. */
function countingDatabase() {
  const db = database.handle.db;
  let statements = 0;
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return (...args: Parameters<Database['execute']>) => {
          statements += 1;
          return target.execute(...args);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: counted, statements: () => statements };
}

/** A computation that counts its runs and answers `total`. */
function computation(total: number) {
  let runs = 0;
  return {
    compute: async () => {
      runs += 1;
      return { total };
    },
    runs: () => runs,
  };
}

const text = (json: Buffer) => json.toString('utf8');

describe('the analytics cache', () => {
  it('serves a remembered answer with no query while the caller’s fingerprint is unchanged, and recomputes when it changes', async () => {
    const counting = countingDatabase();
    const cached = createAnalyticsCache({ db: counting.db, clock });
    const first = computation(1);

    expect(text(await cached({ userId, currentFingerprint: 'f1' }, 'remembered', answer, first.compute))).toBe('{"total":1}');
    expect(first.runs()).toBe(1);
    const afterMiss = counting.statements();

    expect(text(await cached({ userId, currentFingerprint: 'f1' }, 'remembered', answer, first.compute))).toBe('{"total":1}');
    expect(first.runs()).toBe(1);
    expect(counting.statements()).toBe(afterMiss);

    const second = computation(2);
    expect(text(await cached({ userId, currentFingerprint: 'f2' }, 'remembered', answer, second.compute))).toBe('{"total":2}');
    expect(second.runs()).toBe(1);
  });

  it('lets another process reuse the shared answer of the same fingerprint, in one query', async () => {
    const thisProcess = createAnalyticsCache({ db: database.handle.db, clock });
    await thisProcess({ userId, currentFingerprint: 'g1' }, 'shared', answer, computation(7).compute);

    const counting = countingDatabase();
    const otherProcess = createAnalyticsCache({ db: counting.db, clock });
    const never = computation(8);
    expect(text(await otherProcess({ userId, currentFingerprint: 'g1' }, 'shared', answer, never.compute))).toBe('{"total":7}');
    expect(never.runs()).toBe(0);
    expect(counting.statements()).toBe(1);
    // A newer fingerprint in the other process: the stored answer is stale there.
    const fresh = computation(9);
    expect(text(await otherProcess({ userId, currentFingerprint: 'g2' }, 'shared', answer, fresh.compute))).toBe('{"total":9}');
    expect(fresh.runs()).toBe(1);
  });

  it('reads the fingerprint itself when the caller has none, so a new connection is a miss', async () => {
    const cached = createAnalyticsCache({ db: database.handle.db, clock });
    const before = computation(1);
    await cached({ userId }, 'unowned', answer, before.compute);
    await cached({ userId }, 'unowned', answer, before.compute);
    expect(before.runs()).toBe(1);

    await database.handle.db.execute(
      sql`insert into platform_connections (user_id, platform, platform_user_id, followers, connected_at, updated_at)
          values (${userId}, 'youtube', 'cache-channel', 5, now(), now())`,
    );
    const after = computation(2);
    expect(text(await cached({ userId }, 'unowned', answer, after.compute))).toBe('{"total":2}');
    expect(after.runs()).toBe(1);
  });

  it('stores nothing when the computed answer breaks its schema', async () => {
    const cached = createAnalyticsCache({ db: database.handle.db, clock });
    await expect(cached({ userId, currentFingerprint: 'h1' }, 'invalid', answer, async () => ({ total: 'many' }) as unknown as { total: number })).rejects.toThrow();
    const rows = await queryRows<{ count: number }>(database.handle.db, sql`select count(*)::int as count from analytics_cache where cache_key = 'invalid'`);
    expect(rows[0]!.count).toBe(0);
  });
});
