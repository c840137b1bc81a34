// Instagram's metrics endpoints as a sync adapter drives them: media paging, media insights, account insights.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { bearer, DAY, get, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
beforeEach(async () => {
  context = await startTestSandbox();
});
afterEach(async () => {
  await context.close();
});

const graph = (path: string) => context.sandbox.url(`https://graph.instagram.com/v25.0/${path}`);
const seconds = (ms: number) => Math.floor(ms / 1000);

/** Follows paging.next (rewritten to the sandbox) until it is absent. */
async function allMedia(token: string, fields = 'id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count'): Promise<any[]> {
  const media: any[] = [];
  let url: string | undefined = graph(`me/media?fields=${fields}&limit=50`);
  while (url) {
    const page = await get(url, bearer(token));
    expect(page.status).toBe(200);
    media.push(...page.body.data);
    url = page.body.paging?.next ? context.sandbox.url(page.body.paging.next) : undefined;
  }
  return media;
}

describe('Instagram media', () => {
  it('pages through every post with cursors, newest first, matching media_count', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const media = await allMedia(token);
    expect(media.length).toBeGreaterThan(500);
    expect(new Set(media.map((item) => item.id)).size).toBe(media.length);
    const times = media.map((item) => Date.parse(item.timestamp.replace('+0000', 'Z')));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(media[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    const profile = await get(graph('me?fields=media_count'), bearer(token));
    expect(profile.body.media_count).toBe(media.length);
    expect(context.sandbox.countCalls('instagram', 'media')).toBe(Math.ceil(media.length / 50));
    // Passing `after` by hand gives the same second page.
    const first = await get(graph('me/media?fields=id&limit=10'), bearer(token));
    const second = await get(graph(`me/media?fields=id&limit=10&after=${first.body.paging.cursors.after}`), bearer(token));
    expect(second.body.data.map((item: any) => item.id)).toEqual(media.slice(10, 20).map((item) => item.id));
  });

  it('answers lifetime media insights per media type, deterministically', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 1);
    const media = await allMedia(token, 'id,media_product_type,like_count');
    const reel = media.find((item) => item.media_product_type === 'REELS' && item.like_count > 0)!;
    const url = graph(`${reel.id}/insights?metric=views,reach,likes,comments,shares,saved,total_interactions`);
    const insights = await get(url, bearer(token));
    expect(insights.status).toBe(200);
    expect(insights.body.data.map((entry: any) => entry.name)).toEqual(['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions']);
    const values = Object.fromEntries(insights.body.data.map((entry: any) => [entry.name, entry.values[0].value]));
    expect(insights.body.data[0].period).toBe('lifetime');
    expect(values.likes).toBe(reel.like_count);
    expect(values.total_interactions).toBe(values.likes + values.comments + values.shares + values.saved);
    expect((await get(url, bearer(token))).body).toEqual(insights.body);
    expect(context.sandbox.countCalls('instagram', 'media.insights')).toBe(2);
    const deprecated = await get(graph(`${reel.id}/insights?metric=impressions`), bearer(token));
    expect(deprecated.status).toBe(400);
    expect(deprecated.body.error.code).toBe(100);
  });

  it('has no insights for media posted before the account became a business account (100 / 2108006)', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 1);
    const media = await allMedia(token, 'id');
    const answers = await Promise.all(media.map(async (item) => (await get(graph(`${item.id}/insights?metric=views,reach`), bearer(token))).body));
    const refused = answers.filter((body) => body.error);
    // The oldest 30 posts (the list is newest first), and only those.
    expect(refused).toHaveLength(30);
    expect(answers.slice(-30).every((body) => body.error)).toBe(true);
    expect(refused[0].error).toMatchObject({ code: 100, error_subcode: 2108006, type: 'OAuthException', message: expect.stringContaining('Before Business Account Conversion') });
    // The other demo accounts were business accounts from their first post.
    const maya = await connectAs(context.sandbox, 'instagram', 0);
    const oldest = (await allMedia(maya, 'id')).at(-1)!;
    expect((await get(graph(`${oldest.id}/insights?metric=views`), bearer(maya))).status).toBe(200);
  });
});

describe('Instagram account insights', () => {
  it('serves follower_count as daily gross new followers, unfollows only in follows_and_unfollows by follow_type', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const now = context.clock.now().getTime();
    const day = Math.floor(now / DAY) * DAY - 5 * DAY;
    const gross = await get(graph(`me/insights?metric=follower_count&period=day&since=${seconds(day)}&until=${seconds(day + DAY)}`), bearer(token));
    const [newFollowers] = gross.body.data[0].values;
    expect(newFollowers.value).toBeGreaterThanOrEqual(0);
    const follows = await get(graph(`me/insights?metric=follows_and_unfollows&period=day&metric_type=total_value&breakdown=follow_type&since=${seconds(day)}&until=${seconds(day + DAY)}`), bearer(token));
    expect(follows.status).toBe(200);
    const { total_value: total } = follows.body.data[0];
    expect(total.breakdowns[0].dimension_keys).toEqual(['follow_type']);
    const byType = Object.fromEntries(total.breakdowns[0].results.map((result: any) => [result.dimension_values[0], result.value]));
    expect(byType.FOLLOWER).toBe(newFollowers.value);
    expect(byType.NON_FOLLOWER).toBeGreaterThan(0);
    // Every day of the month: never negative, and unfollows are not netted out of it.
    const month = await get(graph(`me/insights?metric=follower_count&period=day&since=${seconds(now - 30 * DAY)}&until=${seconds(now)}`), bearer(token));
    expect(month.body.data[0].values.every((point: any) => point.value >= 0)).toBe(true);
    // follows_and_unfollows only with its breakdown; a breakdown only where the metric has it.
    expect((await get(graph(`me/insights?metric=follows_and_unfollows&period=day&metric_type=total_value&since=${seconds(day)}&until=${seconds(day + DAY)}`), bearer(token))).body.error).toMatchObject({ code: 100 });
    expect((await get(graph(`me/insights?metric=views,follows_and_unfollows&period=day&metric_type=total_value&breakdown=follow_type&since=${seconds(day)}&until=${seconds(day + DAY)}`), bearer(token))).body.error).toMatchObject({ code: 100, message: expect.stringContaining('(views)') });
  });

  it('serves follower_count for the last 30 days only', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const now = context.clock.now().getTime();
    const answer = await get(graph(`me/insights?metric=follower_count&period=day&since=${seconds(now - 30 * DAY)}&until=${seconds(now)}`), bearer(token));
    expect(answer.status).toBe(200);
    const series = answer.body.data[0];
    expect(series.name).toBe('follower_count');
    expect(series.values.length).toBe(30);
    expect(series.values[0]).toEqual({ value: expect.any(Number), end_time: expect.stringMatching(/T07:00:00\+0000$/) });
    expect(context.sandbox.countCalls('instagram', 'user.insights')).toBe(1);
    // Older than 30 days: nothing.
    const old = await get(graph(`me/insights?metric=follower_count&period=day&since=${seconds(now - 60 * DAY)}&until=${seconds(now - 40 * DAY)}`), bearer(token));
    expect(old.body.data[0].values).toEqual([]);
    // Fewer than 100 followers: no data.
    const ivy = await connectAs(context.sandbox, 'instagram', 2);
    const small = await get(graph(`me/insights?metric=follower_count&period=day&since=${seconds(now - 7 * DAY)}&until=${seconds(now)}`), bearer(ivy));
    expect(small.body.data).toEqual([]);
  });

  it('serves views, reach and accounts_engaged as total_value, and refuses views as a time series', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const now = context.clock.now().getTime();
    const range = `since=${seconds(now - 28 * DAY)}&until=${seconds(now)}`;
    const answer = await get(graph(`me/insights?metric=views,reach,accounts_engaged&period=day&metric_type=total_value&${range}`), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((entry: any) => entry.name)).toEqual(['views', 'reach', 'accounts_engaged']);
    expect(answer.body.data[0].total_value.value).toBeGreaterThan(0);
    expect((await get(graph(`me/insights?metric=views,reach,accounts_engaged&period=day&metric_type=total_value&${range}`), bearer(token))).body).toEqual(answer.body);
    const refused = await get(graph(`me/insights?metric=views&period=day&${range}`), bearer(token));
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(100);
    const tooLong = await get(graph(`me/insights?metric=views&period=day&metric_type=total_value&since=${seconds(now - 40 * DAY)}&until=${seconds(now)}`), bearer(token));
    expect(tooLong.status).toBe(400);
  });
});

describe('Instagram account insights: how far back', () => {
  /** One whole UTC day `daysAgo` days before today (the clock's day). */
  const dayRange = (daysAgo: number, days = 1) => {
    const start = Math.floor(context.clock.now().getTime() / DAY) * DAY - daysAgo * DAY;
    return `since=${seconds(start)}&until=${seconds(start + days * DAY)}`;
  };
  const follows = (range: string, token: string) => get(graph(`me/insights?metric=follows_and_unfollows&period=day&metric_type=total_value&breakdown=follow_type&${range}`), bearer(token));
  const totals = (range: string, token: string) => get(graph(`me/insights?metric=views,reach,accounts_engaged,total_interactions&period=day&metric_type=total_value&${range}`), bearer(token));
  const followsOf = (body: any) => Object.fromEntries(body.data[0].total_value.breakdowns[0].results.map((result: any) => [result.dimension_values[0], result.value]));

  it('follows_and_unfollows, like follower_count, only for the last 30 days excluding today: older days answer an empty data set', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    // The oldest day kept, and the day before it.
    const kept = await follows(dayRange(30), token);
    expect(kept.status).toBe(200);
    expect(followsOf(kept.body).FOLLOWER).toBeGreaterThan(0);
    const old = await follows(dayRange(31), token);
    expect(old.status).toBe(200);
    // Meta answers no data with an empty data set, not with zeros: no entry, no breakdown.
    expect(old.body).toEqual({ data: [] });
    expect((await follows(dayRange(200, 30), token)).body).toEqual({ data: [] });
    // Today is not over: nothing for it either.
    expect((await follows(dayRange(0), token)).body).toEqual({ data: [] });
    // A range reaching into the window counts only its days inside: days 31 and 32 back add nothing to day 30's.
    expect(followsOf((await follows(dayRange(32, 3), token)).body)).toEqual(followsOf(kept.body));
  });

  it('views, reach, engaged accounts and interactions for two years (730 days): older days answer an empty data set', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const horizon = await totals(dayRange(730), token);
    expect(horizon.status).toBe(200);
    expect(horizon.body.data.map((entry: any) => entry.name)).toEqual(['views', 'reach', 'accounts_engaged', 'total_interactions']);
    expect(horizon.body.data.every((entry: any) => entry.total_value.value > 0)).toBe(true);
    expect((await totals(dayRange(731), token)).body).toEqual({ data: [] });
    expect((await totals(dayRange(760, 29), token)).body).toEqual({ data: [] });
    // The time series of reach stops at the same horizon: of the days 735 to 726 back, those from 730 on.
    const reach = await get(graph(`me/insights?metric=reach&period=day&${dayRange(735, 10)}`), bearer(token));
    expect(reach.body.data[0].values).toHaveLength(5);
    // A range reaching past the horizon sums only its days inside it.
    const straddling = await get(graph(`me/insights?metric=views&period=day&metric_type=total_value&${dayRange(732, 3)}`), bearer(token));
    expect(straddling.body.data[0].total_value.value).toBe(horizon.body.data[0].total_value.value);
  });

  it('refuses a range of more than 30 days, and takes one of exactly 30', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    expect((await totals(dayRange(31, 30), token)).status).toBe(200);
    const tooLong = await totals(dayRange(31, 31), token);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 100, message: expect.stringContaining('30 days') });
    expect((await follows(dayRange(29, 31), token)).status).toBe(400);
  });

  it('two years back, the demo accounts had fewer daily views than now, but never none', async () => {
    for (const account of [0, 1, 2]) {
      const token = await connectAs(context.sandbox, 'instagram', account);
      const weekOfViews = async (daysAgo: number) => {
        const values: number[] = [];
        for (let day = daysAgo; day > daysAgo - 7; day -= 1) values.push((await totals(dayRange(day), token)).body.data[0].total_value.value);
        return values;
      };
      const then = await weekOfViews(730);
      const now = await weekOfViews(7);
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      expect(Math.min(...then), `account ${account}`).toBeGreaterThan(0);
      // Growth of 30 to 60 % a year (SHAPE): two years back is a third to three quarters of today's views.
      expect(mean(then) / mean(now), `account ${account}`).toBeGreaterThan(0.25);
      expect(mean(then) / mean(now), `account ${account}`).toBeLessThan(0.85);
    }
  });
});

describe('Instagram failNext metrics', () => {
  it('renders Graph errors by code', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const { sandbox } = context;
    const url = graph('me/media?fields=id');
    for (const failure of ['server_error', 'malformed_json', 'rate_limited', 'token_expired', 'revoked'] as const) sandbox.failNext('instagram', 'metrics', failure);
    expect((await get(url, bearer(token))).status).toBe(500);
    expect((await get(url, bearer(token))).body).toBeNull();
    const limited = await get(url, bearer(token));
    expect(limited.body.error.code).toBe(4);
    expect(limited.headers.get('x-app-usage')).toContain('call_count');
    const expired = await get(url, bearer(token));
    expect(expired.body.error).toMatchObject({ code: 190, error_subcode: 463 });
    expect((await get(url, bearer(token))).body.error.code).toBe(190);
    expect((await get(url, bearer(token))).status).toBe(200);
  });
});
