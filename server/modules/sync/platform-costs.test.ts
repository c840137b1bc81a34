// What a sync costs at the platforms, as the platform sandbox counts it (GET /_sandbox/usage): YouTube Data API
// quota units (10,000 a day per project) and X's billable reads (each post or user returned, once per UTC day). At
// steady state the large YouTube channel costs at most 8 units a day on average (3 for a second sync the same day),
// so thousands of creators fit in the budgets. X bills every post returned: its first sync reads 90 days without
// replies, and then each post is read when new and at 24 hours, 7 and 28 days only. The young-post poll (hourly reads
// of posts under 7 days old) adds 24 units a day for a channel posting up to 50 videos a week, and a few calls an
// hour at TikTok and Instagram.
// @runs-once-on: postgresql (what a sync costs is counted at the platform sandbox, the same whichever database stores it; scripts/test.ts).
import { and, eq, lt, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { youtubeVideos } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import type { YoungReadOutcome } from './young-posts.jobs.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

interface Usage {
  youtube: { dataApiUnits: number };
  twitter: { postReads: number; userReads: number };
}

async function usage(): Promise<Usage> {
  const response = await fetch(`${platformSandboxOf(server).baseUrl}/_sandbox/usage`);
  expect(response.status).toBe(200);
  return (await response.json()) as Usage;
}

it('X: the first sync reads 90 days without replies; then each post is read when new and at 24 hours, 7 and 28 days only', { timeout: 300_000 }, async () => {
  const account = await signUpWithAccess(server);
  // Demo account 0 posts the most (about 1,500 a year, a fifth of them replies).
  const connected = await connect(server, account, 'twitter', { account: 0 });
  expect(connected.status).toBe(200);
  const connectionId = connected.body.id as number;
  const beforeFirst = await usage();
  expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle' });
  const first = (await usage()).twitter.postReads - beforeFirst.twitter.postReads;
  const stored = await queryRows<{ n: number; oldest: string | Date }>(server.db, sql`select count(*)::int as n, min(published_at) as oldest from content_items where connection_id = ${connectionId}`);
  // Every post billed is one stored: no reply read and thrown away; nothing older than 90 days.
  expect(first).toBe(stored[0]!.n);
  expect(first).toBeGreaterThan(100);
  expect(server.clock.now().getTime() - new Date(stored[0]!.oldest).getTime()).toBeLessThanOrEqual(90 * DAY);

  // A month of daily syncs and the poll (every 4 hours here: the ages are what decide the reads, not the cadence).
  const before = await usage();
  for (let day = 1; day <= 30; day += 1) {
    for (let hour = 0; hour < HOURS_A_DAY; hour += 4) {
      server.clock.advance(4 * HOUR);
      await server.youngPosts.readConnection(connectionId);
    }
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
  }
  const after = await usage();
  const monthPostReads = after.twitter.postReads - before.twitter.postReads;
  expect(after.twitter.userReads - before.twitter.userReads).toBe(30);
  // Each post read at most four times, each time at one of its moments: new, 24 hours, 7 days, 28 days.
  const perPost = await queryRows<{ reads: number }>(
    server.db,
    sql`select count(distinct r.read_at)::int as reads from content_metric_reads r join content_items ci on ci.id = r.content_item_id where ci.connection_id = ${connectionId} group by ci.id`,
  );
  expect(Math.max(...perPost.map((row) => row.reads))).toBeLessThanOrEqual(4);
  const readsInMonth = await queryRows<{ n: number }>(
    server.db,
    sql`select count(*)::int as n from (select distinct r.content_item_id, r.read_at from content_metric_reads r join content_items ci on ci.id = r.content_item_id
      where ci.connection_id = ${connectionId} and r.read_at > ${new Date(server.clock.now().getTime() - 30 * DAY - 30 * HOUR).toISOString()}::timestamptz) reads`,
  );
  expect(monthPostReads).toBeLessThanOrEqual(readsInMonth[0]!.n);
  // At X's published prices ($0.005 a post, $0.010 a user: corrections row 10) the most active demo creator's month
  // costs under the cheapest honest strategy's $3.30 (corrections §4.4).
  const monthUsd = monthPostReads * 0.005 + 30 * 0.01;
  expect(monthUsd).toBeLessThan(3.3);
});

it('YouTube: a second sync the same day costs at most 3 units, a day at most 8 on average, and every counter is at most a week old', { timeout: 300_000 }, async () => {
  const account = await signUpWithAccess(server);
  // Demo account 0: the large channel (over 1,200 videos).
  const connected = await connect(server, account, 'youtube', { account: 0 });
  expect(connected.status).toBe(200);
  const units = async () => (await usage()).youtube.dataApiUnits;
  let before = await units();
  expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle' });
  const first = (await units()) - before;
  // The first sync reads every video: 1 + 2 × ceil(videos / 50).
  expect(first).toBeGreaterThan(40);

  before = await units();
  expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
  expect((await units()) - before).toBeLessThanOrEqual(3);

  const perDay: number[] = [];
  for (let day = 1; day <= 14; day += 1) {
    server.clock.advance(DAY);
    before = await units();
    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
    perDay.push((await units()) - before);
    // No video's counters are older than a week.
    const weekAgo = new Date(server.clock.now().getTime() - 7 * DAY);
    const stale = await server.db.select({ videoId: youtubeVideos.videoId }).from(youtubeVideos).where(and(eq(youtubeVideos.connectionId, connected.body.id), lt(youtubeVideos.statsUpdatedAt, weekAgo)));
    expect(stale).toEqual([]);
  }
  expect(perDay.reduce((sum, value) => sum + value, 0) / perDay.length).toBeLessThanOrEqual(8);
  expect(Math.max(...perDay)).toBeLessThanOrEqual(10);

  // The young-post poll on top (decision 018): a day of hourly reads of the videos under 7 days old, one
  // videos.list unit per 50 of them. With the daily syncs the channel stays under 8 + 24 = 32 units a day: over 300
  // channels like it per project's 10,000.
  const pollDay = await pollForADay(connected.body.id);
  expect(pollDay.young).toBeGreaterThan(0);
  expect(pollDay.young).toBeLessThanOrEqual(50);
  expect(pollDay.outcomes.every((outcome) => outcome.kind === 'read' && outcome.quotaUnits === 1)).toBe(true);
  expect(pollDay.usage.youtube.dataApiUnits).toBe(HOURS_A_DAY);
  expect(Math.floor(YOUTUBE_DAILY_QUOTA / (8 + pollDay.usage.youtube.dataApiUnits))).toBeGreaterThanOrEqual(300);
});

const HOURS_A_DAY = 24;
const YOUTUBE_DAILY_QUOTA = 10_000;

/** Reads the connection's young posts hourly for a day (the poll's default cadence); what it cost at the platform. */
async function pollForADay(connectionId: number) {
  const before = await usage();
  const outcomes: YoungReadOutcome[] = [];
  for (let hour = 0; hour < HOURS_A_DAY; hour += 1) {
    server.clock.advance(HOUR);
    outcomes.push(await server.youngPosts.readConnection(connectionId));
  }
  const after = await usage();
  const young = Math.max(...outcomes.map((outcome) => (outcome.kind === 'read' ? outcome.posts : 0)));
  return {
    young,
    outcomes,
    calls: outcomes.reduce((sum, outcome) => sum + (outcome.kind === 'read' ? outcome.calls : 0), 0),
    usage: { youtube: { dataApiUnits: after.youtube.dataApiUnits - before.youtube.dataApiUnits }, twitter: { postReads: after.twitter.postReads - before.twitter.postReads } },
  };
}

it('Young-post poll: a day of hourly reads costs TikTok and Instagram a few calls an hour', { timeout: 180_000 }, async () => {
  const account = await signUpWithAccess(server);
  // X is read at fixed ages only (the first test).
  for (const platform of ['tiktok', 'instagram'] as const) {
    // TikTok's and Instagram's demo account 0 post about daily.
    const connected = await connect(server, account, platform, { account: 0 });
    expect(connected.status).toBe(200);
    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle' });
    const day = await pollForADay(connected.body.id);
    expect(day.young, platform).toBeGreaterThan(0);
    expect(day.outcomes.every((outcome) => outcome.kind === 'read'), platform).toBe(true);
    // Each read: X 100 ids a call; TikTok 20 ids a call, against 600 video/query calls a minute per app; Instagram
    // one insights call per post, against Graph's 200 calls an hour per account. (Posts age out during the day.)
    const perCall = { tiktok: 20, instagram: 1 }[platform];
    for (const outcome of day.outcomes) if (outcome.kind === 'read') expect(outcome.calls, platform).toBe(Math.ceil(outcome.posts / perCall));
    expect(day.calls, platform).toBeLessThanOrEqual(HOURS_A_DAY * Math.ceil(day.young / perCall));
    if (platform === 'instagram') expect(day.young).toBeLessThan(200);
    server.clock.advance(DAY);
  }
});
