// GET /api/analytics/best-times over HTTP against YouTube videos whose age-matched ratios are known exactly: the grid
// in UTC, in the browser's zone and in the zone chosen in Settings, the top slots with their intervals, "not enough
// posts", ownership, and bad input in words (decision 016).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BestTimesResponse } from '#contract/best-times.ts';
import { contentItems, contentMetrics } from '../../db/schema.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel } from '../../test/youtube-factory.ts';

let server: TestServer;
let alice: Account; // 40 videos at three habitual times
let bob: Account; // another user, with 12 videos: not enough
let aliceChannel: number;
let bobChannel: number;

const DAY_MS = 86_400_000;
const { insertConnection } = analyticsFactory(() => server);
/**
 * A video published at `hour`:00 UTC with `perDay` views on each of its first 28 days. Its count at 7 days lies `hour`
 * twenty-fourths into its eighth day: perDay × (7 + hour / 24). The typical video (Monday 12:00, 1829 a day) has
 * 13,717.5 views at 7 days; the daily figures below are chosen so the others have exactly `ratio` times that.
 */
const TYPICAL_AT_7_DAYS = 1829 * 7.5;
const video = (publishedAt: Date, ratio: number) => {
  const perDay = (ratio * TYPICAL_AT_7_DAYS) / (7 + publishedAt.getUTCHours() / 24);
  return { publishedAt, earlyViews: Array.from({ length: 28 }, () => perDay) };
};
/** `count` weekly videos at the same time, the newest at `newest`. */
const weekly = (newest: string, ratios: number[]) => ratios.map((ratio, week) => video(new Date(Date.parse(newest) - 7 * week * DAY_MS), ratio));

const TUESDAY_RATIOS = [1.5, 2, 2, 2.5, 3, 4];
const FRIDAY_RATIOS = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5];

beforeAll(async () => {
  server = await startTestServer({ stripe: true }); // the clock reads Monday 2026-11-02T10:00Z
  [alice, bob] = [await signUpWithAccess(server), await signUpWithAccess(server)];
  const now = server.clock.now();
  // 28 typical Mondays at 12:00 UTC, 6 Tuesdays at 18:00 (better), 6 Fridays at 09:00 (worse). Each video's 39
  // comparables hold at least 27 typical ones, so every median is the typical count and every ratio is as given.
  aliceChannel = (
    await seedYoutubeChannel(server.db, {
      userId: alice.user.id,
      now,
      videos: [
        ...weekly('2026-10-19T12:00:00Z', Array.from({ length: 28 }, () => 1)),
        ...weekly('2026-10-20T18:00:00Z', TUESDAY_RATIOS),
        ...weekly('2026-10-23T09:00:00Z', FRIDAY_RATIOS),
      ],
    })
  ).connectionId;
  bobChannel = (await seedYoutubeChannel(server.db, { userId: bob.user.id, now, videos: weekly('2026-10-19T12:00:00Z', Array.from({ length: 12 }, () => 1)) })).connectionId;
});
afterAll(async () => {
  await server?.close();
});

const bestTimes = (account: Account, query: string) => server.request('GET', `/api/analytics/best-times?${query}`, { token: account.token });
const cell = (answer: BestTimesResponse, weekday: number, hour: number) => answer.cells.find((entry) => entry.weekday === weekday && entry.hour === hour)!;

describe('GET /api/analytics/best-times', () => {
  it('places each video by its 7-day ratio in a weekday × hour cell and ranks the best, with their intervals', async () => {
    const response = await bestTimes(alice, `connectionId=${aliceChannel}`);
    expect(response.status).toBe(200);
    const answer = response.body as BestTimesResponse;
    expect(answer).toMatchObject({
      connectionId: aliceChannel,
      platform: 'youtube',
      timeZone: 'UTC',
      timeZoneSource: 'utc',
      status: 'ok',
      posts: 40,
      // No lifetime totals stored for these videos (only their day-by-day early views): all by the 7-day count.
      postsSettled: 0,
      settledMetric: null,
      postsAt7Days: 40,
      postsAt24Hours: 0,
      minimumPosts: 30,
      minimumCellPosts: 5,
      minimumSlotPosts: 5,
      confidence: 0.9,
    });
    expect(answer.cells).toHaveLength(168);
    expect(answer.cells.filter((entry) => entry.n > 0).map(({ weekday, hour, n }) => [weekday, hour, n])).toEqual([
      [1, 12, 28],
      [2, 18, 6],
      [5, 9, 6],
    ]);
    expect(cell(answer, 1, 12).median).toBeCloseTo(1, 9);
    expect(cell(answer, 2, 18).median).toBeCloseTo(2.25, 9);
    expect(cell(answer, 5, 9).median).toBeCloseTo(0.5, 9);
    expect(cell(answer, 3, 18)).toEqual({ weekday: 3, hour: 18, n: 0, settled: 0, median: null });
    // Six values: [x(1), x(6)] covers 1 − 2/64; 28 values: [x(10), x(19)] covers 1 − 2·P(B ≤ 9) ≈ 0.9128.
    expect(answer.top.map(({ weekday, hour, n }) => [weekday, hour, n])).toEqual([
      [2, 18, 6],
      [1, 12, 28],
      [5, 9, 6],
    ]);
    expect(answer.top[0]!.low).toBeCloseTo(1.5, 9);
    expect(answer.top[0]!.high).toBeCloseTo(4, 9);
    expect(answer.top[0]!.coverage).toBe(1 - 2 / 64);
    expect(answer.top[1]!.coverage).toBeCloseTo(0.9128, 4);
  });

  it("uses the browser's zone when Settings has none, and the Settings zone over it", async () => {
    // Tokyo is UTC+9 all year: Tuesday 18:00Z is Wednesday 03:00, Monday 12:00Z is 21:00, Friday 09:00Z is 18:00.
    const tokyo = (await bestTimes(alice, `connectionId=${aliceChannel}&timeZone=asia/tokyo`)).body as BestTimesResponse;
    expect(tokyo).toMatchObject({ timeZone: 'Asia/Tokyo', timeZoneSource: 'browser' });
    expect(tokyo.top.map(({ weekday, hour }) => [weekday, hour])).toEqual([
      [3, 3],
      [1, 21],
      [5, 18],
    ]);

    const saved = await server.request('PATCH', '/api/settings/profile', { token: alice.token, body: { timeZone: 'Europe/Paris' } });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Your time zone is saved.');
    expect((await server.request('GET', '/api/settings/account', { token: alice.token })).body.timeZone).toBe('Europe/Paris');
    // Every one of these videos went out in Paris summer time (UTC+2).
    const paris = (await bestTimes(alice, `connectionId=${aliceChannel}&timeZone=Asia/Tokyo`)).body as BestTimesResponse;
    expect(paris).toMatchObject({ timeZone: 'Europe/Paris', timeZoneSource: 'setting' });
    expect(paris.top.map(({ weekday, hour }) => [weekday, hour])).toEqual([
      [2, 20],
      [1, 14],
      [5, 11],
    ]);

    expect((await server.request('PATCH', '/api/settings/profile', { token: alice.token, body: { timeZone: null } })).status).toBe(200);
    expect((await bestTimes(alice, `connectionId=${aliceChannel}`)).body).toMatchObject({ timeZone: 'UTC', timeZoneSource: 'utc' });
  });

  it('says "not enough posts" under 30 posts with a ratio, with the count', async () => {
    const response = await bestTimes(bob, `connectionId=${bobChannel}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'notEnoughPosts', posts: 12, minimumPosts: 30, cells: [], top: [] });
  });

  it("answers another user's connection exactly like a missing one", async () => {
    const missing = await bestTimes(bob, 'connectionId=2000000000');
    expect(missing.status).toBe(404);
    const others = await bestTimes(bob, `connectionId=${aliceChannel}`);
    expect({ status: others.status, body: others.body }).toEqual({ status: 404, body: missing.body });
  });

  it('refuses an unknown zone, a malformed id and a missing one in words', async () => {
    const zone = await bestTimes(alice, `connectionId=${aliceChannel}&timeZone=Mars/Olympus_Mons`);
    expect(zone.status).toBe(400);
    expect(zone.body.message).toMatch(/Unknown time zone/);
    const settingZone = await server.request('PATCH', '/api/settings/profile', { token: alice.token, body: { timeZone: 'Not/AZone' } });
    expect(settingZone.status).toBe(400);
    expect(settingZone.body.message).toMatch(/Unknown time zone/);
    expect((await server.request('PATCH', '/api/settings/profile', { token: alice.token, body: {} })).body.message).toMatch(/Send a name, a time zone or a display currency/);
    const malformed = await bestTimes(alice, 'connectionId=abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/connectionId must be a whole number/);
    expect((await server.request('GET', '/api/analytics/best-times', { token: alice.token })).status).toBe(400);
    expect((await server.request('GET', `/api/analytics/best-times?connectionId=${aliceChannel}`)).status).toBe(401);
  });
});

describe('settled posts (issue 24: a grid from the day an account connects)', () => {
  /** `count` weekly posts at the same weekday and hour, the newest `newest`, each with the latest counts given. */
  async function weeklyPosts(connectionId: number, newest: string, count: number, metrics: Record<string, number>) {
    const asOf = server.clock.now().toISOString().slice(0, 10);
    for (let week = 0; week < count; week += 1) {
      const [item] = await server.db
        .insert(contentItems)
        .values({ connectionId, platformContentId: `${newest}-${week}`, title: `Post ${week}`, publishedAt: new Date(Date.parse(newest) - 7 * week * DAY_MS) })
        .returning();
      await server.db.insert(contentMetrics).values(Object.entries(metrics).map(([metricType, value]) => ({ contentItemId: item!.id, connectionId, metricType, asOf, value })));
    }
  }

  it('counts posts over 28 days old by their lifetime views against the posts published nearest to them', async () => {
    const carol = await signUpWithAccess(server);
    const instagram = await insertConnection(carol.user.id, 'instagram', 900);
    // All older than 28 days (the clock reads 2026-11-02): 24 typical Mondays, 8 Tuesdays at three times the views,
    // 8 Fridays at half. Among any 30 neighbours the typical posts are the median.
    await weeklyPosts(instagram, '2026-09-28T12:00:00Z', 24, { views: 1000, likes: 40 });
    await weeklyPosts(instagram, '2026-09-29T18:00:00Z', 8, { views: 3000, likes: 90 });
    await weeklyPosts(instagram, '2026-09-25T09:00:00Z', 8, { views: 500, likes: 10 });
    const answer = (await bestTimes(carol, `connectionId=${instagram}`)).body as BestTimesResponse;
    expect(answer).toMatchObject({ status: 'ok', posts: 40, postsSettled: 40, postsAt7Days: 0, postsAt24Hours: 0, settledMetric: 'views' });
    expect(cell(answer, 1, 12)).toMatchObject({ n: 24, settled: 24, median: 1 });
    expect(cell(answer, 2, 18)).toMatchObject({ n: 8, settled: 8, median: 3 });
    expect(cell(answer, 5, 9)).toMatchObject({ n: 8, settled: 8, median: 0.5 });
    expect(answer.top.map(({ weekday, hour }) => [weekday, hour])).toEqual([
      [2, 18],
      [1, 12],
      [5, 9],
    ]);
  });

  it('compares engagements where the platform gives no views, and leaves a post without totals to its count at an age', async () => {
    const dan = await signUpWithAccess(server);
    const linkedin = await insertConnection(dan.user.id, 'linkedin', 300);
    await weeklyPosts(linkedin, '2026-09-28T08:00:00Z', 26, { likes: 20, comments: 5 });
    await weeklyPosts(linkedin, '2026-09-30T17:00:00Z', 6, { likes: 80, comments: 20 });
    const answer = (await bestTimes(dan, `connectionId=${linkedin}`)).body as BestTimesResponse;
    expect(answer).toMatchObject({ status: 'ok', posts: 32, postsSettled: 32, settledMetric: 'engagements' });
    expect(cell(answer, 3, 17)).toMatchObject({ n: 6, settled: 6, median: 4 });
    expect(answer.top[0]).toMatchObject({ weekday: 3, hour: 17, n: 6, settled: 6, median: 4 });
  });
});
