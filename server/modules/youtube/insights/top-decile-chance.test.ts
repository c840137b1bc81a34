// The chance of ending in the channel's top 10 % at 28 days: the pieces on constructed channels whose answers are
// known, then the reliability claim on the sandbox's three demo channels synced through the product (of the past videos
// scored, the stated chance matches the observed share within 10 points in every band with enough of them).
// @runs-once-on: postgresql (the chance's calibration on the sandbox's demo channels, the same whichever database holds them; scripts/test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { syncedDemoChannel } from '../../../test/youtube-demo-history.ts';
import { NOW } from '../../../test/youtube-insight-data.ts';
import type { InsightVideo } from './insight-types.ts';
import { fitLogistic, MIN_REFERENCES, percentileAmong, reliability, type ScoredOutcome, scoredOutcomes, topDecileChance } from './top-decile-chance.ts';
import { viewsAtElapsed } from './views-at-age.ts';

const DAY_MS = 86_400_000;

/** A video published `daysAgo` days before NOW whose day-by-day views follow `perDay` (28 days, or as many as it has lived). */
function video(key: string, daysAgo: number, perDay: (day: number) => number, views?: number): InsightVideo {
  const publishedAt = new Date(NOW.getTime() - daysAgo * DAY_MS);
  const lived = Math.min(28, Math.floor(daysAgo));
  const earlyViews = Array.from({ length: lived }, (_, day) => perDay(day));
  return {
    videoId: key,
    title: key,
    publishedAt,
    durationSeconds: 600,
    views: views ?? earlyViews.reduce((sum, value) => sum + value, 0),
    likes: null,
    comments: null,
    clickThroughRate: null,
    averageViewPercentage: null,
    earlyViews,
    retention: [],
  };
}

/** 40 past videos, k = 1…40: k × 10 views a day for 28 days, so a video's rank at any age is its rank at 28 days. */
const ordered = Array.from({ length: 40 }, (_, index) => video(`old-${index + 1}`, 40 + index, () => (index + 1) * 10));

describe('the pieces', () => {
  it('places a value among others, ties counted half', () => {
    expect(percentileAmong(5, [1, 2, 3, 4])).toBe(100);
    expect(percentileAmong(0, [1, 2, 3, 4])).toBe(0);
    expect(percentileAmong(3, [1, 2, 3, 4])).toBe(62.5);
  });

  it('reads views at a time after publishing from the UTC-day history, never past its end', () => {
    // Published at noon: the first point is half a day in (100 views), the second a day and a half (150).
    const noon = new Date('2026-11-01T12:00:00Z');
    expect(viewsAtElapsed([100, 50, 20], noon, 0.25)).toBe(50);
    expect(viewsAtElapsed([100, 50, 20], noon, 1)).toBe(125);
    expect(viewsAtElapsed([100, 50, 20], noon, 2.5)).toBe(170);
    expect(viewsAtElapsed([100, 50, 20], noon, 2.6)).toBeNull();
    expect(viewsAtElapsed(null, noon, 1)).toBeNull();
  });

  it('fits a logistic curve: known coefficients come back, and separated endings keep a finite slope', () => {
    // Outcomes laid out so that at each x the share of 1s is exactly the curve's value (to 1 in 1,000).
    const xs: number[] = [];
    const ys: number[] = [];
    for (let x = -3; x <= 3; x += 0.5) {
      const ones = Math.round(1000 / (1 + Math.exp(-(-1 + 2 * x))));
      for (let index = 0; index < 1000; index += 1) {
        xs.push(x);
        ys.push(index < ones ? 1 : 0);
      }
    }
    const [intercept, slope] = fitLogistic(xs.map((x) => [x]), ys, 0);
    expect(intercept).toBeCloseTo(-1, 2);
    expect(slope).toBeCloseTo(2, 2);
    // Two features, the second pure noise: it gets no weight.
    const [, first, second] = fitLogistic(xs.map((x, index) => [x, index % 2]), ys, 0);
    expect(first).toBeCloseTo(2, 2);
    expect(Math.abs(second!)).toBeLessThan(0.05);
    const [, separated] = fitLogistic([[-2], [-1], [1], [2]], [0, 0, 1, 1]);
    expect(Number.isFinite(separated)).toBe(true);
    expect(separated).toBeGreaterThan(0);
  });
});

describe('a video against its channel', () => {
  it('says why there is no chance: no date, too few references, too early', () => {
    const undated = { ...video('undated', 3, () => 100), publishedAt: null };
    expect(topDecileChance(undated, ordered, NOW)).toMatchObject({ status: 'noData', chance: null, n: 40 });
    const few = ordered.slice(0, MIN_REFERENCES - 1);
    expect(topDecileChance(video('young', 3, () => 100), few, NOW)).toMatchObject({
      status: 'notEnough',
      chance: null,
      n: 19,
      sentence: 'Not enough videos with 28 days of history to compare with (19 of 20 needed).',
    });
    expect(topDecileChance(video('fresh', 0.5, () => 100, 50), ordered, NOW)).toMatchObject({ status: 'tooEarly', chance: null });
  });

  it('settles a video past 28 days on what happened', () => {
    const top = video('top', 35, () => 395);
    expect(topDecileChance(top, [...ordered, top], NOW)).toMatchObject({ status: 'settled', chance: 1, percentileNow: 97.5, n: 40 });
    expect(topDecileChance(top, [...ordered, top], NOW).sentence).toBe('It ended in your top 10 % at 28 days (above 98 % of your last 40 videos).');
    const middling = video('middling', 35, () => 205);
    expect(topDecileChance(middling, ordered, NOW)).toMatchObject({ status: 'settled', chance: 0, percentileNow: 50 });
    const unread = { ...video('unread', 35, () => 405), earlyViews: [1, 2, 3] };
    expect(topDecileChance(unread, ordered, NOW)).toMatchObject({ status: 'noData', chance: null });
  });

  it('gives a high chance to a video ahead of every reference at its age, a low one to a video behind most, and more views never lower it', () => {
    // Three days old; at that age reference k holds between k × 30 and k × 40 views (its first UTC day is partial).
    const chanceWith = (views: number) => topDecileChance(video('young', 3, () => 0, views), ordered, NOW);
    const ahead = chanceWith(2_000);
    expect(ahead.status).toBe('ok');
    expect(ahead.percentileNow).toBe(100);
    expect(ahead.chance!).toBeGreaterThan(0.8);
    expect(ahead.basis).toBe('After 3 days it is above 100 % of your last 40 videos at the same age.');
    expect(ahead.sentence).toMatch(/^(\d+ %|over 99 %) chance to end in your top 10 % at 28 days: after 3 days it is above 100 % of your last 40 videos at the same age\.$/);
    const behind = chanceWith(250);
    expect(behind.percentileNow!).toBeLessThan(25);
    expect(behind.chance!).toBeLessThan(0.05);
    const chances = [200, 400, 600, 800, 900, 950, 1000].map((views) => chanceWith(views).chance!);
    expect(chances).toEqual([...chances].sort((a, b) => a - b));
  });
});

describe('reliability on the demo channels', () => {
  let server: TestServer;
  const outcomes: ScoredOutcome[] = [];

  beforeAll(async () => {
    server = await startTestServer({ stripe: true, platforms: true });
    for (const demoAccount of [0, 1, 2]) outcomes.push(...scoredOutcomes(await syncedDemoChannel(server, demoAccount)));
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('states chances that match the observed share within 10 points, and beats stating the overall share', () => {
    const measured = reliability(outcomes);
    expect(measured.scored).toBeGreaterThan(10_000);
    const bands = measured.bins.filter((bin) => bin.scored >= 50);
    expect(bands.length).toBeGreaterThanOrEqual(8);
    for (const bin of bands) expect(Math.abs(bin.stated - bin.observed), `stated ${bin.stated} observed ${bin.observed} (${bin.scored})`).toBeLessThanOrEqual(0.1);
    expect(measured.brier).toBeLessThan(measured.baselineBrier / 2);
  });
});
