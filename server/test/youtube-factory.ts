// Test data for the YouTube section, written straight into the tables the YouTube sync fills: a connection with its
// channel row, N videos with their numbers, daily channel metrics, traffic and demographics. Values come from the
// caller or from deterministic formulas (no random numbers).
import type { RevenueAccess } from '#contract/youtube.ts';
import type { Database } from '../db/client.ts';
import {
  accountMetrics,
  contentItems,
  platformConnections,
  youtubeChannels,
  youtubeChannelTraffic,
  youtubeDemographics,
  youtubeVideos,
  youtubeVideoTraffic,
} from '../db/schema.ts';

export interface SeedVideo {
  videoId?: string;
  title?: string;
  description?: string | null;
  publishedAt?: Date | null;
  durationSeconds?: number | null;
  thumbnailUrl?: string | null;
  views?: number | null;
  likes?: number | null;
  comments?: number | null;
  watchTimeMinutes?: number | null;
  averageViewPercentage?: number | null;
  estimatedRevenue?: number | null;
  estimatedAdRevenue?: number | null;
  cpm?: number | null;
  impressions?: number | null;
  clickThroughRate?: number | null;
  /** Stored as given (an array, or a JSON string to test normalisation). */
  retention?: unknown;
  retentionFetchedAt?: Date | null;
  earlyViews?: number[] | null;
  traffic?: { sourceType: string; views: number; watchTimeMinutes?: number | null }[];
}

export interface SeedChannel {
  userId: number;
  now: Date;
  revenueAccess?: RevenueAccess;
  title?: string;
  /** The first day of stored reach (youtube_channels.reach_reports_since). */
  reachSince?: Date;
  /** When false, no youtube_channels row (a connection that was never synced by the YouTube adapter). */
  withChannelRow?: boolean;
  isActive?: boolean;
  manual?: boolean;
  videos?: SeedVideo[];
  /** Daily channel metrics: account_metrics rows (views, watch_time_minutes, likes, comments, revenue, …). */
  daily?: { date: string; values: Record<string, number> }[];
  channelTraffic?: { date: string; sourceType: string; views: number }[];
  demographics?: { periodDays: number; demographicType: string; demographicValue: string; viewerPercentage: number }[];
}

export const testVideoId = (index: number) => `v${String(index).padStart(10, '0')}`;

let channelCounter = 0;

export async function seedYoutubeChannel(db: Database, seed: SeedChannel) {
  channelCounter += 1;
  const now = seed.now;
  const [connection] = await db
    .insert(platformConnections)
    .values({
      userId: seed.userId,
      platform: 'youtube',
      platformUserId: `UC-test-${seed.userId}-${channelCounter}`,
      displayName: seed.title ?? 'Test channel',
      isActive: seed.isActive ?? true,
      manual: seed.manual ?? false,
      connectedAt: now,
      updatedAt: now,
      lastSyncedAt: now,
    })
    .returning();
  const connectionId = connection!.id;
  if (seed.withChannelRow !== false) {
    await db.insert(youtubeChannels).values({ connectionId, channelId: `UC${connectionId}`, title: seed.title ?? 'Test channel', revenueAccess: seed.revenueAccess ?? 'available', reachReportsSince: seed.reachSince ?? null, updatedAt: now });
  }
  const videos = seed.videos ?? [];
  const ids: { id: number; videoId: string }[] = [];
  // In chunks: PostgreSQL allows at most 65,535 parameters per statement.
  for (let start = 0; start < videos.length; start += 500) {
    const chunk = videos.slice(start, start + 500);
    const items = await db
      .insert(contentItems)
      .values(
        chunk.map((video, offset) => {
          const videoId = video.videoId ?? testVideoId(start + offset);
          return {
            connectionId,
            platformContentId: videoId,
            title: video.title ?? `Video ${start + offset}`,
            description: video.description ?? null,
            publishedAt: video.publishedAt === undefined ? new Date(now.getTime() - (start + offset + 1) * 86_400_000) : video.publishedAt,
            url: `https://www.youtube.com/watch?v=${videoId}`,
          };
        }),
      )
      .returning({ id: contentItems.id, videoId: contentItems.platformContentId });
    await db.insert(youtubeVideos).values(
      chunk.map((video, offset) => ({
        contentItemId: items[offset]!.id,
        connectionId,
        videoId: items[offset]!.videoId,
        durationSeconds: video.durationSeconds ?? null,
        thumbnailUrl: video.thumbnailUrl ?? null,
        views: video.views === undefined ? 1000 : video.views,
        likes: video.likes === undefined ? 50 : video.likes,
        comments: video.comments === undefined ? 10 : video.comments,
        watchTimeMinutes: video.watchTimeMinutes ?? null,
        averageViewPercentage: video.averageViewPercentage ?? null,
        estimatedRevenue: video.estimatedRevenue ?? null,
        estimatedAdRevenue: video.estimatedAdRevenue ?? null,
        cpm: video.cpm ?? null,
        impressions: video.impressions ?? null,
        clickThroughRate: video.clickThroughRate ?? null,
        retention: video.retention ?? null,
        retentionFetchedAt: video.retentionFetchedAt ?? (video.retention !== undefined ? now : null),
        earlyViews: video.earlyViews ?? null,
        earlyViewsComplete: Boolean(video.earlyViews && video.earlyViews.length >= 28),
        statsUpdatedAt: now,
      })),
    );
    const traffic = chunk.flatMap((video, offset) =>
      (video.traffic ?? []).map((source) => ({ contentItemId: items[offset]!.id, sourceType: source.sourceType, views: source.views, watchTimeMinutes: source.watchTimeMinutes ?? null, asOf: now })),
    );
    if (traffic.length > 0) await db.insert(youtubeVideoTraffic).values(traffic);
    ids.push(...items);
  }
  const metricRows = (seed.daily ?? []).flatMap(({ date, values }) => Object.entries(values).map(([metricType, value]) => ({ connectionId, date, metricType, value })));
  for (let start = 0; start < metricRows.length; start += 2000) await db.insert(accountMetrics).values(metricRows.slice(start, start + 2000));
  if (seed.channelTraffic?.length) await db.insert(youtubeChannelTraffic).values(seed.channelTraffic.map((row) => ({ connectionId, ...row })));
  if (seed.demographics?.length) await db.insert(youtubeDemographics).values(seed.demographics.map((row) => ({ connectionId, ...row, asOf: now })));
  return { connectionId, videos: ids };
}
