// What a sync costs at the platforms, as the platform sandbox counts it (GET /_sandbox/usage): YouTube Data API
// quota units (10,000 a day per project) and X's billable reads (each post or user returned, once per UTC day). At
// steady state the large YouTube channel costs at most 8 units a day on average (3 for a second sync the same day)
// and the most active X account at most 150 post reads a day, so thousands of creators fit in the budgets.
import { and, eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { youtubeVideos } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const DAY = 86_400_000;

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

it('X: after the first sync, a day costs at most 150 post reads and one user read', { timeout: 180_000 }, async () => {
  const account = await signUpWithAccess(server);
  // Demo account 0 posts the most (about 1,500 a year, a fifth of them replies).
  const connected = await connect(server, account, 'twitter', { account: 0 });
  expect(connected.status).toBe(200);
  const beforeFirst = await usage();
  expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle' });
  const first = (await usage()).twitter.postReads - beforeFirst.twitter.postReads;
  // The first sync reads the whole reachable timeline.
  expect(first).toBeGreaterThan(1000);

  const perDay: number[] = [];
  for (let day = 1; day <= 3; day += 1) {
    server.clock.advance(DAY);
    const before = await usage();
    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
    const after = await usage();
    expect(after.twitter.userReads - before.twitter.userReads).toBe(1);
    perDay.push(after.twitter.postReads - before.twitter.postReads);
  }
  for (const reads of perDay) {
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(150);
  }
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
});
