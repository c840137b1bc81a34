import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { contentItems } from './analytics.ts';
import { platformConnections } from './platforms.ts';

// The YouTube section's own data (docs/platforms/youtube.md). Daily channel totals (views, watch time, subscribers
// gained, revenue, ad revenue, monetized playbacks, cpm, playback-based cpm) live in account_metrics like every
// platform's; videos are content_items. These tables hold what only YouTube reports. A null column means YouTube
// did not report the value (never a zero standing in for "unknown").

/** Per YouTube connection: the channel, what revenue we may read, and the Reporting API job for reach reports. */
export const youtubeChannels = pgTable('youtube_channels', {
  connectionId: integer('connection_id')
    .primaryKey()
    .references(() => platformConnections.id, { onDelete: 'cascade' }),
  channelId: text('channel_id').notNull(),
  title: text('title'),
  /** available | missingScope (token without yt-analytics-monetary) | notMonetized (YouTube answered 403) */
  revenueAccess: text('revenue_access').notNull(),
  /** The Reporting API job producing channel_reach_basic_a1 (impressions, click-through rate). */
  reachJobId: text('reach_job_id'),
  /**
   * The createTime of the newest reach report read: the next sync lists the reports created after it, which include
   * restatements of days already read (null: list every report the job has).
   */
  reachReportsCreatedThrough: timestamp('reach_reports_created_through', { withTimezone: true }),
  /**
   * The first day of stored reach (youtube_video_reach): impressions and click-through rates count from here
   * (YouTube backfills about 30 days before the job was created), not from each video's publication.
   */
  reachReportsSince: timestamp('reach_reports_since', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * A video's current numbers, one row per content item, refreshed by every sync: lifetime totals from videos.list
 * and reports.query (dimensions=video), reach from the Reporting API, retention fetched for recent and top videos
 * during sync and on demand when a video is opened.
 */
export const youtubeVideos = pgTable(
  'youtube_videos',
  {
    contentItemId: integer('content_item_id')
      .primaryKey()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    /** Denormalised so a channel's videos are read without a join. */
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    videoId: text('video_id').notNull(),
    durationSeconds: integer('duration_seconds'),
    thumbnailUrl: text('thumbnail_url'),
    views: doublePrecision('views'),
    likes: doublePrecision('likes'),
    comments: doublePrecision('comments'),
    shares: doublePrecision('shares'),
    watchTimeMinutes: doublePrecision('watch_time_minutes'),
    averageViewDurationSeconds: doublePrecision('average_view_duration_seconds'),
    /** Percent 0–100. */
    averageViewPercentage: doublePrecision('average_view_percentage'),
    subscribersGained: doublePrecision('subscribers_gained'),
    estimatedRevenue: doublePrecision('estimated_revenue'),
    estimatedAdRevenue: doublePrecision('estimated_ad_revenue'),
    cpm: doublePrecision('cpm'),
    monetizedPlaybacks: doublePrecision('monetized_playbacks'),
    impressions: doublePrecision('impressions'),
    /** Percent, e.g. 5.1. */
    clickThroughRate: doublePrecision('click_through_rate'),
    /** [{ timeRatio, watchRatio, relativePerformance }] sorted by timeRatio; null until fetched. */
    retention: jsonb('retention'),
    retentionFetchedAt: timestamp('retention_fetched_at', { withTimezone: true }),
    /** Views on each day since publishing (index 0 = the publishing day), for view-velocity baselines. */
    earlyViews: jsonb('early_views').$type<number[]>(),
    /** True once earlyViews covers every day of the window and can no longer change. */
    earlyViewsComplete: boolean('early_views_complete').notNull().default(false),
    statsUpdatedAt: timestamp('stats_updated_at', { withTimezone: true }),
  },
  (table) => [index('youtube_videos_connection_idx').on(table.connectionId)],
);

/**
 * A video's thumbnail impressions and clicks on one day, from that day's newest reach report. A restated report
 * replaces the day's rows whole; youtube_videos.impressions and click_through_rate are recomputed from these.
 */
export const youtubeVideoReach = pgTable(
  'youtube_video_reach',
  {
    contentItemId: integer('content_item_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    /** Denormalised so a day is replaced for the whole channel in one statement. */
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    impressions: doublePrecision('impressions').notNull(),
    clicks: doublePrecision('clicks').notNull(),
  },
  (table) => [primaryKey({ columns: [table.contentItemId, table.date] }), index('youtube_video_reach_connection_date_idx').on(table.connectionId, table.date)],
);

/** Channel views by traffic source per day (dimensions=day,insightTrafficSourceType). */
export const youtubeChannelTraffic = pgTable(
  'youtube_channel_traffic',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    sourceType: text('source_type').notNull(),
    views: doublePrecision('views').notNull(),
    watchTimeMinutes: doublePrecision('watch_time_minutes'),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.date, table.sourceType] })],
);

/** A video's lifetime views by traffic source (filters=video==ID), as of its last read. */
export const youtubeVideoTraffic = pgTable(
  'youtube_video_traffic',
  {
    contentItemId: integer('content_item_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    sourceType: text('source_type').notNull(),
    views: doublePrecision('views').notNull(),
    watchTimeMinutes: doublePrecision('watch_time_minutes'),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.contentItemId, table.sourceType] })],
);

/**
 * Audience shares over the last `periodDays` days as of the last sync: ageGender ("female age25-34"), country
 * (ISO alpha-2). Each sync replaces a period's rows.
 */
export const youtubeDemographics = pgTable(
  'youtube_demographics',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    periodDays: integer('period_days').notNull(),
    demographicType: text('demographic_type').notNull(),
    demographicValue: text('demographic_value').notNull(),
    viewerPercentage: doublePrecision('viewer_percentage').notNull(),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.periodDays, table.demographicType, table.demographicValue] })],
);

/** Insights computed from a channel's data by insights/generate; each run adds a batch (same createdAt). */
export const youtubeInsights = pgTable(
  'youtube_insights',
  {
    id: serial('id').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    insightType: text('insight_type').notNull(),
    title: text('title').notNull(),
    recommendation: text('recommendation').notNull(),
    confidenceScore: doublePrecision('confidence_score').notNull(),
    /** The numbers an insight cites, and under `evidence` its structured evidence (decision 025). */
    facts: jsonb('facts').$type<Record<string, unknown>>().notNull(),
    videoId: text('video_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('youtube_insights_connection_created_idx').on(table.connectionId, table.createdAt)],
);
