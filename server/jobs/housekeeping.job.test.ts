// Issue 14: the tables that grow with traffic stay bounded. Run on the real database of a test server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { ANALYTICS_CACHE_ROWS_PER_USER, pruneAnalyticsCache } from '../modules/analytics/analytics-cache.ts';
import { pruneEventStreams } from '../modules/events/events.repository.ts';
import { pruneDeadLetters } from '../modules/sync/sync.repository.ts';
import { pruneContentMetricReads } from '../modules/sync/young-posts.repository.ts';
import { analyticsFactory } from '../test/analytics-factory.ts';
import { signUpWithAccess } from '../test/platforms.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createHousekeeping, refreshPlannerStatistics } from './housekeeping.job.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});

const prunes = { analyticsCache: pruneAnalyticsCache, eventStreams: pruneEventStreams, syncDeadLetters: pruneDeadLetters, contentMetricReads: pruneContentMetricReads };

const countOf = async (table: 'analytics_cache' | 'rate_limit_buckets' | 'event_streams' | 'event_stream_tickets' | 'sync_dead_letters' | 'content_metric_reads', where = sql`true`) =>
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

    const housekeeping = createHousekeeping({ db: server.db, clock: server.clock, prunes });
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
    expect(await housekeeping.run()).toEqual({ analyticsCache: 0, eventStreams: 0, syncDeadLetters: 0, contentMetricReads: 0, rateLimitBuckets: 0 });
  });

  it('removes stream rows a dead process left a day ago and expired tickets, and dead letters after 90 days', async () => {
    const account = await signUpWithAccess(server);
    const userId = account.user.id;
    const sessionId = account.token.split('.')[0]!;
    const now = server.clock.now();
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    await server.db.execute(sql`insert into event_streams (id, user_id, session_id, opened_at, seen_at) values
      ('stream-dead', ${userId}, ${sessionId}, ${at(3 * DAY)}, ${at(2 * DAY)}),
      ('stream-live', ${userId}, ${sessionId}, ${at(HOUR)}, ${at(1000)})`);
    await server.db.execute(sql`insert into event_stream_tickets (ticket_hash, user_id, session_id, expires_at) values
      ('ticket-expired', ${userId}, ${sessionId}, ${at(HOUR)}),
      ('ticket-valid', ${userId}, ${sessionId}, ${new Date(now.getTime() + 30_000).toISOString()})`);
    const connectionId = await analyticsFactory(() => server).insertConnection(userId, 'tiktok', 10);
    for (const [reason, age] of [['old', 91 * DAY], ['recent', 89 * DAY]] as const) {
      await server.db.execute(sql`insert into sync_dead_letters (connection_id, user_id, platform, job_id, attempts, reason, last_error, created_at)
        values (${connectionId}, ${userId}, 'tiktok', null, 7, 'retries_exhausted', ${reason}, ${at(age)})`);
    }

    const deleted = await createHousekeeping({ db: server.db, clock: server.clock, prunes }).run();
    expect(deleted).toMatchObject({ eventStreams: 2, syncDeadLetters: 1 });
    expect(await countOf('event_streams', sql`user_id = ${userId}`)).toBe(1);
    expect(await countOf('event_streams', sql`id = 'stream-live'`)).toBe(1);
    expect(await countOf('event_stream_tickets', sql`ticket_hash = 'ticket-valid'`)).toBe(1);
    expect(await countOf('sync_dead_letters', sql`connection_id = ${connectionId}`)).toBe(1);
    expect(await countOf('sync_dead_letters', sql`last_error = 'recent'`)).toBe(1);
  });

  it('keeps the young posts’ timed reads 35 days (past the 28-day age), then removes them', async () => {
    const account = await signUpWithAccess(server);
    const factory = analyticsFactory(() => server);
    const connectionId = await factory.insertConnection(account.user.id, 'youtube', 10);
    const now = server.clock.now();
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const [item] = await queryRows<{ id: number }>(server.db, sql`insert into content_items (connection_id, platform_content_id, title, published_at) values (${connectionId}, 'young-1', 'A post', ${at(40 * DAY)}) returning id`);
    for (const [age, value] of [[36 * DAY, 1], [35 * DAY + HOUR, 2], [35 * DAY - HOUR, 3], [HOUR, 4]] as const) {
      await server.db.execute(sql`insert into content_metric_reads (content_item_id, metric_type, read_at, value) values (${item!.id}, 'views', ${at(age)}, ${value})`);
    }
    const deleted = await createHousekeeping({ db: server.db, clock: server.clock, prunes }).run();
    expect(deleted.contentMetricReads).toBe(2);
    const kept = await queryRows<{ value: number }>(server.db, sql`select value from content_metric_reads where content_item_id = ${item!.id} order by value`);
    expect(kept.map((row) => row.value)).toEqual([3, 4]);
  });

  it('refreshes the planner’s statistics where asked (PGlite has no autovacuum): a filled table is no longer read as empty', async () => {
    const account = await signUpWithAccess(server);
    const factory = analyticsFactory(() => server);
    const connectionId = await factory.insertConnection(account.user.id, 'instagram', 10);
    await server.db.execute(
      sql`insert into account_metrics (connection_id, date, metric_type, value) select ${connectionId}, date '2026-01-01' + n, 'views', n from generate_series(0, 299) as n`,
    );
    const rowsEstimated = async () =>
      Number((await queryRows<{ n: number }>(server.db, sql`select reltuples::float8 as n from pg_class where relname = 'account_metrics'`))[0]!.n);
    const withoutRefresh = await createHousekeeping({ db: server.db, clock: server.clock, prunes }).run();
    expect(withoutRefresh).not.toHaveProperty('statistics');
    const before = await rowsEstimated();
    await createHousekeeping({ db: server.db, clock: server.clock, prunes, refreshStatistics: refreshPlannerStatistics }).run();
    const total = Number((await queryRows<{ n: number }>(server.db, sql`select count(*)::int as n from account_metrics`))[0]!.n);
    // On PGlite nothing else analyzes: the estimate is still -1 (never analyzed) or an older count. PostgreSQL's
    // autovacuum may have run meanwhile, so its estimate before says nothing either way.
    if (server.database.handle.kind === 'pglite') expect(before).not.toBe(total);
    // After the run, the estimate is the count.
    expect(await rowsEstimated()).toBe(total);
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
