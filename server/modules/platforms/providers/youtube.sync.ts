// YouTube sync (platform-apis.md 1.3–1.5): channel → uploads playlist → playlistItems pages → videos.list in
// batches of 50 (Data API, 1 quota unit each) → YouTube Analytics reports.query (no Data API quota) for the daily
// channel metrics, per-video lifetime totals, daily revenue, traffic sources, demographics, audience retention and
// early-view curves → the YouTube Reporting API's reach reports for impressions and click-through rate.
//
// Cost is bounded by design: one Analytics call per 200 videos for per-video totals, a fixed number of calls for the
// channel-wide reports, and the one-video-per-call reports (retention, per-video traffic, early views) only for a
// capped set of videos per sync, and only where the stored copy is missing or stale (input.youtube says which).
// Every body is parsed with zod (CSV: checked row by row); anything unreadable fails the whole sync before anything
// is stored, since the sync engine stores a run's output in one transaction.
import { z } from 'zod';
import type { RetentionPoint, RevenueAccess } from '../../../../contract/youtube.ts';
import {
  addDays,
  apiError,
  buildUrl,
  callCounter,
  count,
  dayOf,
  MALFORMED_RESPONSE,
  parseBody,
  PlatformError,
  type PlatformResponse,
  type ProviderContext,
  retryAfterSeconds,
  type SyncedContent,
  type SyncInput,
  type SyncOutput,
} from './provider.ts';

const CHANNELS_URL = 'https://www.googleapis.com/youtube/v3/channels';
const PLAYLIST_ITEMS_URL = 'https://www.googleapis.com/youtube/v3/playlistItems';
const VIDEOS_URL = 'https://www.googleapis.com/youtube/v3/videos';
const REPORTS_URL = 'https://youtubeanalytics.googleapis.com/v2/reports';
const REPORTING_URL = 'https://youtubereporting.googleapis.com/v1';
const ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const MONETARY_SCOPE = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';

/**
 * Whether a connection may read YouTube Analytics reports: either Analytics scope was granted (the monetary one
 * includes the rest). A connection whose granted scope is unknown (null) is read as if granted.
 */
export function grantsYoutubeAnalytics(scope: string | null): boolean {
  if (scope === null) return true;
  const granted = scope.split(/[ ,]+/);
  return granted.includes(ANALYTICS_SCOPE) || granted.includes(MONETARY_SCOPE);
}

/** Whether the monetary scope (revenue reports) was granted; an unknown scope (null) is read as not granted. */
export function grantsYoutubeRevenue(scope: string | null): boolean {
  return (scope ?? '').split(/[ ,]+/).includes(MONETARY_SCOPE);
}
const VIDEO_BATCH = 50;
/** reports.query's maximum page for dimensions=video. */
const VIDEO_REPORT_PAGE = 200;
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
/** reports.query has no rows for the last days (48–72 h processing, platform-apis.md 1.4). */
const ANALYTICS_LAG_DAYS = 3;
const REACH_REPORT_TYPE = 'channel_reach_basic_a1';
const REACH_JOB_NAME = 'Analytics Hub reach';

/** What the store already holds for the connection, so the adapter only reads what is missing or stale. */
export interface YoutubeSyncState {
  reachJobId: string | null;
  /** endTime of the newest reach report already read. */
  reachReportsThrough: Date | null;
  /** YouTube video id → when its retention curve and traffic sources were last read. */
  retentionFetchedAt: ReadonlyMap<string, Date>;
  /** Videos whose early-views curve is complete (every day of the window read). */
  earlyViewsComplete: ReadonlySet<string>;
}

export interface YoutubeVideoStats {
  videoId: string;
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

/** The YouTube-only part of a sync's output (SyncOutput.youtube), stored by server/modules/youtube/youtube.store.ts. */
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
   * New reach report rows summed per video (added to what is stored); reportsThrough advances the read mark, and
   * reportsSince is the start of the oldest report read in this run (null when none was).
   */
  reach: { jobId: string | null; reportsThrough: Date | null; reportsSince: Date | null; videos: { videoId: string; impressions: number; clicks: number }[] };
  /** Calls by API: Data API calls and quota units, Analytics reports.query calls, Reporting API calls (incl. downloads). */
  usage: { dataApiCalls: number; dataApiUnits: number; analyticsCalls: number; reportingCalls: number };
}

const channelBody = z.looseObject({
  items: z
    .array(
      z.looseObject({
        id: z.string(),
        snippet: z.looseObject({ title: z.string().optional(), publishedAt: z.string().optional() }).optional(),
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
const reportBody = z.looseObject({
  columnHeaders: z.array(z.looseObject({ name: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))).optional(),
});
const reportingJob = z.looseObject({ id: z.string().min(1), reportTypeId: z.string() });
const jobsBody = z.looseObject({ jobs: z.array(reportingJob).optional(), nextPageToken: z.string().optional() });
const reportsBody = z.looseObject({
  reports: z.array(z.looseObject({ id: z.string(), startTime: z.iso.datetime({ offset: true }), endTime: z.iso.datetime({ offset: true }), downloadUrl: z.url() })).optional(),
  nextPageToken: z.string().optional(),
});

const googleError = z.looseObject({ error: z.looseObject({ errors: z.array(z.looseObject({ reason: z.string().optional() })).optional() }) });

const PACIFIC = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });

/** Pacific wall-clock time at `epochMs`, written as if it were UTC (so the difference is the zone's offset). */
function pacificWallClock(epochMs: number): number {
  const part = Object.fromEntries(PACIFIC.formatToParts(epochMs).map(({ type, value }) => [type, Number(value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/**
 * Seconds from `now` until the next midnight Pacific time, when Google resets the YouTube Data API's daily quota.
 * DST-aware: midnight is never inside a switch (they happen at 02:00), so one offset correction is exact.
 */
export function secondsUntilQuotaReset(now: Date): number {
  const wall = new Date(pacificWallClock(now.getTime()));
  const midnightWall = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1);
  let reset = midnightWall - (wall.getTime() - now.getTime());
  reset = midnightWall - (pacificWallClock(reset) - reset);
  return Math.max(1, Math.ceil((reset - now.getTime()) / 1000));
}

/**
 * Google reports quota and rate limits as 403 with a reason (1.5); they are waits, not failures. The daily quota
 * (`quotaExceeded`) comes back only at midnight Pacific: retrying earlier spends calls on certain refusals and
 * runs out the deferral budget before the reset.
 */
export function youtubeFailure(response: PlatformResponse, operation: string): PlatformError {
  const reason = googleError.safeParse(response.body).data?.error.errors?.[0]?.reason;
  if (response.status === 403 && reason && ['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded'].includes(reason)) {
    const retryAfter = retryAfterSeconds(response) ?? (reason === 'quotaExceeded' ? secondsUntilQuotaReset(response.receivedAt) : 60);
    return new PlatformError('rate_limited', 'youtube', operation, 'The platform is rate limiting us', { status: 403, errorCode: reason, retryAfterSeconds: retryAfter });
  }
  return apiError(response, 'youtube', operation, reason);
}

const malformed = (operation: string, status = 200) =>
  new PlatformError('unavailable', 'youtube', operation, 'The platform sent a response we could not read', { status, errorCode: MALFORMED_RESPONSE });

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
/** Daily revenue (recipe (b)), in its own call so a 403 does not cost the basic metrics. */
const REVENUE_METRICS: Record<string, string> = {
  estimatedRevenue: 'revenue',
  estimatedAdRevenue: 'ad_revenue',
  monetizedPlaybacks: 'monetized_playbacks',
  playbackBasedCpm: 'playback_based_cpm',
  cpm: 'cpm',
};
const VIDEO_METRICS = ['views', 'estimatedMinutesWatched', 'averageViewDuration', 'averageViewPercentage', 'likes', 'comments', 'shares', 'subscribersGained'] as const;
const VIDEO_REVENUE_METRICS = ['estimatedRevenue', 'estimatedAdRevenue', 'cpm', 'monetizedPlaybacks'] as const;

type Cell = string | number | null;

/**
 * A reports.query table as records keyed by column name, checked: every expected column present, every row as wide
 * as the headers, every expected metric a finite number and every expected dimension a string (or number).
 */
function tableRecords(body: z.infer<typeof reportBody>, dimensions: readonly string[], metrics: readonly string[], operation: string): Record<string, Cell>[] {
  const names = body.columnHeaders.map((header) => header.name);
  if ([...dimensions, ...metrics].some((name) => !names.includes(name))) throw malformed(operation);
  return (body.rows ?? []).map((row) => {
    if (row.length !== names.length) throw malformed(operation);
    const record: Record<string, Cell> = {};
    names.forEach((name, index) => {
      record[name] = row[index] ?? null;
    });
    for (const metric of metrics) if (typeof record[metric] !== 'number' || !Number.isFinite(record[metric])) throw malformed(operation);
    for (const dimension of dimensions) if (record[dimension] === null || record[dimension] === '') throw malformed(operation);
    return record;
  });
}

const num = (value: Cell | undefined) => value as number;
const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

function durationSeconds(iso: string | undefined): number | null {
  if (!iso) return null;
  const match = ISO_DURATION.exec(iso);
  if (!match) return null;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  return Number(days) * 86_400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** One sync's (or one on-demand read's) YouTube client: every call counted by API. */
function youtubeClient(context: ProviderContext, accessToken: string) {
  const { usage, call } = callCounter();
  const byApi = { dataApiCalls: 0, dataApiUnits: 0, analyticsCalls: 0, reportingCalls: 0 };
  const headers = { authorization: `Bearer ${accessToken}` };

  async function getJson<T>(operation: string, url: string, schema: z.ZodType<T>, api: 'data' | 'analytics' | 'reporting'): Promise<T> {
    const units = api === 'data' ? 1 : 0;
    if (api === 'data') {
      byApi.dataApiCalls += 1;
      byApi.dataApiUnits += units;
    } else if (api === 'analytics') byApi.analyticsCalls += 1;
    else byApi.reportingCalls += 1;
    const response = await call(context, { platform: 'youtube', operation, url, headers }, units);
    if (response.status !== 200) throw youtubeFailure(response, operation);
    return parseBody(schema, response, 'youtube', operation);
  }

  return {
    usage,
    byApi,
    data: <T>(url: string, schema: z.ZodType<T>) => getJson('metrics', url, schema, 'data'),
    /** reports.query as checked records. */
    async report(params: Record<string, string | undefined>, dimensions: readonly string[], metrics: readonly string[]) {
      const body = await getJson('metrics', buildUrl(REPORTS_URL, { ids: 'channel==MINE', ...params, metrics: metrics.join(','), ...(dimensions.length ? { dimensions: dimensions.join(',') } : {}) }), reportBody, 'analytics');
      return tableRecords(body, dimensions, metrics, 'metrics');
    },
    reporting: <T>(url: string, schema: z.ZodType<T>) => getJson('reach', url, schema, 'reporting'),
    async createReachJob() {
      byApi.reportingCalls += 1;
      const response = await call(context, { platform: 'youtube', operation: 'reach', method: 'POST', url: `${REPORTING_URL}/jobs`, headers, json: { reportTypeId: REACH_REPORT_TYPE, name: REACH_JOB_NAME } });
      if (response.status !== 200) throw youtubeFailure(response, 'reach');
      return parseBody(reportingJob, response, 'youtube', 'reach');
    },
    /** A report's CSV (the download URL serves text, not JSON). */
    async downloadCsv(url: string): Promise<string> {
      byApi.reportingCalls += 1;
      usage.calls += 1;
      let response: Response;
      let text: string;
      try {
        response = await fetch(context.url(url), { headers, redirect: 'manual', signal: AbortSignal.timeout(context.timeoutMs) });
        text = await response.text();
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new PlatformError('unavailable', 'youtube', 'reach', timedOut ? 'The platform did not answer in time' : 'The platform could not be reached');
      }
      if (response.status !== 200) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        throw youtubeFailure({ status: response.status, headers: response.headers, body, receivedAt: context.now() }, 'reach');
      }
      return text;
    },
  };
}

type YoutubeClient = ReturnType<typeof youtubeClient>;

/** The audience-retention curve of one video (recipe (f): one video per call), in the contract's shape. */
async function readRetention(client: YoutubeClient, videoId: string, startDate: string, today: string): Promise<RetentionPoint[]> {
  const rows = await client.report(
    { startDate, endDate: today, filters: `video==${videoId}`, sort: 'elapsedVideoTimeRatio' },
    ['elapsedVideoTimeRatio'],
    ['audienceWatchRatio', 'relativeRetentionPerformance'],
  );
  return rows
    .map((row) => {
      const timeRatio = Number(row.elapsedVideoTimeRatio);
      if (!Number.isFinite(timeRatio) || timeRatio < 0 || timeRatio > 1) throw malformed('metrics');
      return { timeRatio, watchRatio: num(row.audienceWatchRatio), relativePerformance: num(row.relativeRetentionPerformance) };
    })
    .sort((a, b) => a.timeRatio - b.timeRatio);
}

/** The first day YouTube could have data for (YouTube's launch): the lifetime range of a video or channel. */
const EARLIEST_DAY = '2005-04-23';

/**
 * One video's retention curve, read now (for the on-demand path in server/modules/youtube/retention.ts).
 * `startDate` is the video's publishing day when known.
 */
export async function fetchRetentionCurve(context: ProviderContext, accessToken: string, request: { videoId: string; startDate?: string | undefined; today: string }): Promise<RetentionPoint[]> {
  return readRetention(youtubeClient(context, accessToken), request.videoId, request.startDate ?? EARLIEST_DAY, request.today);
}

/** Minimal RFC 4180 reader (quoted fields, doubled quotes); reach CSVs are plain, but be exact anyway. */
function parseCsv(text: string): string[][] {
  // Reach reports have no quoted fields: split them directly (a few MB on a first sync), keep the full reader for the rest.
  if (!text.includes('"')) return text.split(/\r?\n/).filter((line) => line !== '').map((line) => line.split(','));
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw malformed('reach');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}

/**
 * Impressions and clicks per video of one reach report. The CTR column is a ratio (0.052); a value above 1 is read
 * as a percent, since third-party readers disagree on the unit (platform-apis.md 1.4 (g) is unconfirmed on it).
 */
function readReachCsv(text: string, totals: Map<string, { impressions: number; clicks: number }>): void {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw malformed('reach');
  const column = (name: string) => header.indexOf(name);
  const dateColumn = column('date');
  const videoColumn = column('video_id');
  const impressionsColumn = column('video_thumbnail_impressions');
  const ctrColumn = column('video_thumbnail_impressions_ctr');
  if ([dateColumn, videoColumn, impressionsColumn, ctrColumn].some((index) => index < 0)) throw malformed('reach');
  for (const cells of rows) {
    if (cells.length !== header.length) throw malformed('reach');
    const date = cells[dateColumn]!;
    const videoId = cells[videoColumn]!;
    const impressionsText = cells[impressionsColumn]!;
    const ctrText = cells[ctrColumn]!;
    if (!/^\d{8}$/.test(date) && !isoDayPattern.test(date)) throw malformed('reach');
    if (!/^\d+$/.test(impressionsText) || !/^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(ctrText)) throw malformed('reach');
    // Channel-level rows (no video) carry no per-video reach.
    if (!videoId) continue;
    const impressions = Number(impressionsText);
    const rawCtr = Number(ctrText);
    const ctr = rawCtr > 1 ? rawCtr / 100 : rawCtr;
    const entry = totals.get(videoId) ?? { impressions: 0, clicks: 0 };
    entry.impressions += impressions;
    entry.clicks += impressions * ctr;
    totals.set(videoId, entry);
  }
}

/** Reads the reach reports not read yet; creates the Reporting API job once (finding one a failed sync left behind). */
async function readReach(client: YoutubeClient, state: YoutubeSyncState): Promise<YoutubeSyncExtras['reach']> {
  let jobId = state.reachJobId;
  let reportsThrough = state.reachReportsThrough;
  if (!jobId) {
    // A job is created at YouTube even if the sync that created it fails later: look for ours before creating one.
    let pageToken: string | undefined;
    do {
      const page = await client.reporting(buildUrl(`${REPORTING_URL}/jobs`, { pageToken }), jobsBody);
      jobId = page.jobs?.find((job) => job.reportTypeId === REACH_REPORT_TYPE)?.id ?? null;
      pageToken = jobId ? undefined : page.nextPageToken;
    } while (pageToken);
    if (!jobId) jobId = (await client.createReachJob()).id;
    // The read mark stays: a replacement job backfills days whose reach is already summed, and those are skipped.
  }
  const reports: NonNullable<z.infer<typeof reportsBody>['reports']> = [];
  let pageToken: string | undefined;
  do {
    const page = await client.reporting(
      buildUrl(`${REPORTING_URL}/jobs/${encodeURIComponent(jobId)}/reports`, { startTimeAtOrAfter: reportsThrough?.toISOString(), pageToken }),
      reportsBody,
    );
    reports.push(...(page.reports ?? []));
    pageToken = page.nextPageToken;
  } while (pageToken);
  const totals = new Map<string, { impressions: number; clicks: number }>();
  let reportsSince: Date | null = null;
  // Oldest first, each report once: the read mark is the newest endTime read.
  for (const report of reports.sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime))) {
    if (reportsThrough && Date.parse(report.startTime) < reportsThrough.getTime()) continue;
    readReachCsv(await client.downloadCsv(report.downloadUrl), totals);
    reportsSince ??= new Date(report.startTime);
    const end = new Date(report.endTime);
    if (!reportsThrough || end > reportsThrough) reportsThrough = end;
  }
  return { jobId, reportsThrough, reportsSince, videos: [...totals].map(([videoId, total]) => ({ videoId, ...total })) };
}

export async function syncYouTube(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const client = youtubeClient(context, input.accessToken);
  const state: YoutubeSyncState = input.youtube ?? { reachJobId: null, reachReportsThrough: null, retentionFetchedAt: new Map(), earlyViewsComplete: new Set() };
  const now = context.now();
  const today = input.today;
  const lastProcessedDay = addDays(today, -ANALYTICS_LAG_DAYS);

  const channel = (await client.data(buildUrl(CHANNELS_URL, { part: 'snippet,statistics,contentDetails', mine: 'true' }), channelBody)).items?.[0];
  if (!channel) throw new PlatformError('not_found', 'youtube', 'metrics', 'This Google account has no YouTube channel');
  const uploads = channel.contentDetails?.relatedPlaylists.uploads;
  const channelStart = channel.snippet?.publishedAt && !Number.isNaN(Date.parse(channel.snippet.publishedAt)) ? dayOf(new Date(channel.snippet.publishedAt)) : EARLIEST_DAY;

  // The uploads playlist is newest first: on later syncs, stop at the first video already stored.
  const newIds: string[] = [];
  let pageToken: string | undefined;
  if (uploads) {
    paging: do {
      const page = await client.data(buildUrl(PLAYLIST_ITEMS_URL, { part: 'contentDetails,snippet', playlistId: uploads, maxResults: '50', pageToken }), playlistBody);
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
  const stats = new Map<string, YoutubeVideoStats>();
  for (let start = 0; start < ids.length; start += VIDEO_BATCH) {
    const batch = ids.slice(start, start + VIDEO_BATCH);
    const videos = await client.data(buildUrl(VIDEOS_URL, { part: 'snippet,statistics,contentDetails', id: batch.join(','), maxResults: '50' }), videosBody);
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

  const subscribers = channel.statistics?.subscriberCount;
  const extrasBase = { channelId: channel.id, title: channel.snippet?.title ?? null, revenueAccess: 'missingScope' as RevenueAccess, videos: [...stats.values()] };
  // Without an Analytics scope (the user unticked it on Google's consent screen) only the Data API can be read: the
  // videos and their counters are stored, their Analytics totals are unknown (null), the channel reports stay as
  // they were.
  if (!grantsYoutubeAnalytics(input.scope)) {
    const youtube: YoutubeSyncExtras = {
      ...extrasBase,
      channelTraffic: [],
      videoTraffic: [],
      demographics: [],
      retention: [],
      earlyViews: [],
      reach: { jobId: state.reachJobId, reportsThrough: state.reachReportsThrough, reportsSince: null, videos: [] },
      usage: client.byApi,
    };
    return { followers: subscribers, daily: subscribers !== undefined ? [{ date: today, metricType: 'subscribers', value: subscribers }] : [], content, usage: client.usage, youtube };
  }

  // Daily channel totals (recipe (a)).
  const daily: SyncOutput['daily'] = [];
  const basic = await client.report({ startDate: input.since, endDate: today, sort: 'day' }, ['day'], Object.keys(DAILY_METRICS));
  const net = new Map<string, number>();
  for (const row of basic) {
    const day = String(row.day);
    if (!isoDayPattern.test(day)) throw malformed('metrics');
    for (const [name, metricType] of Object.entries(DAILY_METRICS)) daily.push({ date: day, metricType, value: num(row[name]!) });
    net.set(day, num(row.subscribersGained!) - num(row.subscribersLost!));
    daily.push({ date: day, metricType: 'engagements', value: num(row.likes!) + num(row.comments!) + num(row.shares!) });
  }

  // Subscriber totals per day, derived backwards from today's count with each later day's net change.
  if (subscribers !== undefined) {
    daily.push({ date: today, metricType: 'subscribers', value: subscribers });
    let laterNet = 0;
    for (const day of [...net.keys()].sort().reverse()) {
      if (day < today) daily.push({ date: day, metricType: 'subscribers', value: subscribers - laterNet });
      laterNet += net.get(day) ?? 0;
    }
  }

  // Daily revenue (recipe (b)). Without the monetary scope nothing is asked; a 403 means the channel is not in the
  // Partner Program. Either way revenue stays absent (null), never zero.
  let revenueAccess: RevenueAccess = 'missingScope';
  if (grantsYoutubeRevenue(input.scope)) {
    try {
      const revenue = await client.report({ startDate: input.since, endDate: today, sort: 'day' }, ['day'], Object.keys(REVENUE_METRICS));
      revenueAccess = 'available';
      for (const row of revenue) {
        const day = String(row.day);
        if (!isoDayPattern.test(day)) throw malformed('metrics');
        for (const [name, metricType] of Object.entries(REVENUE_METRICS)) daily.push({ date: day, metricType, value: num(row[name]!) });
      }
    } catch (error) {
      if (!(error instanceof PlatformError && error.details.status === 403 && error.kind !== 'rate_limited')) throw error;
      revenueAccess = 'notMonetized';
    }
  }

  // Per-video lifetime totals (recipe (c)), 200 per call, paged with the 1-based startIndex.
  const lifetime = { startDate: channelStart, endDate: today };
  const pagedVideoReport = async (metrics: readonly string[], sortBy: string, apply: (videoId: string, row: Record<string, Cell>) => void) => {
    // The bound stops a server that keeps answering full pages from looping forever.
    const maxPages = Math.ceil(Math.max(ids.length, 1) / VIDEO_REPORT_PAGE) + 1;
    for (let page = 0; page < maxPages; page += 1) {
      const rows = await client.report({ ...lifetime, sort: `-${sortBy}`, maxResults: String(VIDEO_REPORT_PAGE), startIndex: String(page * VIDEO_REPORT_PAGE + 1) }, ['video'], metrics);
      for (const row of rows) apply(String(row.video), row);
      if (rows.length < VIDEO_REPORT_PAGE) break;
    }
  };
  await pagedVideoReport(VIDEO_METRICS, 'views', (videoId, row) => {
    const video = stats.get(videoId);
    if (!video) return;
    video.shares = num(row.shares!);
    video.watchTimeMinutes = num(row.estimatedMinutesWatched!);
    video.averageViewDurationSeconds = num(row.averageViewDuration!);
    video.averageViewPercentage = num(row.averageViewPercentage!);
    video.subscribersGained = num(row.subscribersGained!);
  });
  if (revenueAccess === 'available') {
    // YouTube lists only videos with data: a video missing from a complete listing earned nothing.
    for (const video of stats.values()) Object.assign(video, { estimatedRevenue: 0, estimatedAdRevenue: 0, cpm: 0, monetizedPlaybacks: 0 });
    await pagedVideoReport(VIDEO_REVENUE_METRICS, 'estimatedRevenue', (videoId, row) => {
      const video = stats.get(videoId);
      if (!video) return;
      video.estimatedRevenue = num(row.estimatedRevenue!);
      video.estimatedAdRevenue = num(row.estimatedAdRevenue!);
      video.cpm = num(row.cpm!);
      video.monetizedPlaybacks = num(row.monetizedPlaybacks!);
    });
  }

  // Channel views by traffic source per day over the sync window (recipe (d)), in windows of TRAFFIC_WINDOW_DAYS: a
  // first sync's two years are ~8,000 rows, which one answer should not have to carry.
  const trafficRows: Record<string, Cell>[] = [];
  for (let start = input.since; start <= today; start = addDays(start, TRAFFIC_WINDOW_DAYS)) {
    const end = addDays(start, TRAFFIC_WINDOW_DAYS - 1) < today ? addDays(start, TRAFFIC_WINDOW_DAYS - 1) : today;
    trafficRows.push(...(await client.report({ startDate: start, endDate: end, sort: 'day' }, ['day', 'insightTrafficSourceType'], ['views', 'estimatedMinutesWatched'])));
  }
  const channelTraffic = trafficRows.map((row) => {
    const date = String(row.day);
    if (!isoDayPattern.test(date)) throw malformed('metrics');
    return { date, sourceType: String(row.insightTrafficSourceType), views: num(row.views!), watchTimeMinutes: num(row.estimatedMinutesWatched!) };
  });

  // Demographics (recipe (e)) per period: age × gender shares, and countries by views (the country report has no
  // viewerPercentage: shares are computed from views).
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

  // Retention and per-video traffic (one video per call) for the newest and the most viewed videos, when stale.
  const publishedOf = new Map(content.map((item) => [item.platformContentId, item.publishedAt]));
  const byNewest = [...stats.values()].sort((a, b) => (publishedOf.get(b.videoId)?.getTime() ?? 0) - (publishedOf.get(a.videoId)?.getTime() ?? 0));
  const byViews = [...stats.values()].sort((a, b) => (b.views ?? 0) - (a.views ?? 0));
  const deepDive = [...new Set([...byNewest.slice(0, DEEP_DIVE_RECENT), ...byViews.slice(0, DEEP_DIVE_TOP)].map((video) => video.videoId))].filter((videoId) => {
    const fetchedAt = state.retentionFetchedAt.get(videoId);
    return !fetchedAt || now.getTime() - fetchedAt.getTime() >= DEEP_DIVE_MAX_AGE_MS;
  });
  const retention: YoutubeSyncExtras['retention'] = [];
  const videoTraffic: YoutubeSyncExtras['videoTraffic'] = [];
  for (const videoId of deepDive) {
    const published = publishedOf.get(videoId);
    const startDate = published ? dayOf(published) : channelStart;
    retention.push({ videoId, points: await readRetention(client, videoId, startDate, today) });
    const sources = await client.report({ startDate, endDate: today, filters: `video==${videoId}`, sort: '-views' }, ['insightTrafficSourceType'], ['views', 'estimatedMinutesWatched']);
    videoTraffic.push({ videoId, sources: sources.map((row) => ({ sourceType: String(row.insightTrafficSourceType), views: num(row.views!), watchTimeMinutes: num(row.estimatedMinutesWatched!) })) });
  }

  // Early-views curves: views on each of the first EARLY_VIEW_DAYS days, for videos whose curve is not complete yet,
  // newest first (young videos every sync), at most EARLY_VIEWS_PER_SYNC per sync.
  const earlyViews: YoutubeSyncExtras['earlyViews'] = [];
  const earlyCandidates = byNewest.filter((video) => !state.earlyViewsComplete.has(video.videoId) && publishedOf.get(video.videoId)).slice(0, EARLY_VIEWS_PER_SYNC);
  for (const video of earlyCandidates) {
    const publishDay = dayOf(publishedOf.get(video.videoId)!);
    const windowEnd = addDays(publishDay, EARLY_VIEW_DAYS - 1);
    const endDate = windowEnd < today ? windowEnd : today;
    const rows = await client.report({ startDate: publishDay, endDate, filters: `video==${video.videoId}`, sort: 'day' }, ['day'], ['views']);
    const byDay = new Map(rows.map((row) => [String(row.day), num(row.views!)]));
    // Days up to the last processed one are final (a day YouTube omits had no views); later days are not known yet.
    const knownThrough = endDate < lastProcessedDay ? endDate : lastProcessedDay;
    const views: number[] = [];
    for (let day = publishDay; day <= knownThrough; day = addDays(day, 1)) views.push(byDay.get(day) ?? 0);
    earlyViews.push({ videoId: video.videoId, views, complete: windowEnd <= lastProcessedDay });
  }

  // Impressions and click-through rate from the Reporting API's reach reports (platform-apis.md 1.4 (g)).
  let reach: YoutubeSyncExtras['reach'];
  try {
    reach = await readReach(client, state);
  } catch (error) {
    // The Reporting API may not be enabled for the project (403) or the job may be gone (404): reach stays as stored,
    // the rest of the sync stands. Unreadable bodies and everything else fail the sync.
    if (!(error instanceof PlatformError && (error.details.status === 403 || error.details.status === 404) && error.kind !== 'rate_limited')) throw error;
    // A vanished job (404) is looked for or created again next time; the read mark stays so no day is summed twice.
    reach = { jobId: error.details.status === 404 ? null : state.reachJobId, reportsThrough: state.reachReportsThrough, reportsSince: null, videos: [] };
  }

  const youtube: YoutubeSyncExtras = {
    ...extrasBase,
    revenueAccess,
    channelTraffic,
    videoTraffic,
    demographics,
    retention,
    earlyViews,
    reach,
    usage: client.byApi,
  };
  return { followers: subscribers, daily, content, usage: client.usage, youtube };
}
