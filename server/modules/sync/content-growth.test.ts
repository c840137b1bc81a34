// TikTok and X keep only lifetime counters: the daily account views and engagements are derived from the growth of
// the content counters between consecutive daily snapshots (sync.repository.ts), checked here against the stored
// snapshots themselves, computed by hand in JavaScript.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DERIVATION_METHODS } from '#contract/analytics.ts';
import { PLATFORM_CATALOGUE, type PlatformName } from '#contract/platforms.ts';
import { accountMetrics, contentItems, contentMetrics } from '../../db/schema.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { addDays, dayOf } from '../../lib/dates.ts';

const DAY = 86_400_000;
const GROWTH_METRICS = ['views', 'likes', 'comments', 'shares'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function dailyValues(connectionId: number, date: string) {
  const rows = await server.db
    .select({ type: accountMetrics.metricType, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.date, date)));
  return Object.fromEntries(rows.map((row) => [row.type, row.value]));
}

/** The expected daily values, from the stored snapshots: growth since yesterday, or all of a new item's counts. */
async function expectedGrowth(connectionId: number, today: string) {
  const yesterday = addDays(today, -1);
  const rows = await server.db
    .select({ item: contentMetrics.contentItemId, type: contentMetrics.metricType, asOf: contentMetrics.asOf, value: contentMetrics.value, publishedAt: contentItems.publishedAt })
    .from(contentMetrics)
    .innerJoin(contentItems, eq(contentItems.id, contentMetrics.contentItemId))
    .where(eq(contentMetrics.connectionId, connectionId));
  const expected: Record<string, number> = {};
  for (const row of rows.filter((entry) => entry.asOf === today && GROWTH_METRICS.includes(entry.type))) {
    const before = rows.find((entry) => entry.item === row.item && entry.type === row.type && entry.asOf === yesterday);
    const seenEarlier = rows.some((entry) => entry.item === row.item && entry.type === row.type && entry.asOf < today);
    const isNew = !seenEarlier && row.publishedAt !== null && row.publishedAt.getTime() >= Date.parse(`${yesterday}T00:00:00Z`);
    if (!before && !isNew) continue;
    expected[row.type] = (expected[row.type] ?? 0) + Math.max(0, row.value - (before?.value ?? 0));
  }
  return expected;
}

describe.each([['tiktok'], ['twitter']] as [PlatformName][])('%s daily values from snapshots', (platform) => {
  it('stores nothing on the first day, then each day the growth of the content counters since the day before', async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, platform, { account: 1 });
    expect(connected.status).toBe(200);
    const connectionId = connected.body.id as number;

    const firstDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    const first = await dailyValues(connectionId, firstDay);
    // Only the follower snapshot: there is no earlier snapshot to measure the growth from.
    expect(Object.keys(first)).toEqual(['followers']);

    server.clock.advance(DAY);
    const secondDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    const second = await dailyValues(connectionId, secondDay);
    const expected = await expectedGrowth(connectionId, secondDay);
    expect(expected.views).toBeGreaterThan(0);
    for (const type of GROWTH_METRICS) expect(second[type]).toBe(expected[type]);
    // The first day is still not invented afterwards.
    expect(Object.keys(await dailyValues(connectionId, firstDay))).toEqual(['followers']);

    // A second sync the same day recomputes the same values (idempotent).
    await syncNow(server, account.token, connectionId);
    expect(await dailyValues(connectionId, secondDay)).toEqual(second);

    // A day without a sync leaves a gap: the growth over two days is not attributed to one of them.
    server.clock.advance(2 * DAY);
    const fourthDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    expect(Object.keys(await dailyValues(connectionId, fourthDay))).toEqual(['followers']);

    // The analytics answer and the exports say these series are ours, made from snapshots, and since when.
    const analytics = await server.request('GET', `/api/analytics?days=7&platformId=${PLATFORM_CATALOGUE[platform].id}`, { token: account.token });
    expect(analytics.body.derivedSeries).toEqual([
      {
        platform: PLATFORM_CATALOGUE[platform].name,
        metrics: expect.arrayContaining(['views', 'likes']),
        method: DERIVATION_METHODS.snapshots,
        startDate: secondDay,
        endDate: secondDay,
      },
    ]);
    const exported = (await server.request('GET', `/api/analytics/export?format=json&days=7&platformId=${PLATFORM_CATALOGUE[platform].id}`, { token: account.token })).body;
    const accountRecords = exported.records.filter((record: { contentTitle: string | null }) => record.contentTitle === null);
    expect(accountRecords.filter((record: { metricType: string }) => record.metricType === 'followers').every((record: { derivation: unknown }) => record.derivation === null)).toBe(true);
    expect(accountRecords.filter((record: { metricType: string }) => record.metricType === 'views').map((record: { derivation: unknown }) => record.derivation)).toEqual([DERIVATION_METHODS.snapshots]);
  });
});
