// TikTok sync (docs/platforms/tiktok.md): lifetime counters only. Each sync stores today's follower count and
// every video's counters as a dated snapshot, so the history grows from the day of connection.
import { z } from 'zod';
import { platformFailure } from './failure-rule.ts';
import { buildUrl, callCounter, count, parseBody } from './http-client.ts';
import { syncParts } from './sync-parts.ts';
import { CONTENT_GROWTH_METRICS, type CounterReadInput, type CounterReadOutput, hasScope, type ProviderContext, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';

const USER_INFO_URL = 'https://open.tiktokapis.com/v2/user/info/';
const VIDEO_LIST_URL = 'https://open.tiktokapis.com/v2/video/list/';
const VIDEO_QUERY_URL = 'https://open.tiktokapis.com/v2/video/query/';
const VIDEO_FIELDS = 'id,title,video_description,create_time,share_url,like_count,comment_count,share_count,view_count';
const COUNTER_FIELDS = 'id,like_count,comment_count,share_count,view_count';
/** video/query takes at most 20 ids. */
const QUERY_BATCH = 20;

const errorEnvelope = z.looseObject({ error: z.looseObject({ code: z.string() }) });
const userBody = z.looseObject({
  data: z.looseObject({ user: z.looseObject({ follower_count: count.optional(), likes_count: count.optional() }) }),
});
const videosBody = z.looseObject({
  data: z.looseObject({
    videos: z
      .array(
        z.looseObject({
          id: z.string().min(1),
          title: z.string().optional(),
          video_description: z.string().optional(),
          create_time: z.number().optional(),
          share_url: z.string().optional(),
          like_count: count.optional(),
          comment_count: count.optional(),
          share_count: count.optional(),
          view_count: count.optional(),
        }),
      )
      .optional(),
    cursor: z.number().optional(),
    has_more: z.boolean().optional(),
  }),
});

/** TikTok calls with one token, counted; an error envelope (even on a 200) is the platform's refusal. */
function tiktokRequests(context: ProviderContext, accessToken: string) {
  const { usage, call } = callCounter();
  const headers = { authorization: `Bearer ${accessToken}` };
  async function request<T>(url: string, schema: z.ZodType<T>, json?: unknown): Promise<T> {
    const response = await call(context, { platform: 'tiktok', operation: 'metrics', method: json ? 'POST' : 'GET', url, headers, json });
    const code = errorEnvelope.safeParse(response.body).data?.error.code;
    if (response.status !== 200 || (code !== undefined && code !== 'ok')) throw platformFailure('tiktok', 'metrics', response);
    return parseBody(schema, response, 'tiktok', 'metrics');
  }
  return { usage, request };
}

/** A video's lifetime counters under our metric names (a counter TikTok did not send is absent). */
function countersOf(video: NonNullable<z.infer<typeof videosBody>['data']['videos']>[number]): Partial<Record<string, number>> {
  const metrics: Partial<Record<string, number>> = {};
  if (video.view_count !== undefined) metrics.views = video.view_count;
  if (video.like_count !== undefined) metrics.likes = video.like_count;
  if (video.comment_count !== undefined) metrics.comments = video.comment_count;
  if (video.share_count !== undefined) metrics.shares = video.share_count;
  return metrics;
}

/** The young-post poll's read: POST /v2/video/query/ with only the counters, 20 ids a call (its limit). */
export async function readTikTokCounters(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput> {
  const { usage, request } = tiktokRequests(context, input.accessToken);
  const counters: CounterReadOutput['counters'] = [];
  // Without video.list the videos cannot be read at all (and the sync stored none).
  if (!hasScope(input.scope, 'video.list')) return { counters, usage };
  for (let start = 0; start < input.platformContentIds.length; start += QUERY_BATCH) {
    const batch = input.platformContentIds.slice(start, start + QUERY_BATCH);
    const page = await request(buildUrl(VIDEO_QUERY_URL, { fields: COUNTER_FIELDS }), videosBody, { filters: { video_ids: batch } });
    for (const video of page.data.videos ?? []) counters.push({ platformContentId: video.id, metrics: countersOf(video) });
  }
  return { counters, usage };
}

export async function syncTikTok(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, request } = tiktokRequests(context, input.accessToken);
  const parts = syncParts(context);

  // The user may have unticked user.info.stats or video.list at consent: read only what was granted (asking
  // outside the grant answers scope_not_authorized), and store nothing for the rest rather than a zero.
  const daily: SyncOutput['daily'] = [];
  let followers: number | undefined;
  if (hasScope(input.scope, 'user.info.stats')) {
    const user = await parts.read('profile', () => request(buildUrl(USER_INFO_URL, { fields: 'open_id,follower_count' }), userBody));
    followers = user?.data.user.follower_count;
    if (followers !== undefined) daily.push({ date: input.today, metricType: 'followers', value: followers });
  }
  const content: SyncedContent[] = [];
  // Every sync reads the whole list (TikTok's counters are lifetime counters, read as today's snapshot): a list that
  // broke off is read whole again next time.
  let cursor: number | undefined;
  while (hasScope(input.scope, 'video.list')) {
    const after = cursor;
    const page = await parts.read('posts', () => request(buildUrl(VIDEO_LIST_URL, { fields: VIDEO_FIELDS }), videosBody, { max_count: 20, ...(after !== undefined ? { cursor: after } : {}) }));
    if (!page) break;
    for (const video of page.data.videos ?? []) {
      const metrics = countersOf(video);
      const description = video.video_description ?? null;
      content.push({
        platformContentId: video.id,
        title: video.title || description?.slice(0, 120) || `TikTok video ${video.id}`,
        description,
        publishedAt: video.create_time !== undefined ? new Date(video.create_time * 1000) : null,
        url: video.share_url ?? null,
        metrics,
      });
    }
    if (!page.data.has_more || page.data.cursor === undefined || page.data.cursor === cursor) break;
    cursor = page.data.cursor;
  }
  parts.throwIfNothingRead();
  const missing = parts.missing.length > 0 ? { missingParts: parts.missing } : {};
  if (!hasScope(input.scope, 'video.list')) return { ...(followers !== undefined ? { followers } : {}), daily, content: [], usage, ...missing };
  // No daily views or engagements exist at TikTok: the sync engine derives them from the growth of these counters
  // since the previous reading, and a post's first reading on its publish day (migration 0024). A list that broke
  // off would give a smaller day: nothing is derived until the next run reads it whole.
  const derive = parts.missing.some((entry) => entry.part === 'posts') ? {} : { dailyFromContentGrowth: CONTENT_GROWTH_METRICS };
  return { ...(followers !== undefined ? { followers } : {}), daily, content, ...derive, usage, ...missing };
}
