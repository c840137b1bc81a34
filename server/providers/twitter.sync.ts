// X sync (docs/platforms/x.md): today's followers as a dated snapshot, and the user's posts (newest first,
// `meta.next_token` paging) with their public metrics. X bills every post it returns (corrections rows 10–13), so a
// post is read when it is new (the first sync: the last 90 days; later syncs: only posts newer than the newest we
// hold, `since_id`) and then only at fixed ages by the young-post poll (X_READ_AGES_HOURS), never re-read by a sync.
// `impression_count` is stored as impressions, never as views (corrections row 9): X's only views are a video's
// `view_count`, on the media object of the `attachments.media_keys` expansion.
import { z } from 'zod';
import { platformFailure } from './failure-rule.ts';
import { buildUrl, callCounter, count, parseBody } from './http-client.ts';
import { PlatformError } from './platform-error.ts';
import { type CounterReadInput, type CounterReadOutput, type ProviderContext, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';
import { syncParts } from './sync-parts.ts';

const ME_URL = 'https://api.x.com/2/users/me';
const TWEETS_URL = 'https://api.x.com/2/tweets';
/** The posts lookup takes at most 100 ids. */
const LOOKUP_BATCH = 100;
const tweetsUrl = (id: string) => `https://api.x.com/2/users/${encodeURIComponent(id)}/tweets`;
/** How far back the first sync reads posts: every post returned is billed, and older history is rarely looked at. */
export const X_FIRST_SYNC_POST_DAYS = 90;
/**
 * The ages (hours after publication) at which the young-post poll reads a post again: its 24-hour, 7-day and 28-day
 * counts (the benchmark's ages). One read each, since each is a billed post read.
 */
export const X_READ_AGES_HOURS = [24, 7 * 24, 28 * 24] as const;
/**
 * X's published pay-per-use prices in USD per resource returned (corrections row 10, docs.x.com pricing page): a post
 * read and a user read. Owned-read pricing is only for the app owner's own account (row 11), never a creator's.
 */
export const X_READ_PRICES_USD = { post: 0.005, user: 0.01 } as const;
const DAY_MS = 86_400_000;
/** What the posts read: counters, the time, and the media keys whose video views are the post's views. */
const POST_FIELDS = 'created_at,public_metrics,referenced_tweets,attachments';
const MEDIA_EXPANSION = { expansions: 'attachments.media_keys', 'media.fields': 'type,public_metrics' } as const;

const meBody = z.looseObject({ data: z.looseObject({ id: z.string(), public_metrics: z.looseObject({ followers_count: count.optional() }).optional() }) });
const tweetsBody = z.looseObject({
  data: z
    .array(
      z.looseObject({
        id: z.string().min(1),
        text: z.string(),
        created_at: z.string().optional(),
        referenced_tweets: z.array(z.looseObject({ type: z.string(), id: z.string() })).optional(),
        referenced_posts: z.array(z.looseObject({ type: z.string(), id: z.string() })).optional(),
        attachments: z.looseObject({ media_keys: z.array(z.string()).optional() }).optional(),
        public_metrics: z
          .looseObject({
            retweet_count: count.optional(),
            // X's post-era name (OpenAPI v2.167) for the same counter (docs/decisions/010-x-field-naming.md).
            repost_count: count.optional(),
            reply_count: count.optional(),
            like_count: count.optional(),
            quote_count: count.optional(),
            impression_count: count.optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  includes: z
    .looseObject({
      media: z
        .array(z.looseObject({ media_key: z.string(), type: z.string().optional(), public_metrics: z.looseObject({ view_count: count.optional() }).optional() }))
        .optional(),
    })
    .optional(),
  meta: z.looseObject({ next_token: z.string().optional() }).optional(),
});
type TweetsBody = z.infer<typeof tweetsBody>;

/** X's lifetime counters whose growth gives the account's daily figures: impressions in place of views. */
export const X_CONTENT_GROWTH_METRICS = ['impressions', 'views', 'likes', 'comments', 'shares'] as const;

/** X's timestamp form, `YYYY-MM-DDTHH:mm:ssZ`. */
const rfc3339Seconds = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** X calls with one token, counted; a refusal is read by the failure rule (a 429 waits until the window X names resets). */
function twitterRequests(context: ProviderContext, accessToken: string) {
  const { usage: calls, call } = callCounter();
  const usage: SyncOutput['usage'] = calls;
  const headers = { authorization: `Bearer ${accessToken}` };
  /** What X bills for this answer (corrections row 10): each post, each user returned. */
  function bill(posts: number, users: number) {
    usage.billedReads = (usage.billedReads ?? 0) + posts + users;
    usage.spendUsd = (usage.spendUsd ?? 0) + posts * X_READ_PRICES_USD.post + users * X_READ_PRICES_USD.user;
  }
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await call(context, { platform: 'twitter', operation: 'metrics', url, headers });
    if (response.status !== 200) throw platformFailure('twitter', 'metrics', response);
    return parseBody(schema, response, 'twitter', 'metrics');
  }
  return { usage, get, bill };
}

type Tweet = NonNullable<TweetsBody['data']>[number];

/** The video views of each media key in the answer: X reports views for videos only (corrections row 9). */
function videoViewsOf(body: TweetsBody): Map<string, number> {
  const views = new Map<string, number>();
  for (const media of body.includes?.media ?? []) {
    const viewCount = media.public_metrics?.view_count;
    if (viewCount !== undefined && (media.type === undefined || media.type === 'video' || media.type === 'animated_gif')) views.set(media.media_key, viewCount);
  }
  return views;
}

/**
 * A post's public counters under our metric names: impressions as impressions, reposts and quotes as shares, and
 * views only where the post carries a video with a view count (the sum over its videos); no views otherwise.
 */
export function countersOf(tweet: Pick<Tweet, 'public_metrics' | 'attachments'>, videoViews: ReadonlyMap<string, number>): Partial<Record<string, number>> {
  const pm = tweet.public_metrics;
  const metrics: Partial<Record<string, number>> = {};
  if (pm?.impression_count !== undefined) metrics.impressions = pm.impression_count;
  const views = (tweet.attachments?.media_keys ?? []).flatMap((key) => (videoViews.has(key) ? [videoViews.get(key)!] : []));
  if (views.length > 0) metrics.views = views.reduce((sum, value) => sum + value, 0);
  if (pm?.like_count !== undefined) metrics.likes = pm.like_count;
  if (pm?.reply_count !== undefined) metrics.comments = pm.reply_count;
  const reposts = pm?.retweet_count ?? pm?.repost_count;
  if (reposts !== undefined || pm?.quote_count !== undefined) metrics.shares = (reposts ?? 0) + (pm?.quote_count ?? 0);
  return metrics;
}

/**
 * The young-post poll's read: the posts lookup by ids (100 a call) with `public_metrics` and the video views of their
 * media. The poll asks only for the posts that reached one of X_READ_AGES_HOURS: each post returned is billed.
 */
export async function readTwitterCounters(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput> {
  const { usage, get, bill } = twitterRequests(context, input.accessToken);
  const counters: CounterReadOutput['counters'] = [];
  for (let start = 0; start < input.platformContentIds.length; start += LOOKUP_BATCH) {
    const batch = input.platformContentIds.slice(start, start + LOOKUP_BATCH);
    // A deleted post comes back in `errors` (a 200), and is simply not in `data`.
    const page = await get(buildUrl(TWEETS_URL, { ids: batch.join(','), 'tweet.fields': 'public_metrics,attachments', ...MEDIA_EXPANSION }), tweetsBody);
    bill(page.data?.length ?? 0, 0);
    const videoViews = videoViewsOf(page);
    for (const tweet of page.data ?? []) counters.push({ platformContentId: tweet.id, metrics: countersOf(tweet, videoViews) });
  }
  return { counters, usage };
}

/** The newest of the post ids we hold (X's ids grow with time), for `since_id`; undefined when none is numeric. */
export function newestPostId(ids: Iterable<string>): string | undefined {
  return extremePostId(ids, (a, b) => a > b);
}

/** The oldest of the post ids we hold, for `until_id`; undefined when none is numeric. */
function oldestPostId(ids: Iterable<string>): string | undefined {
  return extremePostId(ids, (a, b) => a < b);
}

function extremePostId(ids: Iterable<string>, beats: (a: bigint, b: bigint) => boolean): string | undefined {
  let found: bigint | undefined;
  for (const id of ids) {
    if (!/^\d{1,19}$/.test(id)) continue;
    const value = BigInt(id);
    if (found === undefined || beats(value, found)) found = value;
  }
  return found?.toString();
}

export async function syncTwitter(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, get, bill } = twitterRequests(context, input.accessToken);
  const parts = syncParts(context);
  const me = await parts.read('profile', () => get(buildUrl(ME_URL, { 'user.fields': 'public_metrics' }), meBody));
  if (me) bill(0, 1);
  const followers = me?.data.public_metrics?.followers_count;
  const daily: SyncOutput['daily'] = [];
  if (followers !== undefined) daily.push({ date: input.today, metricType: 'followers', value: followers });

  const content: SyncedContent[] = [];
  /** Pages of the user's posts until X has no more, or a page fails (the `posts` part is then missing). */
  async function readPosts(window: { start_time?: string | undefined; since_id?: string | undefined; until_id?: string | undefined }) {
    let paginationToken: string | undefined;
    do {
      const token = paginationToken;
      const page = await parts.read('posts', () =>
        get(
          buildUrl(tweetsUrl(me?.data.id ?? input.platformUserId), {
            max_results: '100',
            // Replies are left out at the request, so they are never billed (corrections row 13, §4.4). With
            // exclude=replies X reaches only the newest 800 posts, which a 90-day window of new posts stays within.
            exclude: 'replies,retweets',
            'tweet.fields': POST_FIELDS,
            ...MEDIA_EXPANSION,
            ...window,
            pagination_token: token,
          }),
          tweetsBody,
        ),
      );
      if (!page) return;
      bill(page.data?.length ?? 0, 0);
      const videoViews = videoViewsOf(page);
      for (const tweet of page.data ?? []) {
        const publishedAt = tweet.created_at ? new Date(tweet.created_at) : null;
        // Should X ever answer a reply despite exclude=replies, it is not one of the creator's posts.
        if ([...(tweet.referenced_tweets ?? []), ...(tweet.referenced_posts ?? [])].some((reference) => reference.type === 'replied_to')) continue;
        content.push({
          platformContentId: tweet.id,
          title: tweet.text.split('\n')[0]!.slice(0, 120),
          description: tweet.text,
          publishedAt,
          url: `https://x.com/i/web/status/${tweet.id}`,
          metrics: countersOf(tweet, videoViews),
        });
      }
      paginationToken = page.meta?.next_token;
    } while (paginationToken);
  }
  // New posts only: after the first sync, those newer than the newest we hold; the first sync (or one that holds no
  // post yet) reads the last 90 days. Older posts are read again only at their fixed ages, by id.
  const sinceId = input.firstSync ? undefined : newestPostId(input.knownContentIds);
  const firstSyncStart = rfc3339Seconds(new Date(context.now().getTime() - X_FIRST_SYNC_POST_DAYS * DAY_MS));
  await readPosts(sinceId === undefined ? { start_time: firstSyncStart } : { since_id: sinceId });
  // The list broke off last time (newest first): the posts older than the oldest we hold, within the first sync's
  // days, so no post already held is billed again.
  const oldestHeld = oldestPostId(input.knownContentIds);
  if (sinceId !== undefined && oldestHeld !== undefined && (input.retryParts ?? []).some((entry) => entry.part === 'posts')) await readPosts({ start_time: firstSyncStart, until_id: oldestHeld });
  parts.throwIfNothingRead();
  // No daily views or engagements exist at X: the sync engine derives them from the growth of these counters
  // since the previous reading, and a post's first reading on its publish day (migration 0024). A list that broke
  // off would give a smaller day: nothing is derived until the next run reads the rest.
  const derive = parts.missing.some((entry) => entry.part === 'posts') ? {} : { dailyFromContentGrowth: X_CONTENT_GROWTH_METRICS };
  return { followers, daily, content, ...derive, usage, ...(parts.missing.length > 0 ? { missingParts: parts.missing } : {}) };
}
