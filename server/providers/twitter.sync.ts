// X sync (docs/platforms/x.md): today's followers as a dated snapshot, and the user's posts (newest first,
// `meta.next_token` paging) with their public metrics. After the first sync only posts of the last 30 days are
// re-read: older counters barely move, and every post read is billed.
import { z } from 'zod';
import { apiError, buildUrl, callCounter, count, parseBody } from './http-client.ts';
import { PlatformError } from './platform-error.ts';
import { CONTENT_GROWTH_METRICS, type CounterReadInput, type CounterReadOutput, type ProviderContext, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';

const ME_URL = 'https://api.x.com/2/users/me';
const TWEETS_URL = 'https://api.x.com/2/tweets';
/** The posts lookup takes at most 100 ids. */
const LOOKUP_BATCH = 100;
const tweetsUrl = (id: string) => `https://api.x.com/2/users/${encodeURIComponent(id)}/tweets`;

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
  meta: z.looseObject({ next_token: z.string().optional() }).optional(),
});

/** X's timestamp form, `YYYY-MM-DDTHH:mm:ssZ`. */
const rfc3339Seconds = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** X calls with one token, counted; a 429 waits until the window X names resets. */
function twitterRequests(context: ProviderContext, accessToken: string) {
  const { usage, call } = callCounter();
  const headers = { authorization: `Bearer ${accessToken}` };
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await call(context, { platform: 'twitter', operation: 'metrics', url, headers });
    if (response.status !== 200) {
      const error = apiError(response, 'twitter', 'metrics');
      // X says when the window resets (epoch seconds), not how long to wait.
      const reset = Number(response.headers.get('x-rate-limit-reset'));
      if (error.kind === 'rate_limited' && error.details.retryAfterSeconds === undefined && Number.isFinite(reset) && reset > 0) {
        throw new PlatformError('rate_limited', 'twitter', 'metrics', error.message, { ...error.details, retryAfterSeconds: Math.max(1, Math.ceil(reset - context.now().getTime() / 1000)) });
      }
      throw error;
    }
    return parseBody(schema, response, 'twitter', 'metrics');
  }
  return { usage, get };
}

type PublicMetrics = NonNullable<NonNullable<z.infer<typeof tweetsBody>['data']>[number]['public_metrics']>;

/** A post's public counters under our metric names: impressions as views, reposts and quotes as shares. */
function countersOf(pm: PublicMetrics | undefined): Partial<Record<string, number>> {
  const metrics: Partial<Record<string, number>> = {};
  if (pm?.impression_count !== undefined) metrics.views = pm.impression_count;
  if (pm?.like_count !== undefined) metrics.likes = pm.like_count;
  if (pm?.reply_count !== undefined) metrics.comments = pm.reply_count;
  const reposts = pm?.retweet_count ?? pm?.repost_count;
  if (reposts !== undefined || pm?.quote_count !== undefined) metrics.shares = (reposts ?? 0) + (pm?.quote_count ?? 0);
  return metrics;
}

/**
 * The young-post poll's read: the posts lookup by ids (100 a call) with only `public_metrics`. X bills each post
 * once per UTC day however often it is read again, so hourly reads of the same posts cost what one read does.
 */
export async function readTwitterCounters(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput> {
  const { usage, get } = twitterRequests(context, input.accessToken);
  const counters: CounterReadOutput['counters'] = [];
  for (let start = 0; start < input.platformContentIds.length; start += LOOKUP_BATCH) {
    const batch = input.platformContentIds.slice(start, start + LOOKUP_BATCH);
    // A deleted post comes back in `errors` (a 200), and is simply not in `data`.
    const page = await get(buildUrl(TWEETS_URL, { ids: batch.join(','), 'tweet.fields': 'public_metrics' }), tweetsBody);
    for (const tweet of page.data ?? []) counters.push({ platformContentId: tweet.id, metrics: countersOf(tweet.public_metrics) });
  }
  return { counters, usage };
}

export async function syncTwitter(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, get } = twitterRequests(context, input.accessToken);
  const me = await get(buildUrl(ME_URL, { 'user.fields': 'public_metrics' }), meBody);
  const followers = me.data.public_metrics?.followers_count;
  const daily: SyncOutput['daily'] = [];
  if (followers !== undefined) daily.push({ date: input.today, metricType: 'followers', value: followers });

  const content: SyncedContent[] = [];
  let paginationToken: string | undefined;
  paging: do {
    const page = await get(
      buildUrl(tweetsUrl(me.data.id), {
        max_results: '100',
        // Not exclude=replies: with it X stops at the newest 800 posts instead of 3,200 (docs/platforms/x.md#timeline).
        // Replies are dropped below instead.
        exclude: 'retweets',
        'tweet.fields': 'created_at,public_metrics,referenced_tweets',
        // After the first sync, only the posts of the window are asked for: X bills every post it returns, so a
        // page that runs past the window would pay for posts we do not re-read.
        start_time: input.firstSync ? undefined : rfc3339Seconds(input.contentSince),
        pagination_token: paginationToken,
      }),
      tweetsBody,
    );
    for (const tweet of page.data ?? []) {
      const publishedAt = tweet.created_at ? new Date(tweet.created_at) : null;
      if ([...(tweet.referenced_tweets ?? []), ...(tweet.referenced_posts ?? [])].some((reference) => reference.type === 'replied_to')) continue;
      if (!input.firstSync && publishedAt && publishedAt < input.contentSince && input.knownContentIds.has(tweet.id)) break paging;
      const metrics = countersOf(tweet.public_metrics);
      content.push({
        platformContentId: tweet.id,
        title: tweet.text.split('\n')[0]!.slice(0, 120),
        description: tweet.text,
        publishedAt,
        url: `https://x.com/i/web/status/${tweet.id}`,
        metrics,
      });
    }
    paginationToken = page.meta?.next_token;
  } while (paginationToken);
  // No daily views or engagements exist at X: the sync engine derives them from the growth of these counters
  // since the previous reading, and a post's first reading on its publish day (migration 0024).
  return { followers, daily, content, dailyFromContentGrowth: CONTENT_GROWTH_METRICS, usage };
}
