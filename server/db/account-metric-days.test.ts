// account_metric_days (migration 0022) against its definition, recomputed here in TypeScript from account_metrics
// after every kind of write the product makes: inserts, the sync's upsert, an update, deletes, a connection deleted,
// a truncate. Both databases.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import type { Database } from './client.ts';
import { accountMetricDays, accountMetrics, platformConnections, users } from './schema.ts';

let database: TestDatabase;
let db: Database;
let youtube: number;
let linkedin: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  const [user] = await db
    .insert(users)
    .values({ username: 'days', email: 'days@example.com', passwordHash: 'x', firstName: 'Day', lastName: 'Rows' })
    .returning();
  const connection = async (platform: string) => {
    const [row] = await db.insert(platformConnections).values({ userId: user!.id, platform, platformUserId: `${platform}-1`, followers: 0, connectedAt: new Date(), updatedAt: new Date() }).returning();
    return row!.id;
  };
  youtube = await connection('youtube');
  linkedin = await connection('linkedin');
});
afterAll(async () => {
  await database?.drop();
});

const insert = (connectionId: number, date: string, values: Record<string, number>) =>
  db.insert(accountMetrics).values(Object.entries(values).map(([metricType, value]) => ({ connectionId, date, metricType, value })));

/** The sync's write: insert, or replace the value of a day's metric already stored. */
const upsert = (connectionId: number, date: string, values: Record<string, number>) =>
  db
    .insert(accountMetrics)
    .values(Object.entries(values).map(([metricType, value]) => ({ connectionId, date, metricType, value })))
    .onConflictDoUpdate({ target: [accountMetrics.connectionId, accountMetrics.date, accountMetrics.metricType], set: { value: sql`excluded.value` } });

/** What each (connection, day) row must hold, from the metric rows themselves. */
async function expectedDays() {
  const rows = await db.select().from(accountMetrics);
  const days = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    const key = `${row.connectionId} ${row.date}`;
    days.set(key, [...(days.get(key) ?? []), row]);
  }
  const sumOf = (metrics: typeof rows, types: string[]) => {
    const matching = metrics.filter((metric) => types.includes(metric.metricType));
    return matching.length === 0 ? null : matching.reduce((sum, metric) => sum + metric.value, 0);
  };
  return [...days.values()]
    .map((metrics) => ({
      connectionId: metrics[0]!.connectionId,
      date: metrics[0]!.date,
      records: metrics.length,
      views: sumOf(metrics, ['views']),
      impressions: sumOf(metrics, ['impressions']),
      engagements: sumOf(metrics, ['engagements']) ?? sumOf(metrics, ['likes', 'reactions', 'comments', 'shares']),
      revenue: sumOf(metrics, ['revenue']),
      followers: sumOf(metrics, ['followers', 'subscribers', 'patrons']),
    }))
    .sort((a, b) => a.connectionId - b.connectionId || a.date.localeCompare(b.date));
}

async function storedDays() {
  const rows = await db.select().from(accountMetricDays);
  return rows.sort((a, b) => a.connectionId - b.connectionId || a.date.localeCompare(b.date));
}

describe('account_metric_days', () => {
  it('holds each day of each connection as its metric rows define it, through every kind of write', async () => {
    await insert(youtube, '2026-11-01', { views: 1000, likes: 40, comments: 5, shares: 2, subscribers: 5000, revenue: 3.25, watch_time_minutes: 900 });
    await insert(youtube, '2026-11-02', { views: 800, engagements: 60, likes: 50, subscribers: 5010 });
    await insert(linkedin, '2026-11-01', { impressions: 300, reactions: 12, comments: 1, followers: 200 });
    await insert(linkedin, '2026-11-03', { followers: 205 });
    expect(await storedDays()).toEqual(await expectedDays());
    expect((await storedDays()).find((day) => day.connectionId === youtube && day.date === '2026-11-02')).toMatchObject({ records: 4, engagements: 60, revenue: null });

    // The sync's upsert: one value replaced, one added, in one statement.
    await upsert(youtube, '2026-11-02', { views: 900, revenue: 2 });
    expect(await storedDays()).toEqual(await expectedDays());
    expect((await storedDays()).find((day) => day.connectionId === youtube && day.date === '2026-11-02')).toMatchObject({ records: 5, views: 900, revenue: 2 });

    // An update that moves a row to another day and another type (as a data migration may).
    await db.update(accountMetrics).set({ date: '2026-11-04', metricType: 'views' }).where(eq(accountMetrics.metricType, 'watch_time_minutes'));
    expect(await storedDays()).toEqual(await expectedDays());

    // Deletes: part of a day, then a whole day (its row goes).
    await db.delete(accountMetrics).where(inArray(accountMetrics.metricType, ['engagements']));
    await db.delete(accountMetrics).where(eq(accountMetrics.date, '2026-11-03'));
    const afterDeletes = await storedDays();
    expect(afterDeletes).toEqual(await expectedDays());
    expect(afterDeletes.some((day) => day.date === '2026-11-03')).toBe(false);
    expect(afterDeletes.find((day) => day.connectionId === youtube && day.date === '2026-11-02')).toMatchObject({ engagements: 50 });

    // A deleted connection takes its days along.
    await db.delete(platformConnections).where(eq(platformConnections.id, linkedin));
    expect((await storedDays()).some((day) => day.connectionId === linkedin)).toBe(false);
    expect(await storedDays()).toEqual(await expectedDays());

    await db.execute(sql`truncate account_metrics`);
    expect(await storedDays()).toEqual([]);
  });
});
