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

async function allPosts(token: string, id: string): Promise<any[]> {
  const posts: any[] = [];
  let next: string | undefined;
  do {
    const page = await get(timeline(id, `max_results=100&tweet.fields=created_at,public_metrics,non_public_metrics${next ? `&pagination_token=${next}` : ''}`), bearer(token));
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
