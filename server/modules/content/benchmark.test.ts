// GET /api/content/{id}/benchmark over HTTP against a hand-built history whose medians, ratios and percentiles are
// worked out below: snapshots interpolated (never extrapolated), YouTube's early-view curve, only the newest 50
// comparable posts of the same platform, "not enough" under 10, ages not reached, validation and ownership.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarkResponse } from '#contract/benchmark.ts';
import { contentItems, contentMetrics, platformConnections } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel } from '../../test/youtube-factory.ts';
import { createBenchmarkRepository } from './benchmark.repository.ts';
import { createBenchmarkService } from './benchmark.service.ts';

let server: TestServer;
let alice: Account; // TikTok posts read by daily snapshots, and one Instagram post
let bob: Account; // another user
let carol: Account; // YouTube videos with early-view curves
let aliceTarget: number;
let aliceUndated: number;
let bobPost: number;
let carolTarget: number;

const DAY_MS = 86_400_000;
const at = (iso: string) => new Date(iso);
const dayOf = (date: Date, plusDays = 0) => new Date(date.getTime() + plusDays * DAY_MS).toISOString().slice(0, 10);

async function connection(userId: number, platform: string) {
  const now = server.clock.now();
  const [row] = await server.db.insert(platformConnections).values({ userId, platform, platformUserId: `${platform}-${userId}`, followers: 0, connectedAt: now, updatedAt: now }).returning();
  return row!.id;
}

/** A post and its lifetime counters as read on the given days. */
async function post(connectionId: number, key: string, publishedAt: Date | null, reads: { asOf: string; values: Record<string, number> }[]) {
  const [item] = await server.db.insert(contentItems).values({ connectionId, platformContentId: key, title: key, publishedAt }).returning();
  const rows = reads.flatMap(({ asOf, values }) => Object.entries(values).map(([metricType, value]) => ({ contentItemId: item!.id, connectionId, metricType, asOf, value })));
  if (rows.length > 0) await server.db.insert(contentMetrics).values(rows);
  return item!.id;
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true }); // the clock reads 2026-11-02T10:00Z
  [alice, bob, carol] = [await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server)];

  const tiktok = await connection(alice.user.id, 'tiktok');
  // 55 posts published at midnight, Sep 1 + k days (k = 0…54). A read on day D stands for the end of D, so the read
  // on the publishing day is the count at 24 h, the read six days later the count at 7 days. At 7 days: views
  // 1000 + 10k, engagements (likes + comments) k. At 24 h only the 8 newest (k ≥ 47) have a read.
  for (let k = 0; k < 55; k += 1) {
    const published = new Date(Date.UTC(2026, 8, 1 + k));
    const reads = [{ asOf: dayOf(published, 6), values: { views: 1000 + 10 * k, likes: k, comments: 0 } }];
    if (k >= 47) reads.push({ asOf: dayOf(published), values: { views: 100, likes: 1, comments: 0 } });
    await post(tiktok, `tt-${k}`, published, reads);
  }
  // Newer than all of them and 7 days old at Nov 2 00:00, but its last read is Oct 30 (120 h): its count at 7 days
  // would be an extrapolation, so it is no comparable post (or the newest 50 would shift by one).
  await post(tiktok, 'tt-unread', at('2026-10-26T00:00:00Z'), [{ asOf: '2026-10-30', values: { views: 5000, likes: 900, comments: 0 } }]);
  // The post under test: published Oct 20 at noon, so 7 days is Oct 27 at noon, halfway between the reads at the end
  // of Oct 26 (1200 views, 20 likes) and of Oct 27 (1400, 40): 1300 views and 30 engagements. No read near 24 h; 28
  // days is not reached on Nov 2.
  aliceTarget = await post(tiktok, 'tt-target', at('2026-10-20T12:00:00Z'), [
    { asOf: '2026-10-26', values: { views: 1200, likes: 20, comments: 0 } },
    { asOf: '2026-10-27', values: { views: 1400, likes: 30, comments: 10 } },
  ]);
  aliceUndated = await post(tiktok, 'tt-undated', null, [{ asOf: '2026-10-27', values: { views: 10 } }]);
  // Another platform of the same user: never a comparable post.
  const instagram = await connection(alice.user.id, 'instagram');
  await post(instagram, 'ig-1', at('2026-10-01T00:00:00Z'), [{ asOf: '2026-10-07', values: { views: 999_999 } }]);

  bobPost = await post(await connection(bob.user.id, 'tiktok'), 'bob-1', at('2026-10-01T00:00:00Z'), []);

  // Carol: 10 videos published at midnight Oct 1…10 with k0 + 1 × 10 views a day for 28 days (7 days: 70…700), and
  // the video under test published Oct 12 at 06:00 with 100 views a day for 20 days. Its 24 h fall a quarter into its
  // second day (100 → 200: 125 views) and its 7 days a quarter into its eighth (700 → 800: 725 views).
  const seeded = await seedYoutubeChannel(server.db, {
    userId: carol.user.id,
    now: server.clock.now(),
    videos: [
      ...Array.from({ length: 10 }, (_, k) => ({ publishedAt: new Date(Date.UTC(2026, 9, 1 + k)), earlyViews: Array.from({ length: 28 }, () => 10 * (k + 1)) })),
      { publishedAt: at('2026-10-12T06:00:00Z'), earlyViews: Array.from({ length: 20 }, () => 100) },
    ],
  });
  carolTarget = seeded.videos.at(-1)!.id;
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, account: Account = alice) => server.request('GET', path, { token: account.token });
const ageOf = (body: BenchmarkResponse, age: string) => body.ages.find((entry) => entry.age === age)!;

describe('GET /api/content/{id}/benchmark', () => {
  it('compares a post interpolated between snapshots with the newest 50 posts of its platform', async () => {
    const response = await get(`/api/content/${aliceTarget}/benchmark`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ contentItemId: aliceTarget, platform: 'tiktok', publishedAt: '2026-10-20T12:00:00.000Z' });
    expect(response.body.ages.map((entry: { age: string; hours: number }) => [entry.age, entry.hours])).toEqual([
      ['24h', 24],
      ['7d', 168],
      ['28d', 672],
    ]);
    const week = ageOf(response.body, '7d');
    // The newest 50 are k = 5…54: views 1050…1540, median (1290 + 1300) / 2; 25 below 1300 and one tie.
    expect(week.views).toEqual({ status: 'ok', value: 1300, median: 1295, ratio: 1300 / 1295, percentile: 51, n: 50 });
    // Engagements 5…54: median 29.5; 25 below 30 and one tie.
    expect(week.engagements).toEqual({ status: 'ok', value: 30, median: 29.5, ratio: 30 / 29.5, percentile: 51, n: 50 });
  });

  it('says which ages have no reading, too few posts or are not reached yet', async () => {
    const body = (await get(`/api/content/${aliceTarget}/benchmark`)).body;
    const empty = { value: null, median: null, ratio: null, percentile: null };
    // No read within 48 h around Oct 21 noon (the publishing moment and the Oct 27 read are too far apart).
    expect(ageOf(body, '24h').views).toEqual({ status: 'noData', ...empty, n: 8 });
    expect(ageOf(body, '28d').views).toMatchObject({ status: 'notReached', value: null });
    // Another post with too few comparables at 24 h: the 8 newest have a read then, fewer than 10.
    const newest = (await get(`/api/content/${aliceTarget - 2}/benchmark`)).body; // tt-54
    expect(ageOf(newest, '24h').views).toEqual({ status: 'notEnough', ...empty, value: 100, n: 7 });
    // tt-54 at 7 days: 1540, above its 50 newest others (the post under test at 1300 and k = 5…53: 1050…1530, so the
    // median is again (1290 + 1300) / 2).
    expect(ageOf(newest, '7d').views).toEqual({ status: 'ok', value: 1540, median: 1295, ratio: 1540 / 1295, percentile: 100, n: 50 });
    // A post without a publishing date has no age.
    const undated = (await get(`/api/content/${aliceUndated}/benchmark`)).body;
    expect(undated.publishedAt).toBeNull();
    expect(undated.ages.map((entry: { views: { status: string } }) => entry.views.status)).toEqual(['noData', 'noData', 'noData']);
  });

  it("reads YouTube's early-view curve where it exists", async () => {
    const body = (await get(`/api/content/${carolTarget}/benchmark`, carol)).body;
    expect(body.platform).toBe('youtube');
    // 24 h: the others' first days 10…100, median 55; all 10 below 125.
    expect(ageOf(body, '24h').views).toEqual({ status: 'ok', value: 125, median: 55, ratio: 125 / 55, percentile: 100, n: 10 });
    // 7 days: 70…700, median (350 + 420) / 2.
    expect(ageOf(body, '7d').views).toEqual({ status: 'ok', value: 725, median: 385, ratio: 725 / 385, percentile: 100, n: 10 });
    expect(ageOf(body, '28d').views.status).toBe('notReached');
    // The curve holds views only; no snapshots here, so no engagements.
    expect(ageOf(body, '7d').engagements.status).toBe('noData');
  });

  it("answers another user's post like a missing one, and a non-numeric id in words", async () => {
    for (const id of [bobPost, 999_999_999]) {
      const response = await get(`/api/content/${id}/benchmark`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', message: 'No such post.' });
    }
    expect((await get(`/api/content/${bobPost}/benchmark`, bob)).status).toBe(200);
    for (const [id, message] of [
      ['abc', 'id must be a whole number'],
      ['0', 'id must be at least 1'],
    ]) {
      const response = await get(`/api/content/${id}/benchmark`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'bad_request' });
      expect(response.body.message).toContain(message);
    }
    expect((await get(`/api/content/${aliceTarget}/benchmark?x=1`)).status).toBe(400);
  });

  it('needs a session and premium access', async () => {
    expect((await server.request('GET', `/api/content/${aliceTarget}/benchmark`)).status).toBe(401);
    const noAccess = await server.signUp();
    expect((await server.request('GET', `/api/content/${aliceTarget}/benchmark`, { token: noAccess.token })).status).toBe(402);
  });
});

describe('benchmarks of many posts at once', () => {
  const service = () => createBenchmarkService({ repository: createBenchmarkRepository(server.db), clock: server.clock });

  it("answers every post of a platform, newest first, exactly as each post's own benchmark", async () => {
    const all = await service().forPosts(alice.user.id, { platform: 'tiktok' });
    // 55 dated posts, the unread one, the one under test and the undated one (last).
    expect(all).toHaveLength(58);
    expect(all.at(-1)!.contentItemId).toBe(aliceUndated);
    const dates = all.slice(0, -1).map((entry) => entry.publishedAt!);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const entry of all) {
      expect(entry).toEqual((await get(`/api/content/${entry.contentItemId}/benchmark`)).body);
    }
  });

  it('covers every platform of the user without mixing them, and only the given ids of their own', async () => {
    const everything = await service().forPosts(alice.user.id);
    expect(everything).toHaveLength(59);
    const instagram = everything.find((entry) => entry.platform === 'instagram')!;
    // Alone on its platform: no comparable post, whatever the TikTok posts hold.
    expect(instagram.ages.find((entry) => entry.age === '7d')!.views).toMatchObject({ status: 'notEnough', value: 999_999, n: 0 });

    const picked = await service().forPosts(alice.user.id, { contentItemIds: [aliceTarget, bobPost, 999_999_999] });
    expect(picked.map((entry) => entry.contentItemId)).toEqual([aliceTarget]);
    expect(picked[0]).toEqual((await get(`/api/content/${aliceTarget}/benchmark`)).body);
    expect(await service().forPosts(alice.user.id, { contentItemIds: [] })).toEqual([]);
    expect(await service().forPosts(bob.user.id, { platform: 'youtube' })).toEqual([]);
    expect((await service().forPosts(carol.user.id)).find((entry) => entry.contentItemId === carolTarget)).toEqual(
      (await get(`/api/content/${carolTarget}/benchmark`, carol)).body,
    );
  });
});
