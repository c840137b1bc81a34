// insertRows (one array parameter per column) stores exactly what drizzle's `.values(rows)` stores, value for value,
// for every kind of column the sync writes (text with quotes, commas, braces, backslashes and the word NULL; nulls;
// integers; doubles; timestamps; dates; booleans; JSON objects and arrays), on the test run's database (PGlite, or
// PostgreSQL with DATABASE_URL). And it is not bounded by PostgreSQL's 65,535 bind parameters.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { insertRows } from './bulk-insert.ts';
import type { Database } from './client.ts';
import { contentItems, exchangeRates, platformConnections, users, youtubeVideos } from './schema.ts';

let database: TestDatabase;
let db: Database;
let connectionId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  const [user] = await db.insert(users).values({ username: 'bulk', email: 'bulk@example.com', passwordHash: 'x', firstName: 'Bulk', lastName: 'Rows' }).returning();
  const [connection] = await db
    .insert(platformConnections)
    .values({ userId: user!.id, platform: 'youtube', platformUserId: 'UC-bulk', followers: 0, connectedAt: new Date(), updatedAt: new Date() })
    .returning();
  connectionId = connection!.id;
});
afterAll(async () => {
  await database?.drop();
});

const AWKWARD_TEXTS = ['plain', 'with "quotes"', 'comma, and more', '{braces}', 'back\\slash', 'NULL', '', 'ünïcödé 🎬', "it's"];

it('stores the same rows as drizzle’s values(), and answers returning', async () => {
  const items = AWKWARD_TEXTS.map((title, index) => ({
    connectionId,
    title,
    description: index % 3 === 0 ? null : `${title} described`,
    publishedAt: index === 4 ? null : new Date(Date.UTC(2026, 10, 1 + index, 17, 30, 15, 123)),
    url: index === 2 ? undefined : `https://example.com/${index}`,
  }));
  const viaDrizzle = await db
    .insert(contentItems)
    .values(items.map((item, index) => ({ ...item, platformContentId: `drizzle-${index}` })))
    .returning();
  const result = (await db.execute(sql`${insertRows(
    contentItems,
    items.map((item, index) => ({ ...item, platformContentId: `bulk-${index}` })),
  )!} returning id, platform_content_id`)) as unknown as { rows: { id: number; platform_content_id: string }[] };
  expect(result.rows.map((row) => row.platform_content_id)).toEqual(items.map((_, index) => `bulk-${index}`));

  const stored = await db.select().from(contentItems).where(eq(contentItems.connectionId, connectionId)).orderBy(asc(contentItems.id));
  const strip = ({ id: _id, platformContentId, ...rest }: (typeof stored)[number]) => ({ ...rest, index: platformContentId.split('-')[1] });
  expect(stored.filter((row) => row.platformContentId.startsWith('bulk-')).map(strip)).toEqual(viaDrizzle.map(strip));
  expect(stored.find((row) => row.platformContentId === 'bulk-5')!.title).toBe('NULL');
  expect(stored.find((row) => row.platformContentId === 'bulk-0')!.description).toBeNull();

  const [drizzleItem, bulkItem] = [stored.find((row) => row.platformContentId === 'drizzle-1')!, stored.find((row) => row.platformContentId === 'bulk-1')!];
  const video = {
    connectionId,
    videoId: 'v"1,{x}',
    durationSeconds: 613,
    thumbnailUrl: null,
    views: 1234.5,
    likes: 0,
    comments: null,
    retention: [{ elapsed: 0, ratio: 1.02 }, { elapsed: 0.5, ratio: 0.41 }],
    retentionFetchedAt: new Date('2026-11-02T10:00:00.000Z'),
    earlyViews: [100, 50, 20],
    earlyViewsComplete: true,
    statsUpdatedAt: null,
  };
  await db.insert(youtubeVideos).values({ ...video, contentItemId: drizzleItem.id });
  await db.execute(insertRows(youtubeVideos, [{ ...video, contentItemId: bulkItem.id, earlyViewsComplete: false }, { ...video, contentItemId: stored.find((row) => row.platformContentId === 'bulk-2')!.id }])!);
  const videos = await db.select().from(youtubeVideos).orderBy(asc(youtubeVideos.contentItemId));
  const withoutKey = ({ contentItemId: _id, ...rest }: (typeof videos)[number]) => rest;
  expect(videos).toHaveLength(3);
  expect(withoutKey(videos[1]!)).toEqual({ ...withoutKey(videos[0]!), earlyViewsComplete: false });
  expect(withoutKey(videos[2]!)).toEqual(withoutKey(videos[0]!));
});

it('takes more rows than PostgreSQL’s 65,535 bind parameters would allow in one VALUES list, and upserts', async () => {
  const fetchedAt = new Date('2026-11-02T10:00:00.000Z');
  const days = Array.from({ length: 14_000 }, (_, index) => new Date(Date.UTC(1990, 0, 1) + index * 86_400_000).toISOString().slice(0, 10));
  const rates = days.map((day, index) => ({ day, currency: 'USD', perEuro: 1 + index / 100_000, source: 'test', fetchedAt }));
  await db.execute(insertRows(exchangeRates, rates)!);
  // 14,000 rows × 5 columns would be 70,000 parameters; here it is 5. Again, as an upsert that changes one column.
  await db.execute(sql`${insertRows(exchangeRates, rates.map((rate) => ({ ...rate, perEuro: rate.perEuro * 2 })))!} on conflict (currency, day) do update set per_euro = excluded.per_euro`);
  const {
    rows: [summary],
  } = (await db.execute(sql`select count(*)::int as count, min(per_euro) as low, max(day)::text as last from exchange_rates where source = 'test'`)) as unknown as {
    rows: { count: number; low: number; last: string }[];
  };
  expect(summary).toEqual({ count: 14_000, low: 2, last: days.at(-1) });
});

it('answers undefined for no rows, and refuses a key that is not a column', () => {
  expect(insertRows(contentItems, [])).toBeUndefined();
  expect(() => insertRows(contentItems, [{ connectionId, platformContentId: 'x', title: 'x', nope: 1 } as never])).toThrow(/nope is not a column/);
});
