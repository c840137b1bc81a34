// The X wire rules the adapter's cost strategy and metric names rest on, each with its source
// (../shared/platform-apis-corrections.md "Rules the imitation must enforce", §4; docs.x.com).
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

const api = (path: string) => context.sandbox.url(`https://api.x.com${path}`);

describe('X rules', () => {
  // Rule 15 (corrections row 9; docs.x.com/x-api/fundamentals/metrics): impression_count is impressions, and the only
  // views are a video's `view_count` on its media object, reached through the attachments.media_keys expansion.
  it('rule 15: posts carry impressions only; views only on video media in includes.media', async () => {
    const token = await connectAs(context.sandbox, 'twitter', 1);
    const id = context.sandbox.accounts.twitter[1]!.id;
    const page = await get(api(`/2/users/${id}/tweets?max_results=100&tweet.fields=public_metrics,attachments&expansions=attachments.media_keys&media.fields=type,public_metrics`), bearer(token));
    expect(page.status).toBe(200);
    const posts = page.body.data as { id: string; public_metrics: Record<string, number>; attachments?: { media_keys: string[] } }[];
    for (const post of posts) {
      expect(post.public_metrics.impression_count).toEqual(expect.any(Number));
      expect(Object.keys(post.public_metrics).filter((key) => key.includes('view'))).toEqual([]);
    }
    const withMedia = posts.filter((post) => post.attachments);
    expect(withMedia.length).toBeGreaterThan(0);
    expect(withMedia.length).toBeLessThan(posts.length);
    const media = page.body.includes.media as { media_key: string; type: string; public_metrics: { view_count: number } }[];
    expect(media.map((entry) => entry.media_key).sort()).toEqual(withMedia.flatMap((post) => post.attachments!.media_keys).sort());
    for (const entry of media) {
      expect(entry.type).toBe('video');
      expect(entry.public_metrics.view_count).toEqual(expect.any(Number));
    }
    // Without the expansion, no includes; an unknown media field is refused.
    const plain = await get(api(`/2/users/${id}/tweets?max_results=5&tweet.fields=public_metrics`), bearer(token));
    expect(plain.body.includes).toBeUndefined();
    const bad = await get(api(`/2/tweets?ids=${posts[0]!.id}&expansions=attachments.media_keys&media.fields=view_count`), bearer(token));
    expect(bad.status).toBe(400);
    // The lookup by ids answers the same media.
    const ids = withMedia.slice(0, 3).map((post) => post.id);
    const lookup = await get(api(`/2/tweets?ids=${ids.join(',')}&tweet.fields=public_metrics,attachments&expansions=attachments.media_keys&media.fields=public_metrics`), bearer(token));
    expect(lookup.status).toBe(200);
    expect(lookup.body.includes.media).toHaveLength(3);
  });

  // Rule 13 (corrections row 10; docs.x.com pricing and post-cap pages): each distinct post returned is billed once
  // per UTC day, replies included; with exclude=replies the replies are never returned, so never billed.
  it('rule 13: exclude=replies bills no reply; since_id answers only newer posts, billed once a UTC day', async () => {
    const { sandbox } = context;
    const usage = async () => ((await get(`${sandbox.baseUrl}/_sandbox/usage`)).body as { twitter: { postReads: number } }).twitter.postReads;
    const token = await connectAs(sandbox, 'twitter', 2);
    const id = sandbox.accounts.twitter[2]!.id;
    const before = await usage();
    const all = await get(api(`/2/users/${id}/tweets?max_results=100&tweet.fields=referenced_tweets`), bearer(token));
    const withoutReplies = await get(api(`/2/users/${id}/tweets?max_results=100&exclude=replies,retweets&tweet.fields=referenced_tweets`), bearer(token));
    const replies = (all.body.data as { referenced_tweets?: { type: string }[] }[]).filter((post) => post.referenced_tweets?.some((ref) => ref.type === 'replied_to'));
    expect(replies.length).toBeGreaterThan(0);
    expect((withoutReplies.body.data as { referenced_tweets?: unknown }[]).every((post) => post.referenced_tweets === undefined)).toBe(true);
    // Each distinct post once: those of both answers are billed once (the same UTC day).
    const distinct = new Set([...all.body.data, ...withoutReplies.body.data].map((post: { id: string }) => post.id));
    expect(distinct.size).toBeLessThan(all.body.data.length + withoutReplies.body.data.length);
    expect((await usage()) - before).toBe(distinct.size);

    // since_id (docs.x.com timelines: "results with a Post ID greater than the specified ID"): a day later, only
    // the posts published since.
    const newest = withoutReplies.body.data[0].id as string;
    context.clock.advance(3 * DAY);
    const fresh = await get(api(`/2/users/${id}/tweets?max_results=100&exclude=replies,retweets&since_id=${newest}`), bearer(await connectAs(sandbox, 'twitter', 2)));
    expect(fresh.status).toBe(200);
    for (const post of fresh.body.data ?? []) expect(BigInt(post.id) > BigInt(newest)).toBe(true);
  });
});
