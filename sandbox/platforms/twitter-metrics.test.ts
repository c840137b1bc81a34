// X's user timeline as a sync adapter drives it: pagination tokens, the 3,200 cap, metrics, rate limits.
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

const timeline = (id: string, query: string) => context.sandbox.url(`https://api.x.com/2/users/${id}/tweets?${query}`);

async function allPosts(token: string, id: string, query = 'tweet.fields=created_at,public_metrics,non_public_metrics'): Promise<any[]> {
  const posts: any[] = [];
  let next: string | undefined;
  do {
    const page = await get(timeline(id, `max_results=100&${query}${next ? `&pagination_token=${next}` : ''}`), bearer(token));
    expect(page.status).toBe(200);
    expect(page.body.meta.result_count).toBe(page.body.data?.length ?? 0);
    posts.push(...(page.body.data ?? []));
    next = page.body.meta.next_token;
  } while (next);
  return posts;
}

describe('X users/:id/tweets', () => {
  it('pages through every post with public metrics and private metrics only for the last 30 days', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 1);
    const id = sandbox.accounts.twitter[1]!.id;
    const posts = await allPosts(token, id);
    expect(posts.length).toBeGreaterThan(500);
    expect(new Set(posts.map((post) => post.id)).size).toBe(posts.length);
    const ids = posts.map((post) => BigInt(post.id));
    expect(ids.every((value, index) => index === 0 || value < ids[index - 1]!)).toBe(true);
    expect(Object.keys(posts[0].public_metrics).sort()).toEqual(['bookmark_count', 'impression_count', 'like_count', 'quote_count', 'reply_count', 'retweet_count']);
    const now = context.clock.now().getTime();
    for (const post of posts) {
      const recent = now - Date.parse(post.created_at) < 30 * DAY;
      expect('non_public_metrics' in post).toBe(recent);
    }
    expect(sandbox.countCalls('twitter', 'users.tweets')).toBe(Math.ceil(posts.length / 100));
  });

  it('reaches only the newest 3,200 posts', async () => {
    const { sandbox } = context;
    context.clock.advance(365 * DAY);
    const token = await connectAs(sandbox, 'twitter', 0);
    const posts = await allPosts(token, sandbox.accounts.twitter[0]!.id);
    expect(posts).toHaveLength(3200);
  });

  it('with exclude=replies reaches only the newest 800 posts, replies among them dropped', async () => {
    const { sandbox } = context;
    context.clock.advance(365 * DAY);
    const token = await connectAs(sandbox, 'twitter', 0);
    const id = sandbox.accounts.twitter[0]!.id;
    const everything = await allPosts(token, id, 'tweet.fields=referenced_tweets,in_reply_to_user_id,conversation_id');
    expect(everything).toHaveLength(3200);
    const isReply = (post: any) => post.referenced_tweets?.some((reference: any) => reference.type === 'replied_to') === true;
    const replies = everything.filter(isReply);
    // About a fifth of the demo posts answer another account, and say so the way X does.
    expect(replies.length / everything.length).toBeGreaterThan(0.15);
    expect(replies.length / everything.length).toBeLessThan(0.25);
    for (const reply of replies) expect(reply).toMatchObject({ in_reply_to_user_id: expect.any(String), conversation_id: reply.referenced_tweets[0].id });

    const withoutReplies = await allPosts(token, id, 'exclude=replies&tweet.fields=referenced_tweets');
    const newest800 = everything.slice(0, 800);
    expect(withoutReplies.map((post) => post.id)).toEqual(newest800.filter((post) => !isReply(post)).map((post) => post.id));
    expect(withoutReplies.length).toBeLessThan(800);
    // exclude=retweets alone keeps the 3,200 reach.
    expect(await allPosts(token, id, 'exclude=retweets&tweet.fields=id')).toHaveLength(3200);
    expect((await get(timeline(id, 'exclude=quotes'), bearer(token))).body).toMatchObject({ title: 'Invalid Request', errors: [{ parameters: { exclude: ['quotes'] } }] });
  });

  it('accepts the post-era names (post.fields, referenced_posts) and answers in them', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 1);
    const id = sandbox.accounts.twitter[1]!.id;
    const tweetEra = await get(timeline(id, 'max_results=100&tweet.fields=public_metrics'), bearer(token));
    const postEra = await get(timeline(id, 'max_results=100&post.fields=public_metrics&expansions=referenced_posts'), bearer(token));
    expect(postEra.status).toBe(200);
    expect(postEra.body.data.map((post: any) => post.id)).toEqual(tweetEra.body.data.map((post: any) => post.id));
    const [tweet, post] = [tweetEra.body.data[0], postEra.body.data[0]];
    expect(post.public_metrics).toMatchObject({ repost_count: tweet.public_metrics.retweet_count, like_count: tweet.public_metrics.like_count });
    expect(post.public_metrics).not.toHaveProperty('retweet_count');
    expect(post.edit_history_post_ids).toEqual([post.id]);
    expect(postEra.body.data.some((entry: any) => entry.referenced_posts?.[0]?.type === 'replied_to')).toBe(true);
    // Each naming is checked against its own list, and errors are problem JSON.
    const wrongList = await get(timeline(id, 'post.fields=edit_history_tweet_ids'), bearer(token));
    expect(wrongList).toMatchObject({ status: 400, body: { title: 'Invalid Request', type: 'https://api.x.com/2/problems/invalid-request', errors: [{ parameters: { 'post.fields': ['edit_history_tweet_ids'] } }] } });
    expect(wrongList.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('counts billable reads once per post and UTC day, and reports them at /_sandbox/usage', async () => {
    const { sandbox } = context;
    const usage = async () => (await get(`${sandbox.baseUrl}/_sandbox/usage`)).body;
    const start = await usage();
    expect(start).toEqual({ youtube: { dataApiUnits: expect.any(Number), searchCalls: expect.any(Number) }, twitter: { postReads: 0, userReads: 0 } });
    const token = await connectAs(sandbox, 'twitter', 2);
    const id = sandbox.accounts.twitter[2]!.id;
    await get(timeline(id, 'max_results=50'), bearer(token));
    await get(timeline(id, 'max_results=50'), bearer(token)); // the same posts again, the same day: not billed again
    await get(context.sandbox.url('https://api.x.com/2/users/me'), bearer(token));
    expect((await usage()).twitter).toEqual({ postReads: 50, userReads: 1 });
    context.clock.advance(DAY);
    const nextDay = await get(timeline(id, 'max_results=5'), bearer(await connectAs(sandbox, 'twitter', 2)));
    expect(nextDay.status).toBe(200);
    expect((await usage()).twitter).toEqual({ postReads: 55, userReads: 1 });
  });

  it('validates max_results, sends rate-limit headers and is deterministic', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 2);
    const id = sandbox.accounts.twitter[2]!.id;
    expect((await get(timeline(id, 'max_results=4'), bearer(token))).status).toBe(400);
    expect((await get(timeline(id, 'max_results=101'), bearer(token))).status).toBe(400);
    const first = await get(timeline(id, 'max_results=20&tweet.fields=public_metrics'), bearer(token));
    expect(first.headers.get('x-rate-limit-limit')).toBe('900');
    expect(first.headers.get('x-rate-limit-remaining')).toBeTruthy();
    expect(first.headers.get('x-rate-limit-reset')).toMatch(/^\d+$/);
    const again = await get(timeline(id, 'max_results=20&tweet.fields=public_metrics'), bearer(token));
    expect(again.body).toEqual(first.body);
  });

  it('injects failures: 429 with reset headers, 401 problems, 5xx, malformed JSON', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 0);
    const url = timeline(sandbox.accounts.twitter[0]!.id, 'max_results=5');
    for (const failure of ['rate_limited', 'token_expired', 'revoked', 'server_error', 'malformed_json'] as const) sandbox.failNext('twitter', 'metrics', failure);
    const limited = await get(url, bearer(token));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-rate-limit-reset'))).toBeGreaterThan(context.clock.now().getTime() / 1000);
    expect((await get(url, bearer(token))).body).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect((await get(url, bearer(token))).status).toBe(401);
    expect((await get(url, bearer(token))).status).toBe(503);
    expect((await get(url, bearer(token))).body).toBeNull();
    expect((await get(url, bearer(token))).status).toBe(200);
  });
});

describe('X GET /2/tweets (lookup by ids)', () => {
  const lookup = (query: string) => context.sandbox.url(`https://api.x.com/2/tweets?${query}`);

  it('answers 1 to 100 ids with the fields asked for, unknown ids as per-id errors, and bills each post once a day', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 2);
    const id = sandbox.accounts.twitter[2]!.id;
    const recent = (await get(timeline(id, 'max_results=5&tweet.fields=public_metrics'), bearer(token))).body.data as { id: string; public_metrics: unknown }[];
    const usage = async () => (await get(`${sandbox.baseUrl}/_sandbox/usage`)).body.twitter.postReads as number;
    const before = await usage();
    const ids = recent.map((post) => post.id);
    const answer = await get(lookup(`ids=${[...ids, '1'].join(',')}&tweet.fields=public_metrics`), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((post: { id: string }) => post.id)).toEqual(ids);
    expect(answer.body.data[0].public_metrics).toEqual(recent[0]!.public_metrics);
    expect(answer.body.errors).toEqual([expect.objectContaining({ resource_id: '1', title: 'Not Found Error', parameter: 'ids' })]);
    // Read again the same day: billed once.
    await get(lookup(`ids=${ids.join(',')}&tweet.fields=public_metrics`), bearer(token));
    expect((await usage()) - before).toBe(0);
    context.clock.advance(DAY);
    await get(lookup(`ids=${ids.join(',')}&tweet.fields=public_metrics`), bearer(await connectAs(sandbox, 'twitter', 2)));
    expect((await usage()) - before).toBe(ids.length);
  });

  it('refuses no ids, more than 100, a malformed id, an unknown field or parameter, and no token', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 2);
    const many = Array.from({ length: 101 }, (_, index) => String(1000 + index)).join(',');
    for (const query of ['tweet.fields=public_metrics', `ids=${many}`, 'ids=12a', 'ids=1&tweet.fields=views', 'ids=1&max_results=5']) {
      const answer = await get(lookup(query), bearer(token));
      expect(answer.status, query).toBe(400);
      expect(answer.body.title).toBe('Invalid Request');
    }
    expect((await get(lookup('ids=1'), bearer('nope'))).status).toBe(401);
  });

  it("gives private metrics only on the owner's posts of the last 30 days, refusing older ones", async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'twitter', 2);
    const posts = await allPosts(token, sandbox.accounts.twitter[2]!.id, 'tweet.fields=created_at');
    const age = (post: { created_at: string }) => context.clock.now().getTime() - Date.parse(post.created_at);
    const young = posts.find((post) => age(post) < 20 * DAY)!;
    const old = posts.find((post) => age(post) > 40 * DAY)!;
    const fresh = await get(lookup(`ids=${young.id}&tweet.fields=public_metrics,non_public_metrics`), bearer(token));
    expect(fresh.status).toBe(200);
    expect(fresh.body.data[0].non_public_metrics).toEqual(expect.objectContaining({ impression_count: expect.any(Number) }));
    const stale = await get(lookup(`ids=${young.id},${old.id}&tweet.fields=non_public_metrics`), bearer(token));
    expect(stale.status).toBe(403);
    expect(stale.body.detail).toContain('last 30 days');
    // Public metrics of the same old post stay readable.
    expect((await get(lookup(`ids=${old.id}&tweet.fields=public_metrics`), bearer(token))).status).toBe(200);
  });
});
