// What a YouTube sync reads and hands over, shared by the adapter (server/providers/youtube) and the tables that
// store it (server/modules/youtube): a leaf that imports nothing of either.
import type { RetentionPoint, RevenueAccess } from '#contract/youtube.ts';

/** Demographics are kept for these periods (days back from today). */
export const DEMOGRAPHIC_PERIODS = [7, 30, 90, 365] as const;
/** Retention and per-video traffic are read during sync for this many newest and this many most viewed videos. */
export const DEEP_DIVE_RECENT = 10;
export const DEEP_DIVE_TOP = 10;
/** A stored retention curve (and per-video traffic) younger than this is not read again. */
export const DEEP_DIVE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Early-views curves cover the first days after publishing (index 0 = the publishing day). */
export const EARLY_VIEW_DAYS = 28;
/** At most this many early-views curves are read per sync, newest videos first, so a first sync stays cheap. */
export const EARLY_VIEWS_PER_SYNC = 50;
/** Days of channel traffic per reports.query call. */
export const TRAFFIC_WINDOW_DAYS = 183;
/**
 * Data API counters (views, likes, comments: one quota unit per 50 videos) are re-read daily for videos published
 * in the last COUNTERS_DAILY_DAYS, and for every other video at least every COUNTERS_MAX_AGE_DAYS: a seventh of them
 * each day. Their lifetime totals come from the Analytics API (no Data API quota) at every sync.
 */
export const COUNTERS_DAILY_DAYS = 30;
export const COUNTERS_MAX_AGE_DAYS = 7;

/** What is stored of a known video, for choosing which counters to re-read. */
export interface KnownVideo {
  publishedAt: Date | null;
  /** The stored Data API view count (the most viewed videos are deep-dived). */
  views: number | null;
  /** When its Data API counters were last read. */
  countersReadAt: Date | null;
}

/** What the store already holds for the connection, so the adapter only reads what is missing or stale. */
export interface YoutubeSyncState {
  reachJobId: string | null;
  /** createTime of the newest reach report already read: later ones (new days and restated ones) are listed next. */
  reachReportsCreatedThrough: Date | null;
  /** YouTube video id → when its retention curve and traffic sources were last read. */
  retentionFetchedAt: ReadonlyMap<string, Date>;
  /** Videos whose early-views curve is complete (every day of the window read). */
  earlyViewsComplete: ReadonlySet<string>;
  /** The stored videos by YouTube id (absent: the state predates this field, so every counter is read). */
  known?: ReadonlyMap<string, KnownVideo>;
}

export interface YoutubeVideoStats {
  videoId: string;
  /** Whether the Data API fields below (duration, thumbnail, counters) were read this sync; if not, the stored ones stand. */
  countersRead: boolean;
  durationSeconds: number | null;
  thumbnailUrl: string | null;
  /** Data API counters (near real time). */
  views: number | null;
  likes: number | null;
  comments: number | null;
  /** Analytics lifetime totals (through the last processed day); null when the video has no row. */
  shares: number | null;
  watchTimeMinutes: number | null;
  averageViewDurationSeconds: number | null;
  averageViewPercentage: number | null;
  subscribersGained: number | null;
  /** Null unless revenueAccess is `available`. */
  estimatedRevenue: number | null;
  estimatedAdRevenue: number | null;
  cpm: number | null;
  monetizedPlaybacks: number | null;
}

export interface TrafficSourceViews {
  sourceType: string;
  views: number;
  watchTimeMinutes: number | null;
}

/** The YouTube-only part of a sync's output (SyncOutput.extra), stored by server/modules/youtube/youtube-sync.repository.ts. */
export interface YoutubeSyncExtras {
  channelId: string;
  title: string | null;
  revenueAccess: RevenueAccess;
  videos: YoutubeVideoStats[];
  channelTraffic: (TrafficSourceViews & { date: string })[];
  /** Lifetime views by source of the videos read this sync (replaces what is stored for them). */
  videoTraffic: { videoId: string; sources: TrafficSourceViews[] }[];
  /** Each period's rows replace the stored ones. `ageGender` values are "female age25-34"; `country` ISO alpha-2. */
  demographics: { periodDays: number; rows: { demographicType: 'ageGender' | 'country'; demographicValue: string; viewerPercentage: number }[] }[];
  retention: { videoId: string; points: RetentionPoint[] }[];
  earlyViews: { videoId: string; views: number[]; complete: boolean }[];
  /**
   * The reach of each day read this run, per video (from that day's newest report): each replaces whatever is
   * stored for the day. reportsCreatedThrough advances the read mark.
   */
  reach: { jobId: string | null; reportsCreatedThrough: Date | null; days: { date: string; videos: { videoId: string; impressions: number; clicks: number }[] }[] };
  /** Calls by API: Data API calls and quota units, Analytics reports.query calls, Reporting API calls (incl. downloads). */
  usage: { dataApiCalls: number; dataApiUnits: number; analyticsCalls: number; reportingCalls: number };
}
