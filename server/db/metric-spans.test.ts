// metric_spans (migration 0033) against its definition, recomputed here from account_metrics and content_metrics
// after every kind of write the product makes: inserts, the sync's upsert, an update that moves a row, deletes of old
// days (retention), an item deleted, a connection deleted, a truncate. Both databases.
import { and, eq, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { type Database, queryRows } from './client.ts';
import { accountMetrics, contentItems, contentMetrics, platformConnections, users } from './schema.ts';

let database: TestDatabase;
let db: Database;
let userId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  const [user] = await db.insert(users).values({ username: 'spans', email: 'spans@example.com', passwordHash: 'x' }).returning();
  userId = user!.id;
});
afterAll(async () => {
  await database?.drop();
});

let connections = 0;
async function connection(platform: string) {
  const [row] = await db.insert(platformConnections).values({ userId, platform, platformUserId: `${platform}-${(connections += 1)}`, followers: 0, connectedAt: new Date(), updatedAt: new Date() }).returning();
  return row!.id;
}

type Span = { connection_id: number; source: string; metric_type: string; first_day: string; last_day: string };

/** The spans as stored, and as the metric tables define them. */
async function spans() {
  const order = sql`order by connection_id, source, metric_type`;
  const stored = await queryRows<Span>(db, sql`select connection_id, source, metric_type, first_day::text, last_day::text from metric_spans ${order}`);
  const expected = await queryRows<Span>(
    db,
    sql`select * from (
        select connection_id, 'account' as source, metric_type, min(date)::text as first_day, max(date)::text as last_day from account_metrics group by 1, 2, 3
        union all
        select connection_id, 'content', metric_type, min(as_of)::text, max(as_of)::text from content_metrics group by 1, 2, 3
      ) s ${order}`,
  );
  return { stored, expected };
}

async function expectSpansExact() {
  const { stored, expected } = await spans();
  expect(stored).toEqual(expected);
  return stored;
}

describe('metric_spans', () => {
  it('follows inserts, the sync upsert, an update that moves a day, retention deletes and a truncate', async () => {
    const youtube = await connection('youtube');
    const patreon = await connection('patreon');
    await db.insert(accountMetrics).values([
      { connectionId: youtube, date: '2026-01-02', metricType: 'views', value: 10 },
      { connectionId: youtube, date: '2026-01-05', metricType: 'views', value: 12 },
      { connectionId: youtube, date: '2026-01-03', metricType: 'subscribers', value: 100 },
      { connectionId: patreon, date: '2026-01-04', metricType: 'patrons', value: 7 },
    ]);
    expect((await expectSpansExact()).find((span) => span.connection_id === youtube && span.metric_type === 'views')).toMatchObject({ first_day: '2026-01-02', last_day: '2026-01-05' });
    // The sync's write: an upsert of days already stored and a new one.
    await db
      .insert(accountMetrics)
      .values([
        { connectionId: youtube, date: '2026-01-05', metricType: 'views', value: 13 },
        { connectionId: youtube, date: '2026-01-06', metricType: 'views', value: 9 },
      ])
      .onConflictDoUpdate({ target: [accountMetrics.connectionId, accountMetrics.date, accountMetrics.metricType], set: { value: sql`excluded.value` } });
    await expectSpansExact();
    // An update that moves the first day narrows the span.
    await db.update(accountMetrics).set({ date: '2026-01-04' }).where(and(eq(accountMetrics.connectionId, youtube), eq(accountMetrics.date, '2026-01-02')));
    expect((await expectSpansExact()).find((span) => span.connection_id === youtube && span.metric_type === 'views')?.first_day).toBe('2026-01-04');
    // Retention deletes old days; deleting a type's last row removes its span.
    await db.delete(accountMetrics).where(and(eq(accountMetrics.connectionId, youtube), lt(accountMetrics.date, '2026-01-05')));
    const afterRetention = await expectSpansExact();
    expect(afterRetention.some((span) => span.connection_id === youtube && span.metric_type === 'subscribers')).toBe(false);
    await db.execute(sql`truncate account_metrics`);
    expect((await expectSpansExact()).filter((span) => span.source === 'account')).toEqual([]);
  });

  it('follows content counters read, an item deleted and a connection deleted', async () => {
    const tiktok = await connection('tiktok');
    const items = await db
      .insert(contentItems)
      .values([
        { connectionId: tiktok, platformContentId: 'a', title: 'A' },
        { connectionId: tiktok, platformContentId: 'b', title: 'B' },
      ])
      .returning();
    await db.insert(contentMetrics).values([
      { contentItemId: items[0]!.id, connectionId: tiktok, metricType: 'views', asOf: '2026-02-01', value: 5 },
      { contentItemId: items[0]!.id, connectionId: tiktok, metricType: 'views', asOf: '2026-02-03', value: 8 },
      { contentItemId: items[1]!.id, connectionId: tiktok, metricType: 'shares', asOf: '2026-02-02', value: 1 },
    ]);
    await db.insert(accountMetrics).values({ connectionId: tiktok, date: '2026-02-03', metricType: 'followers', value: 40 });
    await expectSpansExact();
    await db.delete(contentItems).where(eq(contentItems.id, items[1]!.id));
    expect((await expectSpansExact()).some((span) => span.connection_id === tiktok && span.metric_type === 'shares')).toBe(false);
    await db.delete(platformConnections).where(eq(platformConnections.id, tiktok));
    expect((await expectSpansExact()).some((span) => span.connection_id === tiktok)).toBe(false);
  });
});
