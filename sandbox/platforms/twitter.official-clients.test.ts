// X's official TypeScript client (@xdevplatform/xdk, generated from X's OpenAPI document) and the most used
// community client (twitter-api-v2) against the X sandbox: a check we did not write ourselves that the sandbox
// accepts the requests they send (post-era `post.fields` and expansions from the xdk, tweet-era names from
// twitter-api-v2) and answers in shapes they read: users/me, timeline paging with metrics, a 429.
import { Agent } from 'node:http';
import { ApiError, Client } from '@xdevplatform/xdk';
import { ApiResponseError, TwitterApi, TwitterApiv2 } from 'twitter-api-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
let accessToken: string;
let userId: string;

beforeAll(async () => {
  context = await startTestSandbox();
  accessToken = await connectAs(context.sandbox, 'twitter', 1);
  userId = context.sandbox.accounts.twitter[1]!.id;
});

afterAll(async () => {
  await context.close();
});

/** The xdk as an app would build it, with its base URL (no trailing slash) pointed at the sandbox's api.x.com. */
const xdk = () => new Client({ accessToken, baseUrl: context.sandbox.url('https://api.x.com').replace(/\/$/, ''), retry: false });

/**
 * twitter-api-v2's v2 client with its prefix pointed at the sandbox's api.x.com/2/. (The library's own
 * `cloneWithPrefix` calls a class constructor without `new` and throws, so the prefix is set by a subclass; it
 * sends through node:https, which takes the sandbox's plain-HTTP address only with an http agent.)
 */
class SandboxedTwitterApiV2 extends TwitterApiv2 {
  constructor(token: string, prefix: string) {
    super(new TwitterApi(token, { httpAgent: new Agent() }));
    this.setPrefix(prefix);
  }
}
const twitterApiV2 = () => new SandboxedTwitterApiV2(accessToken, context.sandbox.url('https://api.x.com/2/'));

describe('@xdevplatform/xdk', () => {
  it('reads users/me with public metrics', async () => {
    const me = await xdk().users.getMe({ userFields: ['public_metrics', 'created_at', 'profile_image_url'] });
    const demo = context.sandbox.accounts.twitter[1]!;
    // The xdk hands answers back with camelCased keys.
    expect(me.data).toMatchObject({ id: userId, username: demo.username, publicMetrics: { followersCount: expect.any(Number), tweetCount: expect.any(Number) } });
    expect(me.errors).toBeUndefined();
  });

  it('pages the timeline with post.fields and post-era expansions, with metrics on every post', async () => {
    const client = xdk();
    const ids: string[] = [];
    let paginationToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.users.getPosts(userId, { maxResults: 100, paginationToken, postFields: ['created_at', 'public_metrics'], expansions: ['referenced_posts'] });
      pages += 1;
      expect(page.meta?.resultCount).toBe(page.data?.length ?? 0);
      for (const post of page.data ?? []) {
        expect(post).toMatchObject({ id: expect.any(String), text: expect.any(String), createdAt: expect.any(String), publicMetrics: { repostCount: expect.any(Number), likeCount: expect.any(Number), replyCount: expect.any(Number) } });
        ids.push(post.id!);
      }
      paginationToken = page.meta?.nextToken;
    } while (paginationToken && pages < 50);
    expect(paginationToken).toBeUndefined();
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('surfaces a 429 as an ApiError with X’s rate-limit headers', async () => {
    context.sandbox.failNext('twitter', 'metrics', 'rate_limited');
    const failure = await xdk()
      .users.getPosts(userId, { maxResults: 5 })
      .then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(429);
    expect(error.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(error.headers.get('x-rate-limit-reset'))).toBeGreaterThan(context.clock.now().getTime() / 1000);
  });
});

describe('twitter-api-v2', () => {
  it('reads users/me', async () => {
    const me = await twitterApiV2().me({ 'user.fields': ['public_metrics'] });
    expect(me.data).toMatchObject({ id: userId, public_metrics: { followers_count: expect.any(Number) } });
  });

  it('pages the timeline with its paginator, tweet-era names, metrics on every post', async () => {
    const timeline = await twitterApiV2().userTimeline(userId, { max_results: 100, 'tweet.fields': ['created_at', 'public_metrics'], exclude: ['retweets'] });
    await timeline.fetchLast(5000);
    expect(timeline.done).toBe(true);
    const tweets = timeline.tweets;
    expect(tweets.length).toBeGreaterThan(100);
    expect(new Set(tweets.map((tweet) => tweet.id)).size).toBe(tweets.length);
    for (const tweet of tweets) expect(tweet.public_metrics).toMatchObject({ retweet_count: expect.any(Number), like_count: expect.any(Number) });
    expect(timeline.rateLimit).toMatchObject({ limit: 900, remaining: expect.any(Number), reset: expect.any(Number) });
  });

  it('reports a 429 as a rate-limit error with the reset time', async () => {
    context.sandbox.failNext('twitter', 'metrics', 'rate_limited');
    const failure = await twitterApiV2()
      .userTimeline(userId, { max_results: 5 })
      .then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiResponseError);
    const error = failure as ApiResponseError;
    expect(error.code).toBe(429);
    expect(error.rateLimitError).toBe(true);
    expect(error.rateLimit).toMatchObject({ remaining: 0, reset: expect.any(Number) });
    expect(error.data).toMatchObject({ title: 'Too Many Requests' });
  });
});
