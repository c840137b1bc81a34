// A YouTube sync (docs/platforms/youtube.md): channel → uploads playlist → videos.list in batches of 50 (Data API,
// 1 quota unit each) → YouTube Analytics reports.query (no Data API quota) for the daily channel metrics, per-video
// lifetime totals, daily revenue, traffic sources, demographics, audience retention and early-view curves → the
// YouTube Reporting API's reach reports for impressions and click-through rate.
//
// Cost is bounded by design: one Analytics call per 200 videos for per-video totals, a fixed number of calls for the
// channel-wide reports, and the one-video-per-call reports (retention, per-video traffic, early views) only for a
// capped set of videos per sync, and only where the stored copy is missing or stale (the extra state says which).
// Every body is parsed with zod (CSV: checked row by row); anything unreadable fails the whole sync before anything
// is stored, since the sync engine stores a run's output in one transaction.
import type { RevenueAccess } from '#contract/youtube.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { PlatformError } from '../platform-error.ts';
import type { ProviderContext, SyncedContent, SyncInput, SyncOutput } from '../provider.ts';
import { readChannelTraffic, readDailyMetrics, readDailyRevenue, readDemographics, readEarlyViews, readVideoTotals, readVideoTraffic } from './analytics-reports.ts';
import { youtubeClient, type YoutubeClient } from './client.ts';
import { readReach } from './reach-reports.ts';
import { subscribersOf } from './oauth.ts';
import { EARLIEST_DAY, readRetention } from './retention.ts';
import { grantsYoutubeAnalytics, grantsYoutubeRevenue } from './scopes.ts';
import {
  COUNTERS_DAILY_DAYS,
  COUNTERS_MAX_AGE_DAYS,
  DEEP_DIVE_MAX_AGE_MS,
  DEEP_DIVE_RECENT,
  DEEP_DIVE_TOP,
  EARLY_VIEWS_PER_SYNC,
  type KnownVideo,
  type YoutubeSyncExtras,
  type YoutubeSyncState,
  type YoutubeVideoStats,
} from './sync-types.ts';
import { listNewUploads, readOwnChannel, readVideos } from './videos.ts';

const DAY_MS = 86_400_000;

/** reports.query has no rows for the last days (48–72 h processing). */
const ANALYTICS_LAG_DAYS = 3;

const NO_STATE: YoutubeSyncState = { reachJobId: null, reachReportsCreatedThrough: null, retentionFetchedAt: new Map(), earlyViewsComplete: new Set() };

export async function syncYouTube(context: ProviderContext, input: SyncInput<YoutubeSyncState>): Promise<SyncOutput<YoutubeSyncExtras>> {
  const client = youtubeClient(context, input.accessToken);
  const state = input.extraState ?? NO_STATE;
  const today = input.today;

  const channel = await readOwnChannel(client);
  const channelStart = channel.snippet?.publishedAt && !Number.isNaN(Date.parse(channel.snippet.publishedAt)) ? dayOf(new Date(channel.snippet.publishedAt)) : EARLIEST_DAY;
  const newIds = await listNewUploads(client, channel.contentDetails?.relatedPlaylists.uploads, input.knownContentIds, input.firstSync);
  // Counters of new and due videos from the Data API (50 per quota unit); the other stored videos keep theirs and
  // still get their Analytics totals below.
  const due = [...input.knownContentIds].filter((videoId) => countersDue(videoId, state.known?.get(videoId), context.now(), today));
  const { content, stats } = await readVideos(client, [...new Set([...newIds, ...due])]);
  for (const videoId of input.knownContentIds) {
    if (!stats.has(videoId)) stats.set(videoId, storedStats(videoId, state.known?.get(videoId)));
  }
  // A hidden count is unknown: nothing is stored for it (never a 0).
  const subscribers = subscribersOf(channel.statistics) ?? undefined;
  const base = { channelId: channel.id, title: channel.snippet?.title ?? null, videos: [...stats.values()] };

  // Without an Analytics scope (the user unticked it on Google's consent screen) only the Data API can be read: the
  // videos and their counters are stored, their Analytics totals are unknown (null), the channel reports stay as
  // they were.
  if (!grantsYoutubeAnalytics(input.scope)) {
    const extra: YoutubeSyncExtras = {
      ...base,
      revenueAccess: 'missingScope',
      channelTraffic: [],
      videoTraffic: [],
      demographics: [],
      retention: [],
      earlyViews: [],
      reach: { jobId: state.reachJobId, reportsCreatedThrough: state.reachReportsCreatedThrough, days: [] },
      usage: client.byApi,
    };
    return { followers: subscribers, daily: subscribers !== undefined ? [{ date: today, metricType: 'subscribers', value: subscribers }] : [], content, usage: client.usage, extra };
  }

  const window = { startDate: input.since, endDate: today };
  const daily = await readDailyMetrics(client, window, subscribers);
  // Without the monetary scope nothing is asked; a 403 (not in the Partner Program) is notMonetized.
  let revenueAccess: RevenueAccess = 'missingScope';
  if (grantsYoutubeRevenue(input.scope)) {
    const revenue = await readDailyRevenue(client, window);
    revenueAccess = revenue ? 'available' : 'notMonetized';
    if (revenue) daily.push(...revenue);
  }
  await readVideoTotals(client, { startDate: channelStart, endDate: today }, stats, revenueAccess === 'available');
  const channelTraffic = await readChannelTraffic(client, window);
  const demographics = await readDemographics(client, today);
  const { retention, videoTraffic } = await readDeepDives(client, state, stats, content, { channelStart, today, now: context.now() });
  const earlyViews = await readEarlyViewCurves(client, state, stats, content, today);
  const reach = await readReachOrKeep(client, state);

  const extra: YoutubeSyncExtras = { ...base, revenueAccess, channelTraffic, videoTraffic, demographics, retention, earlyViews, reach, usage: client.byApi };
  return { followers: subscribers, daily, content, usage: client.usage, extra };
}

/**
 * Whether a stored video's Data API counters are read this sync: not twice the same UTC day; daily while the video
 * is young (COUNTERS_DAILY_DAYS); otherwise on its day of the week (a stable seventh of the videos each day) or once
 * they are COUNTERS_MAX_AGE_DAYS old. A video the state knows nothing of is read.
 */
export function countersDue(videoId: string, known: KnownVideo | undefined, now: Date, today: string): boolean {
  if (!known?.countersReadAt) return true;
  if (dayOf(known.countersReadAt) === today) return false;
  if (known.publishedAt && now.getTime() - known.publishedAt.getTime() < COUNTERS_DAILY_DAYS * DAY_MS) return true;
  if (now.getTime() - known.countersReadAt.getTime() >= COUNTERS_MAX_AGE_DAYS * DAY_MS - DAY_MS / 2) return true;
  return weekdayOf(videoId) === Math.floor(Date.parse(`${today}T00:00:00Z`) / DAY_MS) % COUNTERS_MAX_AGE_DAYS;
}

/** A stable day of the week (0–6) for a video id, spreading the weekly reads evenly. */
function weekdayOf(videoId: string): number {
  let hash = 0;
  for (const char of videoId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % COUNTERS_MAX_AGE_DAYS;
}

/** The stats of a video whose counters are not read this sync: the stored views (for ranking), the rest to come from Analytics. */
function storedStats(videoId: string, known: KnownVideo | undefined): YoutubeVideoStats {
  return {
    videoId,
    countersRead: false,
    durationSeconds: null,
    thumbnailUrl: null,
    views: known?.views ?? null,
    likes: null,
    comments: null,
    shares: null,
    watchTimeMinutes: null,
    averageViewDurationSeconds: null,
    averageViewPercentage: null,
    subscribersGained: null,
    estimatedRevenue: null,
    estimatedAdRevenue: null,
    cpm: null,
    monetizedPlaybacks: null,
  };
}

/** The videos newest first (by publishing time; unknown last). */
function newestFirst(stats: Map<string, YoutubeVideoStats>, publishedOf: Map<string, Date | null>): YoutubeVideoStats[] {
  return [...stats.values()].sort((a, b) => (publishedOf.get(b.videoId)?.getTime() ?? 0) - (publishedOf.get(a.videoId)?.getTime() ?? 0));
}

/** Publishing times: as read this sync, else as stored. */
const publishedTimes = (content: SyncedContent[], state: YoutubeSyncState) =>
  new Map([...[...(state.known ?? new Map<string, KnownVideo>())].map(([videoId, known]) => [videoId, known.publishedAt] as const), ...content.map((item) => [item.platformContentId, item.publishedAt] as const)]);

/** Retention and per-video traffic (one video per call) for the newest and the most viewed videos, when stale. */
async function readDeepDives(
  client: YoutubeClient,
  state: YoutubeSyncState,
  stats: Map<string, YoutubeVideoStats>,
  content: SyncedContent[],
  at: { channelStart: string; today: string; now: Date },
): Promise<Pick<YoutubeSyncExtras, 'retention' | 'videoTraffic'>> {
  const publishedOf = publishedTimes(content, state);
  const byViews = [...stats.values()].sort((a, b) => (b.views ?? 0) - (a.views ?? 0));
  const candidates = [...newestFirst(stats, publishedOf).slice(0, DEEP_DIVE_RECENT), ...byViews.slice(0, DEEP_DIVE_TOP)].map((video) => video.videoId);
  const stale = [...new Set(candidates)].filter((videoId) => {
    const fetchedAt = state.retentionFetchedAt.get(videoId);
    return !fetchedAt || at.now.getTime() - fetchedAt.getTime() >= DEEP_DIVE_MAX_AGE_MS;
  });
  const retention: YoutubeSyncExtras['retention'] = [];
  const videoTraffic: YoutubeSyncExtras['videoTraffic'] = [];
  for (const videoId of stale) {
    const published = publishedOf.get(videoId);
    const startDate = published ? dayOf(published) : at.channelStart;
    retention.push({ videoId, points: await readRetention(client, videoId, startDate, at.today) });
    videoTraffic.push({ videoId, sources: await readVideoTraffic(client, videoId, { startDate, endDate: at.today }) });
  }
  return { retention, videoTraffic };
}

/** Early-views curves of videos whose curve is not complete yet, newest first (young videos every sync), capped per sync. */
async function readEarlyViewCurves(client: YoutubeClient, state: YoutubeSyncState, stats: Map<string, YoutubeVideoStats>, content: SyncedContent[], today: string): Promise<YoutubeSyncExtras['earlyViews']> {
  const publishedOf = publishedTimes(content, state);
  const lastProcessedDay = addDays(today, -ANALYTICS_LAG_DAYS);
  const candidates = newestFirst(stats, publishedOf)
    .filter((video) => !state.earlyViewsComplete.has(video.videoId) && publishedOf.get(video.videoId))
    .slice(0, EARLY_VIEWS_PER_SYNC);
  const curves: YoutubeSyncExtras['earlyViews'] = [];
  for (const video of candidates) curves.push(await readEarlyViews(client, video.videoId, dayOf(publishedOf.get(video.videoId)!), today, lastProcessedDay));
  return curves;
}

/**
 * Impressions and click-through rate from the Reporting API. The API may not be enabled for the project (403) or
 * the job may be gone (404): reach then stays as stored and the rest of the sync stands. Unreadable bodies and
 * everything else fail the sync.
 */
async function readReachOrKeep(client: YoutubeClient, state: YoutubeSyncState): Promise<YoutubeSyncExtras['reach']> {
  try {
    return await readReach(client, state);
  } catch (error) {
    if (!(error instanceof PlatformError && (error.details.status === 403 || error.details.status === 404) && error.kind !== 'rate_limited')) throw error;
    // A vanished job (404) is looked for or created again next time; its reports replace the days they cover.
    return { jobId: error.details.status === 404 ? null : state.reachJobId, reportsCreatedThrough: state.reachReportsCreatedThrough, days: [] };
  }
}
