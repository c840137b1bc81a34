// YouTube sync (platform-apis.md 1.3–1.5): channel → uploads playlist → playlistItems pages → videos.list in
// batches of 50 → reports.query for daily channel metrics (and estimatedRevenue when the monetary scope was
// granted, in its own call so a 403 does not cost the basic metrics).
import { z } from 'zod';
import { apiError, buildUrl, callCounter, count, parseBody, PlatformError, type PlatformResponse, type ProviderContext, retryAfterSeconds, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';

const CHANNELS_URL = 'https://www.googleapis.com/youtube/v3/channels';
const PLAYLIST_ITEMS_URL = 'https://www.googleapis.com/youtube/v3/playlistItems';
const VIDEOS_URL = 'https://www.googleapis.com/youtube/v3/videos';
const REPORTS_URL = 'https://youtubeanalytics.googleapis.com/v2/reports';
const MONETARY_SCOPE = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';
const VIDEO_BATCH = 50;

const channelBody = z.looseObject({
  items: z
    .array(
      z.looseObject({
        id: z.string(),
        contentDetails: z.looseObject({ relatedPlaylists: z.looseObject({ uploads: z.string().optional() }) }).optional(),
        statistics: z.looseObject({ subscriberCount: count.optional() }).optional(),
      }),
    )
    .optional(),
});
const playlistBody = z.looseObject({
  nextPageToken: z.string().optional(),
  items: z
    .array(z.looseObject({ contentDetails: z.looseObject({ videoId: z.string().min(1), videoPublishedAt: z.string().optional() }) }))
    .optional(),
});
const videosBody = z.looseObject({
  items: z
    .array(
      z.looseObject({
        id: z.string().min(1),
        snippet: z.looseObject({ title: z.string().optional(), description: z.string().optional(), publishedAt: z.string().optional() }).optional(),
        statistics: z
          .looseObject({ viewCount: count.optional(), likeCount: count.optional(), commentCount: count.optional() })
          .optional(),
      }),
    )
    .optional(),
});
const reportBody = z.looseObject({
  columnHeaders: z.array(z.looseObject({ name: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number()]))).optional(),
});

const googleError = z.looseObject({ error: z.looseObject({ errors: z.array(z.looseObject({ reason: z.string().optional() })).optional() }) });

/** Google reports quota and rate limits as 403 with a reason (1.5); they are waits, not failures. */
function youtubeFailure(response: PlatformResponse, operation: string): PlatformError {
  const reason = googleError.safeParse(response.body).data?.error.errors?.[0]?.reason;
  if (response.status === 403 && reason && ['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded'].includes(reason)) {
    const retryAfter = retryAfterSeconds(response) ?? (reason === 'quotaExceeded' ? 3600 : 60);
    return new PlatformError('rate_limited', 'youtube', operation, 'The platform is rate limiting us', { status: 403, errorCode: reason, retryAfterSeconds: retryAfter });
  }
  return apiError(response, 'youtube', operation, reason);
}

/** reports.query metric → our metric type. */
const DAILY_METRICS: Record<string, string> = {
  views: 'views',
  estimatedMinutesWatched: 'watch_time_minutes',
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  subscribersGained: 'subscribers_gained',
  subscribersLost: 'subscribers_lost',
};

export async function syncYouTube(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, call } = callCounter();
  const headers = { authorization: `Bearer ${input.accessToken}` };
  async function get<T>(operation: string, url: string, schema: z.ZodType<T>, units: number): Promise<T> {
    const response = await call(context, { platform: 'youtube', operation, url, headers }, units);
    if (response.status !== 200) throw youtubeFailure(response, operation);
    return parseBody(schema, response, 'youtube', operation);
  }

  const channel = (await get('metrics', buildUrl(CHANNELS_URL, { part: 'snippet,statistics,contentDetails', mine: 'true' }), channelBody, 1)).items?.[0];
  if (!channel) throw new PlatformError('not_found', 'youtube', 'metrics', 'This Google account has no YouTube channel');
  const uploads = channel.contentDetails?.relatedPlaylists.uploads;

  // The uploads playlist is newest first: on later syncs, stop at the first video already stored.
  const newIds: string[] = [];
  let pageToken: string | undefined;
  if (uploads) {
    paging: do {
      const page = await get('metrics', buildUrl(PLAYLIST_ITEMS_URL, { part: 'contentDetails,snippet', playlistId: uploads, maxResults: '50', pageToken }), playlistBody, 1);
      for (const item of page.items ?? []) {
        if (input.knownContentIds.has(item.contentDetails.videoId)) {
          if (!input.firstSync) break paging;
          continue;
        }
        newIds.push(item.contentDetails.videoId);
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
  }
  // Every stored video's counters still move: refresh them with the new ones, 50 per call.
  const ids = [...new Set([...newIds, ...input.knownContentIds])];
  const content: SyncedContent[] = [];
  for (let start = 0; start < ids.length; start += VIDEO_BATCH) {
    const batch = ids.slice(start, start + VIDEO_BATCH);
    const videos = await get('metrics', buildUrl(VIDEOS_URL, { part: 'snippet,statistics', id: batch.join(','), maxResults: '50' }), videosBody, 1);
    for (const video of videos.items ?? []) {
      const metrics: Partial<Record<string, number>> = {};
      if (video.statistics?.viewCount !== undefined) metrics.views = video.statistics.viewCount;
      if (video.statistics?.likeCount !== undefined) metrics.likes = video.statistics.likeCount;
      if (video.statistics?.commentCount !== undefined) metrics.comments = video.statistics.commentCount;
      content.push({
        platformContentId: video.id,
        title: video.snippet?.title ?? '',
        description: video.snippet?.description ?? null,
        publishedAt: video.snippet?.publishedAt ? new Date(video.snippet.publishedAt) : null,
        url: `https://www.youtube.com/watch?v=${video.id}`,
        metrics,
      });
    }
  }

  const daily: SyncOutput['daily'] = [];
  const report = async (metrics: string) =>
    get(
      'metrics',
      buildUrl(REPORTS_URL, { ids: 'channel==MINE', startDate: input.since, endDate: input.today, metrics, dimensions: 'day', sort: 'day' }),
      reportBody,
      0,
    );
  const basic = await report(Object.keys(DAILY_METRICS).join(','));
  const columns = basic.columnHeaders.map((header) => header.name);
  const dayColumn = columns.indexOf('day');
  const net = new Map<string, number>();
  for (const row of basic.rows ?? []) {
    const day = String(row[dayColumn]);
    columns.forEach((name, index) => {
      const metricType = DAILY_METRICS[name];
      const value = Number(row[index]);
      if (metricType && Number.isFinite(value)) daily.push({ date: day, metricType, value });
    });
    const gained = Number(row[columns.indexOf('subscribersGained')] ?? 0);
    const lost = Number(row[columns.indexOf('subscribersLost')] ?? 0);
    net.set(day, (Number.isFinite(gained) ? gained : 0) - (Number.isFinite(lost) ? lost : 0));
    const engagements = ['likes', 'comments', 'shares'].reduce((sum, name) => sum + (Number(row[columns.indexOf(name)]) || 0), 0);
    daily.push({ date: day, metricType: 'engagements', value: engagements });
  }

  // Subscriber totals per day, derived backwards from today's count with each later day's net change.
  const subscribers = channel.statistics?.subscriberCount;
  if (subscribers !== undefined) {
    daily.push({ date: input.today, metricType: 'subscribers', value: subscribers });
    // The count at the end of a day is today's count minus every later day's net change.
    let laterNet = 0;
    for (const day of [...net.keys()].sort().reverse()) {
      if (day < input.today) daily.push({ date: day, metricType: 'subscribers', value: subscribers - laterNet });
      laterNet += net.get(day) ?? 0;
    }
  }

  if ((input.scope ?? '').split(/[ ,]+/).includes(MONETARY_SCOPE)) {
    try {
      const revenue = await report('estimatedRevenue');
      const names = revenue.columnHeaders.map((header) => header.name);
      for (const row of revenue.rows ?? []) {
        const value = Number(row[names.indexOf('estimatedRevenue')]);
        if (Number.isFinite(value)) daily.push({ date: String(row[names.indexOf('day')]), metricType: 'revenue', value });
      }
    } catch (error) {
      // Not in the Partner Program (403): no revenue, the rest of the sync stands.
      if (!(error instanceof PlatformError && error.details.status === 403)) throw error;
    }
  }
  return { followers: subscribers, daily, content, usage };
}
