// The channel and its videos from the YouTube Data API (docs/platforms/youtube.md): the channel (mine), the uploads
// playlist's pages (newest first), and videos.list in batches of 50 ids (without maxResults, which Google does not
// support beside `id`). Each list call costs one unit of the project's general quota bucket.
import { z } from 'zod';
import { buildUrl, count } from '../http-client.ts';
import { PlatformError } from '../platform-error.ts';
import type { CounterReadInput, CounterReadOutput, ProviderContext, SyncedContent } from '../provider.ts';
import { youtubeClient, type YoutubeClient } from './client.ts';
import type { YoutubeVideoStats } from './sync-types.ts';

const CHANNELS_URL = 'https://www.googleapis.com/youtube/v3/channels';
const PLAYLIST_ITEMS_URL = 'https://www.googleapis.com/youtube/v3/playlistItems';
const VIDEOS_URL = 'https://www.googleapis.com/youtube/v3/videos';
/** videos.list takes at most 50 ids per call. */
const VIDEO_BATCH = 50;

const channelBody = z.looseObject({
  items: z
    .array(
      z.looseObject({
        id: z.string(),
        snippet: z.looseObject({ title: z.string().optional(), publishedAt: z.string().optional() }).optional(),
        contentDetails: z.looseObject({ relatedPlaylists: z.looseObject({ uploads: z.string().optional() }) }).optional(),
        statistics: z.looseObject({ subscriberCount: count.optional(), hiddenSubscriberCount: z.boolean().optional() }).optional(),
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
const thumbnail = z.looseObject({ url: z.string() });
/** ISO 8601 durations as YouTube writes them: PT4M13S, PT1H2M, P1DT2H, P0D (an upcoming live stream). */
const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const videosBody = z.looseObject({
  items: z
    .array(
      z.looseObject({
        id: z.string().min(1),
        snippet: z
          .looseObject({
            title: z.string().optional(),
            description: z.string().optional(),
            publishedAt: z.string().optional(),
            thumbnails: z.looseObject({ default: thumbnail.optional(), medium: thumbnail.optional(), high: thumbnail.optional() }).optional(),
          })
          .optional(),
        contentDetails: z.looseObject({ duration: z.string().regex(ISO_DURATION).optional() }).optional(),
        statistics: z
          .looseObject({ viewCount: count.optional(), likeCount: count.optional(), commentCount: count.optional() })
          .optional(),
      }),
    )
    .optional(),
});

export function durationSeconds(iso: string | undefined): number | null {
  if (!iso) return null;
  const match = ISO_DURATION.exec(iso);
  if (!match) return null;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  return Number(days) * 86_400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}


export type Channel = NonNullable<z.infer<typeof channelBody>['items']>[number];

/** The authorized user's channel; an account without one cannot be synced. */
export async function readOwnChannel(client: YoutubeClient): Promise<Channel> {
  const channel = (await client.data(buildUrl(CHANNELS_URL, { part: 'snippet,statistics,contentDetails', mine: 'true' }), channelBody)).items?.[0];
  if (!channel) throw new PlatformError('not_found', 'youtube', 'metrics', 'This Google account has no YouTube channel');
  return channel;
}

/**
 * Video ids of the uploads playlist that are not stored yet. It is newest first: on later syncs, paging stops at the
 * first video already stored; a first sync reads it to the end.
 */
export async function listNewUploads(client: YoutubeClient, uploadsPlaylistId: string | undefined, knownIds: ReadonlySet<string>, firstSync: boolean): Promise<string[]> {
  const newIds: string[] = [];
  if (!uploadsPlaylistId) return newIds;
  let pageToken: string | undefined;
  paging: do {
    const page = await client.data(buildUrl(PLAYLIST_ITEMS_URL, { part: 'contentDetails,snippet', playlistId: uploadsPlaylistId, maxResults: '50', pageToken }), playlistBody);
    for (const item of page.items ?? []) {
      if (knownIds.has(item.contentDetails.videoId)) {
        if (!firstSync) break paging;
        continue;
      }
      newIds.push(item.contentDetails.videoId);
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
  return newIds;
}

/** The videos' snippets and counters, 50 per videos.list call: as content items, and as YouTube stats awaiting Analytics totals. */
export async function readVideos(client: YoutubeClient, ids: readonly string[]): Promise<{ content: SyncedContent[]; stats: Map<string, YoutubeVideoStats> }> {
  const content: SyncedContent[] = [];
  const stats = new Map<string, YoutubeVideoStats>();
  for (let start = 0; start < ids.length; start += VIDEO_BATCH) {
    const batch = ids.slice(start, start + VIDEO_BATCH);
    // No maxResults: it is not supported beside `id` (corrections row 25); the batch size bounds the answer.
    const videos = await client.data(buildUrl(VIDEOS_URL, { part: 'snippet,statistics,contentDetails', id: batch.join(',') }), videosBody);
    for (const video of videos.items ?? []) {
      const metrics: Partial<Record<string, number>> = {};
      if (video.statistics?.viewCount !== undefined) metrics.views = video.statistics.viewCount;
      if (video.statistics?.likeCount !== undefined) metrics.likes = video.statistics.likeCount;
      if (video.statistics?.commentCount !== undefined) metrics.comments = video.statistics.commentCount;
      const publishedAt = video.snippet?.publishedAt && !Number.isNaN(Date.parse(video.snippet.publishedAt)) ? new Date(video.snippet.publishedAt) : null;
      content.push({
        platformContentId: video.id,
        title: video.snippet?.title ?? '',
        description: video.snippet?.description ?? null,
        publishedAt,
        url: `https://www.youtube.com/watch?v=${video.id}`,
        metrics,
      });
      const thumbnails = video.snippet?.thumbnails;
      stats.set(video.id, {
        videoId: video.id,
        countersRead: true,
        durationSeconds: durationSeconds(video.contentDetails?.duration),
        thumbnailUrl: thumbnails?.medium?.url ?? thumbnails?.high?.url ?? thumbnails?.default?.url ?? null,
        views: metrics.views ?? null,
        likes: metrics.likes ?? null,
        comments: metrics.comments ?? null,
        shares: null,
        watchTimeMinutes: null,
        averageViewDurationSeconds: null,
        averageViewPercentage: null,
        subscribersGained: null,
        estimatedRevenue: null,
        estimatedAdRevenue: null,
        cpm: null,
        monetizedPlaybacks: null,
      });
    }
  }
  return { content, stats };
}

/**
 * The young-post poll's read: videos.list with only `part=statistics`, 50 ids a call, one quota unit each (the
 * cheapest way to a video's public counters: the uploads playlist and snippets are not needed again).
 */
export async function readVideoCounters(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput> {
  const client = youtubeClient(context, input.accessToken);
  const counters: CounterReadOutput['counters'] = [];
  for (let start = 0; start < input.platformContentIds.length; start += VIDEO_BATCH) {
    const batch = input.platformContentIds.slice(start, start + VIDEO_BATCH);
    const videos = await client.data(buildUrl(VIDEOS_URL, { part: 'statistics', id: batch.join(',') }), videosBody);
    for (const video of videos.items ?? []) {
      const metrics: Partial<Record<string, number>> = {};
      if (video.statistics?.viewCount !== undefined) metrics.views = video.statistics.viewCount;
      if (video.statistics?.likeCount !== undefined) metrics.likes = video.statistics.likeCount;
      if (video.statistics?.commentCount !== undefined) metrics.comments = video.statistics.commentCount;
      counters.push({ platformContentId: video.id, metrics });
    }
  }
  return { counters, usage: client.usage };
}
