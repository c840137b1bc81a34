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

// Rules 16–22 of ../shared/platform-apis-corrections.md ("Rules the imitation must enforce"), on Meta's days: the
// clock stands at 10:00 UTC, so the Meta day under way began at 07:00 UTC today and the last one over is yesterday's.
describe('Instagram account insights', () => {
  /** Meta days from `daysAgo` days before the one under way, `days` of them, on Meta's 07:00 UTC boundary. */
  const metaDays = (daysAgo: number, days = 1) => {
    const start = seconds(Math.floor(context.clock.now().getTime() / DAY) * DAY) + 7 * 3600 - daysAgo * 86_400;
    return `since=${start}&until=${start + days * 86_400}`;
  };
  const insights = (query: string, token: string) => get(graph(`me/insights?${query}`), bearer(token));
  const follows = (range: string, token: string) => insights(`metric=follows_and_unfollows&period=day&metric_type=total_value&breakdown=follow_type&${range}`, token);
  const totals = (range: string, token: string) => insights(`metric=views,reach,accounts_engaged,total_interactions&period=day&metric_type=total_value&${range}`, token);
  const followsOf = (body: any) => Object.fromEntries(body.data[0].total_value.breakdowns[0].results.map((result: any) => [result.dimension_values[0], result.value]));

  it('serves follower_count as daily gross new followers, unfollows only in follows_and_unfollows by follow_type', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const gross = await insights(`metric=follower_count&period=day&${metaDays(5)}`, token);
    const [newFollowers] = gross.body.data[0].values;
    expect(newFollowers.value).toBeGreaterThanOrEqual(0);
    const byType = followsOf((await follows(metaDays(5), token)).body);
    expect(byType.FOLLOWER).toBe(newFollowers.value);
    expect(byType.NON_FOLLOWER).toBeGreaterThan(0);
    const month = await insights(`metric=follower_count&period=day&${metaDays(30, 30)}`, token);
    expect(month.body.data[0].values.every((point: any) => point.value >= 0)).toBe(true);
    // follows_and_unfollows only with its breakdown; a breakdown only where the metric has it.
    expect((await insights(`metric=follows_and_unfollows&period=day&metric_type=total_value&${metaDays(5)}`, token)).body.error).toMatchObject({ code: 100 });
    expect((await insights(`metric=views,follows_and_unfollows&period=day&metric_type=total_value&breakdown=follow_type&${metaDays(5)}`, token)).body.error).toMatchObject({ code: 100, message: expect.stringContaining('(views)') });
  });

  it('rule 16 (row 15, peer captures): a range over 30 days (2,592,000 s) is refused with Meta\'s body, time series and totals alike; exactly 30 is served', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    expect((await totals(metaDays(31, 30), token)).status).toBe(200);
    expect((await insights(`metric=reach&period=day&${metaDays(31, 30)}`, token)).status).toBe(200);
    for (const tooLong of [await totals(metaDays(31, 31), token), await insights(`metric=reach&period=day&${metaDays(31, 31)}`, token)]) {
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error).toMatchObject({ code: 100, type: 'OAuthException', message: '(#100) There cannot be more than 30 days (2592000 s) between since and until', fbtrace_id: expect.any(String) });
    }
    // One second over is over.
    const [since, until] = metaDays(31, 30).split('&').map((part) => Number(part.split('=')[1]));
    expect((await insights(`metric=reach&period=day&since=${since! - 1}&until=${until}`, token)).status).toBe(400);
  });

  it('rule 17 (row 16, official limitations list): follower_count only inside the last 30 days excluding today, else the whole call fails', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const month = await insights(`metric=follower_count&period=day&${metaDays(30, 30)}`, token);
    expect(month.status).toBe(200);
    expect(month.body.data[0].values).toHaveLength(30);
    const refusal = { code: 100, message: '(#100) (follower_count) metric only supports querying data for the last 30 days excluding the current day' };
    // A day older, or the day under way: refused, and the metric beside it is not served either.
    for (const range of [metaDays(31, 30), metaDays(1, 2), metaDays(0)]) {
      const refused = await insights(`metric=follower_count,reach&period=day&${range}`, token);
      expect(refused.status, range).toBe(400);
      expect(refused.body.error).toMatchObject(refusal);
      expect(refused.body.data).toBeUndefined();
    }
    // The same range answers for reach alone.
    expect((await insights(`metric=reach&period=day&${metaDays(31, 30)}`, token)).status).toBe(200);
  });

  it('rule 18 (row 17, peer adapter notes): total_value-only metrics without metric_type=total_value are refused', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    for (const metric of ['views', 'accounts_engaged', 'total_interactions', 'likes', 'comments', 'shares', 'saves', 'replies', 'follows_and_unfollows', 'profile_links_taps']) {
      const refused = await insights(`metric=reach,${metric}&period=day&${metaDays(3)}`, token);
      expect(refused.status, metric).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 100, message: `(#100) The following metrics (${metric}) should be specified with parameter metric_type=total_value` });
    }
    // reach has both.
    expect((await insights(`metric=reach&period=day&${metaDays(3)}`, token)).status).toBe(200);
    expect((await insights(`metric=reach&period=day&metric_type=total_value&${metaDays(3)}`, token)).status).toBe(200);
  });

  it('rule 19 (row 16, official metric table): follower_count with metric_type=total_value is refused', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const refused = await insights(`metric=follower_count&period=day&metric_type=total_value&${metaDays(3)}`, token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 100, message: expect.stringContaining('follower_count') });
  });

  it('rule 20 (rows 14 and 19): a total is one total_value for the range with no values[]; a time series has one value per Meta day, ending T07:00:00+0000', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const week = await totals(metaDays(7, 7), token);
    expect(week.body.data.map((entry: any) => entry.name)).toEqual(['views', 'reach', 'accounts_engaged', 'total_interactions']);
    for (const entry of week.body.data) {
      expect(entry.values).toBeUndefined();
      expect(entry.total_value.value).toBeGreaterThan(0);
    }
    // The week's views are its seven days' views.
    let sum = 0;
    for (let day = 7; day >= 1; day -= 1) sum += (await totals(metaDays(day), token)).body.data[0].total_value.value;
    expect(week.body.data[0].total_value.value).toBe(sum);
    const series = await insights(`metric=reach&period=day&${metaDays(3, 3)}`, token);
    // The Meta day that began at 07:00 UTC three days ago ends at 07:00 UTC two days ago, and so on.
    expect(series.body.data[0].values.map((value: any) => value.end_time)).toEqual(['2026-05-02T07:00:00+0000', '2026-05-03T07:00:00+0000', '2026-05-04T07:00:00+0000']);
    // The Meta day under way (it began at 07:00 today) has no value yet.
    expect((await insights(`metric=reach&period=day&${metaDays(1, 2)}`, token)).body.data[0].values).toHaveLength(1);
  });

  it('rule 21 (row 20, account-insights reference): no data is an empty data set, never a 0; under 100 followers follower_count is empty and follows_and_unfollows has no total_value', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    // The day under way: nothing yet.
    expect((await totals(metaDays(0), token)).body).toEqual({ data: [] });
    expect((await follows(metaDays(0), token)).body).toEqual({ data: [] });
    // follows_and_unfollows only for the last 30 days: the 31st day back answers an empty data set.
    expect(followsOf((await follows(metaDays(30), token)).body).FOLLOWER).toBeGreaterThan(0);
    expect((await follows(metaDays(31), token)).body).toEqual({ data: [] });
    const ivy = await connectAs(context.sandbox, 'instagram', 2);
    expect((await insights(`metric=follower_count&period=day&${metaDays(7, 7)}`, ivy)).body.data).toEqual([]);
    const small = await follows(metaDays(3), ivy);
    expect(small.status).toBe(200);
    expect(small.body.data).toHaveLength(1);
    expect(small.body.data[0].name).toBe('follows_and_unfollows');
    expect('total_value' in small.body.data[0]).toBe(false);
  });

  it('rule 22 (row 18, unverified): account insights go back a switchable horizon, 90 days by default; past it an empty answer, or a code 100 refusal', async () => {
    const token = await connectAs(context.sandbox, 'instagram', 0);
    const { settings } = context.sandbox;
    expect(settings.instagramAccountInsightDays).toBe(90);
    expect((await totals(metaDays(90), token)).body.data[0].total_value.value).toBeGreaterThan(0);
    expect((await totals(metaDays(91), token)).body).toEqual({ data: [] });
    expect((await insights(`metric=reach&period=day&${metaDays(95, 10)}`, token)).body.data[0].values).toHaveLength(5);
    // A range reaching past the horizon sums only its days inside it.
    expect((await totals(metaDays(92, 3), token)).body.data[0].total_value.value).toBe((await totals(metaDays(90), token)).body.data[0].total_value.value);
    settings.instagramOldDays = 'refuse';
    const refused = await totals(metaDays(91), token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 100 });
    expect((await totals(metaDays(90), token)).status).toBe(200);
    settings.instagramOldDays = 'empty';
    settings.instagramAccountInsightDays = 730;
    expect((await totals(metaDays(730), token)).body.data[0].total_value.value).toBeGreaterThan(0);
    expect((await totals(metaDays(731), token)).body).toEqual({ data: [] });
  });

  it('two years back, the demo accounts had fewer daily views than now, but never none', async () => {
    context.sandbox.settings.instagramAccountInsightDays = 730;
    for (const account of [0, 1, 2]) {
      const token = await connectAs(context.sandbox, 'instagram', account);
      const weekOfViews = async (daysAgo: number) => {
        const values: number[] = [];
        for (let day = daysAgo; day > daysAgo - 7; day -= 1) values.push((await totals(metaDays(day), token)).body.data[0].total_value.value);
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
