// Issue 14: the tables that grow with traffic stay bounded. Run on the real database of a test server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { ANALYTICS_CACHE_ROWS_PER_USER, pruneAnalyticsCache } from '../modules/analytics/analytics-cache.ts';
import { signUpWithAccess } from '../test/platforms.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createHousekeeping } from './housekeeping.job.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});

const countOf = async (table: 'analytics_cache' | 'rate_limit_buckets', where = sql`true`) =>
  Number((await queryRows<{ n: string }>(server.db, sql`select count(*)::text as n from ${sql.raw(table)} where ${where}`))[0]!.n);

describe('housekeeping', () => {
  it('keeps each user’s newest hundred analytics answers of the last two days, and buckets of the last day', async () => {
    const account = await signUpWithAccess(server);
    const userId = account.user.id;
    const now = server.clock.now();
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    // 150 fresh answers (one per distinct range a user might ask for) and 30 from three days ago.
    for (let n = 0; n < 150; n += 1) {
      await server.db.execute(sql`insert into analytics_cache (user_id, cache_key, fingerprint, body, created_at) values (${userId}, ${`analytics:{"n":${n}}`}, 'f', '{}', ${at(n * 1000)})`);
    }
    for (let n = 0; n < 30; n += 1) {
      await server.db.execute(sql`insert into analytics_cache (user_id, cache_key, fingerprint, body, created_at) values (${userId}, ${`summary:old:${n}`}, 'f', '{}', ${at(3 * DAY)})`);
    }
    await server.db.execute(sql`insert into rate_limit_buckets (key, count, window_started_at, strikes, blocked_until) values
      ('login:ip:old', 3, ${at(2 * DAY)}, 0, null),
      ('login:ip:blocked-long-ago', 9, ${at(3 * DAY)}, 4, ${at(2 * DAY)}),
      ('login:ip:blocked-recently', 9, ${at(2 * DAY)}, 4, ${at(HOUR)}),
      ('login:ip:fresh', 1, ${at(HOUR)}, 0, null)`);

    const housekeeping = createHousekeeping({ db: server.db, clock: server.clock, pruneAnalyticsCache });
    const deleted = await housekeeping.run();
    expect(deleted.analyticsCache).toBe(80);
    expect(await countOf('analytics_cache', sql`user_id = ${userId}`)).toBe(ANALYTICS_CACHE_ROWS_PER_USER);
    // The newest stay.
    expect(await countOf('analytics_cache', sql`user_id = ${userId} and cache_key = 'analytics:{"n":0}'`)).toBe(1);
    expect(await countOf('analytics_cache', sql`user_id = ${userId} and cache_key = 'analytics:{"n":149}'`)).toBe(0);
    const keys = (await queryRows<{ key: string }>(server.db, sql`select key from rate_limit_buckets where key like 'login:ip:%' order by key`)).map((row) => row.key);
    expect(keys).toEqual(expect.arrayContaining(['login:ip:blocked-recently', 'login:ip:fresh']));
    expect(keys).not.toContain('login:ip:old');
    expect(keys).not.toContain('login:ip:blocked-long-ago');

    // Run again: nothing more to delete.
    expect(await housekeeping.run()).toEqual({ analyticsCache: 0, rateLimitBuckets: 0 });
  });

  it('an explicit date range keeps its cached answer from one day to the next', async () => {
    const account = await signUpWithAccess(server);
    const url = '/api/analytics?startDate=2026-10-01&endDate=2026-10-31';
    expect((await server.request('GET', url, { token: account.token })).status).toBe(200);
    server.clock.advance(DAY);
    expect((await server.request('GET', url, { token: account.token })).status).toBe(200);
    // One answer for the range, not one per day it was asked on.
    expect(await countOf('analytics_cache', sql`user_id = ${account.user.id} and cache_key like 'analytics:%'`)).toBe(1);
  });
});
