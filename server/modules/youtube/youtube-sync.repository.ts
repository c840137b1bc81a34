// Writes of the YouTube tables (server/db/schema/youtube.ts), in the sync's transaction, and the reads the sync
// needs. Every write is an idempotent upsert or a replace of one slice (a period's demographics, a
// video's traffic sources, a day's reach), so re-running a sync with the same output stores the same rows. A video's
// reach totals (impressions, click-through rate) are recomputed from its stored days after every read of reach
// reports, so a restated day replaces what it restates instead of adding to it; the read mark
// (reach_reports_created_through) is stored in the same transaction.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { RetentionPoint } from '#contract/youtube.ts';
import { chunks, insertRows } from '../../db/bulk-insert.ts';
import type { Database, Executor } from '../../db/client.ts';
import { contentItems, youtubeChannels, youtubeChannelTraffic, youtubeDemographics, youtubeVideoReach, youtubeVideos, youtubeVideoTraffic } from '../../db/schema.ts';
import type { KnownVideo, TrafficSourceViews, YoutubeSyncExtras, YoutubeSyncState } from '../../providers/youtube/sync-types.ts';
import type { SyncExtension } from '../sync/sync-extension.ts';

async function executeInsert(tx: Executor, insert: SQL | undefined): Promise<void> {
  if (insert) await tx.execute(insert);
}

/** What the adapter needs to know before a sync: the reach job and read mark, fresh retention curves, complete early-view curves. */
export async function loadYoutubeSyncState(db: Executor, connectionId: number): Promise<YoutubeSyncState> {
  const [channel] = await db
    .select({ reachJobId: youtubeChannels.reachJobId, reachReportsCreatedThrough: youtubeChannels.reachReportsCreatedThrough })
    .from(youtubeChannels)
    .where(eq(youtubeChannels.connectionId, connectionId));
  const videos = await db
    .select({
      videoId: youtubeVideos.videoId,
      retentionFetchedAt: youtubeVideos.retentionFetchedAt,
      earlyViewsComplete: youtubeVideos.earlyViewsComplete,
      views: youtubeVideos.views,
      countersReadAt: youtubeVideos.statsUpdatedAt,
      publishedAt: contentItems.publishedAt,
    })
    .from(youtubeVideos)
    .innerJoin(contentItems, eq(contentItems.id, youtubeVideos.contentItemId))
    .where(eq(youtubeVideos.connectionId, connectionId));
  const retentionFetchedAt = new Map<string, Date>();
  const earlyViewsComplete = new Set<string>();
  const known = new Map<string, KnownVideo>();
  for (const video of videos) {
    if (video.retentionFetchedAt) retentionFetchedAt.set(video.videoId, video.retentionFetchedAt);
    if (video.earlyViewsComplete) earlyViewsComplete.add(video.videoId);
    known.set(video.videoId, { publishedAt: video.publishedAt, views: video.views, countersReadAt: video.countersReadAt });
  }
  return { reachJobId: channel?.reachJobId ?? null, reachReportsCreatedThrough: channel?.reachReportsCreatedThrough ?? null, retentionFetchedAt, earlyViewsComplete, known };
}

/**
 * Stores a sync's YouTube extras. `contentIdOf` maps YouTube video ids to the content items the same transaction
 * just upserted; videos without one (gone from YouTube) are skipped.
 */
export async function storeYoutubeSync(tx: Executor, connectionId: number, extras: YoutubeSyncExtras, contentIdOf: ReadonlyMap<string, number>, now: Date): Promise<void> {
  await tx
    .insert(youtubeChannels)
    .values({ connectionId, channelId: extras.channelId, title: extras.title, revenueAccess: extras.revenueAccess, reachJobId: extras.reach.jobId, reachReportsCreatedThrough: extras.reach.reportsCreatedThrough, updatedAt: now })
    .onConflictDoUpdate({
      target: youtubeChannels.connectionId,
      set: {
        channelId: sql`excluded.channel_id`,
        title: sql`excluded.title`,
        revenueAccess: sql`excluded.revenue_access`,
        reachJobId: sql`excluded.reach_job_id`,
        reachReportsCreatedThrough: sql`excluded.reach_reports_created_through`,
        updatedAt: sql`excluded.updated_at`,
      },
    });

  const retentionOf = new Map(extras.retention.map((entry) => [entry.videoId, entry.points]));
  const earlyOf = new Map(extras.earlyViews.map((entry) => [entry.videoId, entry]));
  // Videos whose counters were not read this run are not among the run's content items: look theirs up.
  const unlisted = extras.videos.filter((video) => !contentIdOf.has(video.videoId)).map((video) => video.videoId);
  const itemIds = new Map(contentIdOf);
  for (const batch of chunks(unlisted, 1000)) {
    const found = await tx
      .select({ id: contentItems.id, platformContentId: contentItems.platformContentId })
      .from(contentItems)
      .where(and(eq(contentItems.connectionId, connectionId), inArray(contentItems.platformContentId, batch)));
    for (const row of found) itemIds.set(row.platformContentId, row.id);
  }
  const rows = extras.videos.flatMap((video) => {
    const contentItemId = itemIds.get(video.videoId);
    if (contentItemId === undefined) return [];
    const retention = retentionOf.get(video.videoId);
    const early = earlyOf.get(video.videoId);
    return [
      {
        contentItemId,
        connectionId,
        videoId: video.videoId,
        durationSeconds: video.durationSeconds,
        thumbnailUrl: video.thumbnailUrl,
        views: video.views,
        likes: video.likes,
        comments: video.comments,
        shares: video.shares,
        watchTimeMinutes: video.watchTimeMinutes,
        averageViewDurationSeconds: video.averageViewDurationSeconds,
        averageViewPercentage: video.averageViewPercentage,
        subscribersGained: video.subscribersGained,
        estimatedRevenue: video.estimatedRevenue,
        estimatedAdRevenue: video.estimatedAdRevenue,
        cpm: video.cpm,
        monetizedPlaybacks: video.monetizedPlaybacks,
        retention: retention ?? null,
        retentionFetchedAt: retention ? now : null,
        earlyViews: early?.views ?? null,
        earlyViewsComplete: early?.complete ?? false,
        // When the Data API counters were read; null keeps the stored time (and, below, the stored counters).
        statsUpdatedAt: video.countersRead ? now : null,
      },
    ];
  });
  // The Data API fields move only with a read of them (stats_updated_at set); otherwise the stored ones stand. Revenue
  // follows the latest access (null again when the scope or the Partner Program is gone). Reach (impressions,
  // click-through rate) is not set here: storeReach recomputes it from the stored days. Curves read this sync replace
  // the stored ones; the others stay.
  for (const batch of chunks(rows)) {
    const insert = insertRows(youtubeVideos, batch);
    if (!insert) continue;
    await tx.execute(sql`${insert}
      on conflict (content_item_id) do update set
        connection_id = excluded.connection_id,
        video_id = excluded.video_id,
        duration_seconds = case when excluded.stats_updated_at is null then youtube_videos.duration_seconds else excluded.duration_seconds end,
        thumbnail_url = case when excluded.stats_updated_at is null then youtube_videos.thumbnail_url else excluded.thumbnail_url end,
        views = case when excluded.stats_updated_at is null then youtube_videos.views else excluded.views end,
        likes = case when excluded.stats_updated_at is null then youtube_videos.likes else excluded.likes end,
        comments = case when excluded.stats_updated_at is null then youtube_videos.comments else excluded.comments end,
        shares = excluded.shares,
        watch_time_minutes = excluded.watch_time_minutes,
        average_view_duration_seconds = excluded.average_view_duration_seconds,
        average_view_percentage = excluded.average_view_percentage,
        subscribers_gained = excluded.subscribers_gained,
        estimated_revenue = excluded.estimated_revenue,
        estimated_ad_revenue = excluded.estimated_ad_revenue,
        cpm = excluded.cpm,
        monetized_playbacks = excluded.monetized_playbacks,
        retention = coalesce(excluded.retention, youtube_videos.retention),
        retention_fetched_at = coalesce(excluded.retention_fetched_at, youtube_videos.retention_fetched_at),
        early_views = coalesce(excluded.early_views, youtube_videos.early_views),
        early_views_complete = excluded.early_views_complete or youtube_videos.early_views_complete,
        stats_updated_at = coalesce(excluded.stats_updated_at, youtube_videos.stats_updated_at)`);
  }

  if (extras.reach.days.length > 0) await storeReach(tx, connectionId, extras.reach.days, itemIds);

  const trafficRows = [...new Map(extras.channelTraffic.map((row) => [`${row.date}|${row.sourceType}`, { connectionId, ...row }])).values()];
  for (const batch of chunks(trafficRows)) {
    const insert = insertRows(youtubeChannelTraffic, batch);
    if (insert) await tx.execute(sql`${insert} on conflict (connection_id, date, source_type) do update set views = excluded.views, watch_time_minutes = excluded.watch_time_minutes`);
  }

  // A video's traffic sources are replaced as a whole: a source that no longer appears must not linger.
  const readTraffic = extras.videoTraffic.flatMap((entry) => {
    const contentItemId = contentIdOf.get(entry.videoId);
    return contentItemId === undefined ? [] : [{ contentItemId, sources: entry.sources }];
  });
  if (readTraffic.length > 0) {
    await tx.delete(youtubeVideoTraffic).where(inArray(youtubeVideoTraffic.contentItemId, readTraffic.map((entry) => entry.contentItemId)));
    const values = readTraffic.flatMap(({ contentItemId, sources }) => [...new Map(sources.map((source) => [source.sourceType, { contentItemId, ...source, asOf: now }])).values()]);
    for (const batch of chunks(values)) await executeInsert(tx, insertRows(youtubeVideoTraffic, batch));
  }

  // Each period read replaces that period's rows.
  for (const period of extras.demographics) {
    await tx.delete(youtubeDemographics).where(and(eq(youtubeDemographics.connectionId, connectionId), eq(youtubeDemographics.periodDays, period.periodDays)));
    const values = [...new Map(period.rows.map((row) => [`${row.demographicType}|${row.demographicValue}`, { connectionId, periodDays: period.periodDays, ...row, asOf: now }])).values()];
    for (const batch of chunks(values)) await executeInsert(tx, insertRows(youtubeDemographics, batch));
  }
}

/**
 * Replaces each day read with that day's rows (a restated report replaces the day whole, including a video it no
 * longer lists), then recomputes every video's impressions and click-through rate, and where stored reach starts,
 * from the stored days. `itemIds` maps YouTube video ids to content items; a video not stored (gone) is skipped.
 */
async function storeReach(tx: Executor, connectionId: number, days: YoutubeSyncExtras['reach']['days'], itemIds: Map<string, number>): Promise<void> {
  const missing = [...new Set(days.flatMap((day) => day.videos.map((video) => video.videoId)))].filter((videoId) => !itemIds.has(videoId));
  for (const batch of chunks(missing, 1000)) {
    const found = await tx
      .select({ id: contentItems.id, platformContentId: contentItems.platformContentId })
      .from(contentItems)
      .where(and(eq(contentItems.connectionId, connectionId), inArray(contentItems.platformContentId, batch)));
    for (const row of found) itemIds.set(row.platformContentId, row.id);
  }
  await tx.delete(youtubeVideoReach).where(and(eq(youtubeVideoReach.connectionId, connectionId), inArray(youtubeVideoReach.date, days.map((day) => day.date))));
  const values = days.flatMap((day) =>
    day.videos.flatMap((video) => {
      const contentItemId = itemIds.get(video.videoId);
      return contentItemId === undefined || video.impressions <= 0 ? [] : [{ contentItemId, connectionId, date: day.date, impressions: video.impressions, clicks: video.clicks }];
    }),
  );
  for (const batch of chunks(values)) await executeInsert(tx, insertRows(youtubeVideoReach, batch));
  await tx.execute(sql`
    update youtube_videos v
    set impressions = totals.impressions,
        click_through_rate = case when totals.impressions > 0 then totals.clicks / totals.impressions * 100 end
    from (
      select yv.content_item_id, nullif(coalesce(sum(r.impressions), 0), 0) as impressions, sum(r.clicks) as clicks
      from youtube_videos yv
      left join youtube_video_reach r on r.content_item_id = yv.content_item_id
      where yv.connection_id = ${connectionId}
      group by yv.content_item_id
    ) totals
    where v.content_item_id = totals.content_item_id`);
  await tx.execute(sql`
    update youtube_channels
    set reach_reports_since = (select min(date)::timestamp at time zone 'UTC' from youtube_video_reach where connection_id = ${connectionId})
    where connection_id = ${connectionId}`);
}

/** Replaces a video's traffic sources with ones read on demand (video-traffic.ts). */
export async function storeVideoTraffic(db: Database, contentItemId: number, sources: TrafficSourceViews[], now: Date): Promise<void> {
  const values = [...new Map(sources.map((source) => [source.sourceType, { contentItemId, ...source, asOf: now }])).values()];
  await db.transaction(async (tx) => {
    await tx.delete(youtubeVideoTraffic).where(eq(youtubeVideoTraffic.contentItemId, contentItemId));
    if (values.length > 0) {
      // Another process may have stored the same read meanwhile: the newer read wins.
      await tx
        .insert(youtubeVideoTraffic)
        .values(values)
        .onConflictDoUpdate({
          target: [youtubeVideoTraffic.contentItemId, youtubeVideoTraffic.sourceType],
          set: { views: sql`excluded.views`, watchTimeMinutes: sql`excluded.watch_time_minutes`, asOf: sql`excluded.as_of` },
        });
    }
  });
}

/** Stores a retention curve read on demand (retention.ts). */
export async function storeRetention(db: Executor, contentItemId: number, points: RetentionPoint[], now: Date): Promise<void> {
  await db.update(youtubeVideos).set({ retention: points, retentionFetchedAt: now }).where(eq(youtubeVideos.contentItemId, contentItemId));
}

/** YouTube's tables in the sync engine's one slot (server/modules/sync/sync-extension.ts), registered in server/app.ts. */
export const youtubeSyncExtension: SyncExtension<YoutubeSyncState, YoutubeSyncExtras> = {
  loadState: loadYoutubeSyncState,
  store: storeYoutubeSync,
};
