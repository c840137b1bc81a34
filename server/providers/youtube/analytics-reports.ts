// The YouTube Analytics API reads of a sync (reports.query, docs/platforms/youtube.md): daily channel metrics and
// revenue, per-video lifetime totals, traffic sources, demographics, per-video traffic and early-view curves. None
// of them costs Data API quota. Each answer is checked column by column (client.ts) before anything is kept.
import { addDays } from '../../lib/dates.ts';
import { PlatformError } from '../platform-error.ts';
import type { ProviderContext, SyncOutput } from '../provider.ts';
import { type Cell, isoDayPattern, malformed, num, type YoutubeClient, youtubeClient } from './client.ts';
import { EARLIEST_DAY } from './retention.ts';
import { DEMOGRAPHIC_PERIODS, EARLY_VIEW_DAYS, TRAFFIC_WINDOW_DAYS, type TrafficSourceViews, type YoutubeSyncExtras, type YoutubeVideoStats } from './sync-types.ts';

/** reports.query metric → our daily account metric type. */
const DAILY_METRICS: Record<string, string> = {
  views: 'views',
  estimatedMinutesWatched: 'watch_time_minutes',
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  subscribersGained: 'subscribers_gained',
  subscribersLost: 'subscribers_lost',
};
/**
 * Daily revenue, in its own call so a 403 does not cost the basic metrics. estimatedRevenue is the sum of ad revenue,
 * YouTube Premium (estimatedRedPartnerRevenue) and transactions (memberships, Super Chat, …): the income view shows
 * the three parts, the third as what is left of the total.
 */
const REVENUE_METRICS: Record<string, string> = {
  estimatedRevenue: 'revenue',
  estimatedAdRevenue: 'ad_revenue',
  estimatedRedPartnerRevenue: 'premium_revenue',
  monetizedPlaybacks: 'monetized_playbacks',
  playbackBasedCpm: 'playback_based_cpm',
  cpm: 'cpm',
};
const VIDEO_METRICS = ['views', 'estimatedMinutesWatched', 'averageViewDuration', 'averageViewPercentage', 'likes', 'comments', 'shares', 'subscribersGained'] as const;
const VIDEO_REVENUE_METRICS = ['estimatedRevenue', 'estimatedAdRevenue', 'cpm', 'monetizedPlaybacks'] as const;
/** Known video ids per `filters=video==…` query (YouTube allows at most 200). */
const VIDEO_FILTER_BATCH = 200;

type Window = { startDate: string; endDate: string };
type Daily = SyncOutput['daily'];

/**
 * Daily channel totals over the window, and subscriber totals per day derived backwards from today's count with
 * each later day's net change (YouTube reports only the daily gains and losses).
 */
export async function readDailyMetrics(client: YoutubeClient, window: Window, subscribers: number | undefined): Promise<Daily> {
  const daily: Daily = [];
  const rows = await client.report({ ...window, sort: 'day' }, ['day'], Object.keys(DAILY_METRICS));
  const net = new Map<string, number>();
  for (const row of rows) {
    const day = String(row.day);
    if (!isoDayPattern.test(day)) throw malformed('metrics');
    for (const [name, metricType] of Object.entries(DAILY_METRICS)) daily.push({ date: day, metricType, value: num(row[name]!) });
    net.set(day, num(row.subscribersGained!) - num(row.subscribersLost!));
    daily.push({ date: day, metricType: 'engagements', value: num(row.likes!) + num(row.comments!) + num(row.shares!) });
  }
  if (subscribers !== undefined) {
    const today = window.endDate;
    daily.push({ date: today, metricType: 'subscribers', value: subscribers });
    let laterNet = 0;
    for (const day of [...net.keys()].sort().reverse()) {
      if (day < today) daily.push({ date: day, metricType: 'subscribers', value: subscribers - laterNet });
      laterNet += net.get(day) ?? 0;
    }
  }
  return daily;
}

/**
 * Daily revenue, or null when YouTube answers 403: the channel is not in the Partner Program. Revenue then stays
 * absent (null), never zero.
 */
export async function readDailyRevenue(client: YoutubeClient, window: Window): Promise<Daily | null> {
  let rows: Record<string, Cell>[];
  try {
    rows = await client.report({ ...window, sort: 'day' }, ['day'], Object.keys(REVENUE_METRICS));
  } catch (error) {
    if (error instanceof PlatformError && error.details.status === 403 && error.kind !== 'rate_limited') return null;
    throw error;
  }
  const daily: Daily = [];
  for (const row of rows) {
    const day = String(row.day);
    if (!isoDayPattern.test(day)) throw malformed('metrics');
    for (const [name, metricType] of Object.entries(REVENUE_METRICS)) daily.push({ date: day, metricType, value: num(row[name]!) });
  }
  return daily;
}

/**
 * A dimensions=video report over the videos' lifetime for the given ids, in `filters=video==…` batches of at most
 * VIDEO_FILTER_BATCH known ids. The unfiltered top-videos report would be simpler, but it ends at its 200th row
 * (docs/platforms/youtube.md#analytics-reports): a larger channel's other videos would silently get nothing.
 * `answered` runs for each batch once YouTube has answered it, before its rows are applied.
 */
async function batchedVideoReport(
  client: YoutubeClient,
  lifetime: Window,
  ids: readonly string[],
  metrics: readonly string[],
  sortBy: string,
  apply: (videoId: string, row: Record<string, Cell>) => void,
  answered: (batch: readonly string[]) => void = () => {},
) {
  for (let start = 0; start < ids.length; start += VIDEO_FILTER_BATCH) {
    const batch = ids.slice(start, start + VIDEO_FILTER_BATCH);
    const rows = await client.report({ ...lifetime, filters: `video==${batch.join(',')}`, sort: `-${sortBy}`, maxResults: String(batch.length) }, ['video'], metrics);
    answered(batch);
    for (const row of rows) apply(String(row.video), row);
  }
}

/** Per-video lifetime totals (and revenue, when readable) of the synced videos, written into their stats. */
export async function readVideoTotals(client: YoutubeClient, lifetime: Window, stats: Map<string, YoutubeVideoStats>, withRevenue: boolean): Promise<void> {
  const ids = [...stats.keys()];
  await batchedVideoReport(client, lifetime, ids, VIDEO_METRICS, 'views', (videoId, row) => {
    const video = stats.get(videoId);
    if (!video) return;
    video.shares = num(row.shares!);
    video.watchTimeMinutes = num(row.estimatedMinutesWatched!);
    video.averageViewDurationSeconds = num(row.averageViewDuration!);
    video.averageViewPercentage = num(row.averageViewPercentage!);
    video.subscribersGained = num(row.subscribersGained!);
  });
  if (!withRevenue) return;
  await batchedVideoReport(
    client,
    lifetime,
    ids,
    VIDEO_REVENUE_METRICS,
    'estimatedRevenue',
    (videoId, row) => {
      const video = stats.get(videoId);
      if (!video) return;
      video.estimatedRevenue = num(row.estimatedRevenue!);
      video.estimatedAdRevenue = num(row.estimatedAdRevenue!);
      video.cpm = num(row.cpm!);
      video.monetizedPlaybacks = num(row.monetizedPlaybacks!);
    },
    // YouTube lists only videos with data. A video of an answered batch with a row in the views report but none here
    // earned nothing; one with no row in either is not in YouTube's reports yet (a new upload, the report's 2–3 day
    // lag), and its revenue stays unknown (null, "not reported yet"), never $0.00.
    (batch) => {
      for (const videoId of batch) {
        const video = stats.get(videoId);
        if (video && video.watchTimeMinutes !== null) Object.assign(video, { estimatedRevenue: 0, estimatedAdRevenue: 0, cpm: 0, monetizedPlaybacks: 0 });
      }
    },
  );
}

/**
 * Channel views by traffic source per day over the window, in windows of TRAFFIC_WINDOW_DAYS: a first sync's two
 * years are ~8,000 rows, which one answer should not have to carry.
 */
export async function readChannelTraffic(client: YoutubeClient, window: Window): Promise<YoutubeSyncExtras['channelTraffic']> {
  const rows: Record<string, Cell>[] = [];
  for (let start = window.startDate; start <= window.endDate; start = addDays(start, TRAFFIC_WINDOW_DAYS)) {
    const end = addDays(start, TRAFFIC_WINDOW_DAYS - 1) < window.endDate ? addDays(start, TRAFFIC_WINDOW_DAYS - 1) : window.endDate;
    rows.push(...(await client.report({ startDate: start, endDate: end, sort: 'day' }, ['day', 'insightTrafficSourceType'], ['views', 'estimatedMinutesWatched'])));
  }
  return rows.map((row) => {
    const date = String(row.day);
    if (!isoDayPattern.test(date)) throw malformed('metrics');
    return { date, sourceType: String(row.insightTrafficSourceType), views: num(row.views!), watchTimeMinutes: num(row.estimatedMinutesWatched!) };
  });
}

/**
 * Demographics per kept period: age × gender shares, and countries by views (the country report has no
 * viewerPercentage: shares are computed from views).
 */
export async function readDemographics(client: YoutubeClient, today: string): Promise<YoutubeSyncExtras['demographics']> {
  const demographics: YoutubeSyncExtras['demographics'] = [];
  for (const periodDays of DEMOGRAPHIC_PERIODS) {
    const window = { startDate: addDays(today, -(periodDays - 1)), endDate: today };
    const ageGender = await client.report({ ...window, sort: 'gender,ageGroup' }, ['ageGroup', 'gender'], ['viewerPercentage']);
    const countries = await client.report({ ...window, sort: '-views' }, ['country'], ['views']);
    const countryViews = countries.reduce((sum, row) => sum + num(row.views!), 0);
    demographics.push({
      periodDays,
      rows: [
        ...ageGender.map((row) => ({ demographicType: 'ageGender' as const, demographicValue: `${String(row.gender)} ${String(row.ageGroup)}`, viewerPercentage: num(row.viewerPercentage!) })),
        ...(countryViews > 0
          ? countries.map((row) => ({ demographicType: 'country' as const, demographicValue: String(row.country), viewerPercentage: Math.round((num(row.views!) / countryViews) * 10_000) / 100 }))
          : []),
      ],
    });
  }
  return demographics;
}

/** One video's lifetime views by traffic source (one video per call). */
export async function readVideoTraffic(client: YoutubeClient, videoId: string, window: Window): Promise<TrafficSourceViews[]> {
  const rows = await client.report({ ...window, filters: `video==${videoId}`, sort: '-views' }, ['insightTrafficSourceType'], ['views', 'estimatedMinutesWatched']);
  return rows.map((row) => ({ sourceType: String(row.insightTrafficSourceType), views: num(row.views!), watchTimeMinutes: num(row.estimatedMinutesWatched!) }));
}

/**
 * One video's lifetime traffic sources, read now (for the on-demand path in server/modules/youtube/video-traffic.ts).
 * `startDate` is the video's publishing day when known.
 */
export async function fetchVideoTraffic(context: ProviderContext, accessToken: string, request: { videoId: string; startDate?: string | undefined; today: string }): Promise<TrafficSourceViews[]> {
  return readVideoTraffic(youtubeClient(context, accessToken), request.videoId, { startDate: request.startDate ?? EARLIEST_DAY, endDate: request.today });
}

/**
 * Views on each of the first EARLY_VIEW_DAYS days after publishing. Days up to the last processed one are final (a
 * day YouTube omits had no views); later days are not known yet, so the curve is complete only once its window is.
 */
export async function readEarlyViews(client: YoutubeClient, videoId: string, publishDay: string, today: string, lastProcessedDay: string): Promise<YoutubeSyncExtras['earlyViews'][number]> {
  const windowEnd = addDays(publishDay, EARLY_VIEW_DAYS - 1);
  const endDate = windowEnd < today ? windowEnd : today;
  const rows = await client.report({ startDate: publishDay, endDate, filters: `video==${videoId}`, sort: 'day' }, ['day'], ['views']);
  const byDay = new Map(rows.map((row) => [String(row.day), num(row.views!)]));
  const knownThrough = endDate < lastProcessedDay ? endDate : lastProcessedDay;
  const views: number[] = [];
  for (let day = publishDay; day <= knownThrough; day = addDays(day, 1)) views.push(byDay.get(day) ?? 0);
  return { videoId, views, complete: windowEnd <= lastProcessedDay };
}
