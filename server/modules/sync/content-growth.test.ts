// TikTok and X keep only lifetime counters: the daily account views and engagements are derived from the counters we
// read (migration 0024, issue 24): each post's growth since our previous reading of it counts on the day of the
// reading, and what a post had gathered when we first read it counts on the day it was published. Checked here
// against the stored readings themselves, computed by hand in JavaScript, over a first sync, a sync a day later, a
// second sync the same day and a missed day; and through the analytics answer the creator sees.
import { and, eq, inArray } from 'drizzle-orm';
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

/** The stored derived values of a connection, `date|metric` → value. */
async function storedDaily(connectionId: number): Promise<Map<string, number>> {
  const rows = await server.db
    .select({ date: accountMetrics.date, type: accountMetrics.metricType, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), inArray(accountMetrics.metricType, GROWTH_METRICS)));
  return new Map(rows.map((row) => [`${row.date}|${row.type}`, row.value]));
}

/**
 * The expected values from the stored readings, by hand: a reading after an earlier one of the same post adds its
 * growth (never below 0) on its own day; a post's first reading adds its whole count on its publish day (UTC), or on
 * the reading's day when that is earlier or the publish time is unknown.
 */
async function expectedDaily(connectionId: number): Promise<Map<string, number>> {
  const rows = await server.db
    .select({ item: contentMetrics.contentItemId, type: contentMetrics.metricType, asOf: contentMetrics.asOf, value: contentMetrics.value, publishedAt: contentItems.publishedAt })
    .from(contentMetrics)
    .innerJoin(contentItems, eq(contentItems.id, contentMetrics.contentItemId))
    .where(and(eq(contentMetrics.connectionId, connectionId), inArray(contentMetrics.metricType, GROWTH_METRICS)));
  const expected = new Map<string, number>();
  const add = (date: string, type: string, value: number) => expected.set(`${date}|${type}`, (expected.get(`${date}|${type}`) ?? 0) + value);
  for (const row of rows) {
    const earlier = rows.filter((entry) => entry.item === row.item && entry.type === row.type && entry.asOf < row.asOf).sort((a, b) => (a.asOf < b.asOf ? 1 : -1));
    if (earlier.length > 0) add(row.asOf, row.type, Math.max(0, row.value - earlier[0]!.value));
    else {
      const published = row.publishedAt ? dayOf(row.publishedAt) : row.asOf;
      add(published < row.asOf ? published : row.asOf, row.type, row.value);
    }
  }
  return expected;
}

const sortedEntries = (values: Map<string, number>) => [...values.entries()].sort(([a], [b]) => (a < b ? -1 : 1));

/** Views summed over the stored days from `from` to `to`. */
function viewsBetween(values: Map<string, number>, from: string, to: string): number {
  let total = 0;
  for (const [key, value] of values) {
    const [date, type] = key.split('|') as [string, string];
    if (type === 'views' && date >= from && date <= to) total += value;
  }
  return total;
}

// X's derived days (impressions, read at fixed ages) are checked in x-impressions.test.ts.
describe.each([['tiktok']] as [PlatformName][])('%s daily values from the post counters', (platform) => {
  it('derives the days from the first sync on, each day the growth since the previous reading, and leaves unread days empty', async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, platform, { account: 1 });
    expect(connected.status).toBe(200);
    const connectionId = connected.body.id as number;
    const platformId = PLATFORM_CATALOGUE[platform].id;
    const analytics = async (days: number) => (await server.request('GET', `/api/analytics?days=${days}&platformId=${platformId}`, { token: account.token })).body;

    // First sync: every post's count so far falls on its publish day, so the last 90 days hold what the posts
    // published in them gathered (issue 24: TikTok and X showed 0 views over 90 days after the first sync).
    const firstDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    const first = await storedDaily(connectionId);
    expect(sortedEntries(first)).toEqual(sortedEntries(await expectedDaily(connectionId)));
    const firstAnswer = await analytics(90);
    const gathered = viewsBetween(first, firstAnswer.startDate, firstAnswer.endDate);
    expect(gathered).toBeGreaterThan(0);
    expect(firstAnswer.totals.totalViews).toBe(gathered);
    // The posts' own counters, summed over the posts published in the range, are that same number.
    const posts = await server.db
      .select({ value: contentMetrics.value, publishedAt: contentItems.publishedAt })
      .from(contentMetrics)
      .innerJoin(contentItems, eq(contentItems.id, contentMetrics.contentItemId))
      .where(and(eq(contentMetrics.connectionId, connectionId), eq(contentMetrics.metricType, 'views'), eq(contentMetrics.asOf, firstDay)));
    const postViews = posts.filter((post) => post.publishedAt && dayOf(post.publishedAt) >= firstAnswer.startDate).reduce((sum, post) => sum + post.value, 0);
    expect(gathered).toBe(postViews);
    // Engagements come along: likes, comments and shares are derived the same way.
    expect(firstAnswer.engagementOverTime.some((point: { value: number }) => point.value > 0)).toBe(true);

    // A day later: that day holds the posts' growth since the first reading, and the range's views grow by it.
    server.clock.advance(DAY);
    const secondDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    const second = await storedDaily(connectionId);
    expect(sortedEntries(second)).toEqual(sortedEntries(await expectedDaily(connectionId)));
    expect(second.get(`${secondDay}|views`)).toBeGreaterThan(0);
    const secondAnswer = await analytics(90);
    expect(secondAnswer.totals.totalViews).toBe(viewsBetween(second, secondAnswer.startDate, secondAnswer.endDate));
    // The days of the first sync are not rewritten by the second (only new posts' publish days could be).
    for (const [key, value] of first) expect(second.get(key)).toBe(value);

    // A second sync the same day recomputes the same values (idempotent).
    await syncNow(server, account.token, connectionId);
    expect(sortedEntries(await storedDaily(connectionId))).toEqual(sortedEntries(second));

    // A missed day: the growth over both days falls on the day of the next reading, the missed day stays without a
    // value unless a post first read now was published on it (then it holds that post's count alone).
    server.clock.advance(2 * DAY);
    const missedDay = addDays(dayOf(server.clock.now()), -1);
    const fourthDay = dayOf(server.clock.now());
    await syncNow(server, account.token, connectionId);
    const fourth = await storedDaily(connectionId);
    const expected = await expectedDaily(connectionId);
    expect(sortedEntries(fourth)).toEqual(sortedEntries(expected));
    expect(fourth.get(`${fourthDay}|views`)).toBeGreaterThan(0);
    expect(fourth.get(`${missedDay}|views`)).toBe(expected.get(`${missedDay}|views`));
    const missedPosts = await server.db
      .select({ id: contentItems.id, publishedAt: contentItems.publishedAt })
      .from(contentItems)
      .where(eq(contentItems.connectionId, connectionId));
    if (!missedPosts.some((post) => post.publishedAt && dayOf(post.publishedAt) === missedDay)) expect(fourth.has(`${missedDay}|views`)).toBe(false);

    // The analytics answer and the exports say these series are ours, and how they were made.
    const week = await analytics(7);
    expect(week.derivedSeries).toEqual([
      expect.objectContaining({ platform: PLATFORM_CATALOGUE[platform].name, metrics: expect.arrayContaining(['views', 'likes']), method: DERIVATION_METHODS.snapshots, endDate: fourthDay }),
    ]);
    const exported = (await server.request('GET', `/api/analytics/export?format=json&days=7&platformId=${platformId}`, { token: account.token })).body;
    const accountRecords = exported.records.filter((record: { contentTitle: string | null }) => record.contentTitle === null);
    expect(accountRecords.filter((record: { metricType: string }) => record.metricType === 'followers').every((record: { derivation: unknown }) => record.derivation === null)).toBe(true);
    const viewRecords = accountRecords.filter((record: { metricType: string }) => record.metricType === 'views');
    expect(viewRecords.length).toBeGreaterThan(0);
    expect(viewRecords.every((record: { derivation: unknown }) => record.derivation === DERIVATION_METHODS.snapshots)).toBe(true);
  });
});
