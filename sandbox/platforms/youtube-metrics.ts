// YouTube's metrics endpoints: Data API v3 playlistItems.list and videos.list (www.googleapis.com) and YouTube
// Analytics API v2 reports.query (youtubeanalytics.googleapis.com). docs/platforms/youtube.md#data-api, §1.4, §1.5, §7.
//
// Modelled: the uploads playlist (`UU…`) newest first with 50-item pages and opaque page tokens; videos.list with
// at most 50 ids, counts as strings, ISO 8601 durations and thumbnails; reports.query for no dimension, `day`,
// `video` (with the required sort and maxResults ≤ 200), traffic sources (`insightTrafficSourceType`, optionally by
// `day`), demographics (`ageGroup`, `gender`; viewerPercentage), geography (`country`), audience retention
// (`elapsedVideoTimeRatio`, exactly one `video==` filter), `video==` filters, the columnHeaders + rows table with
// `rows` absent when empty, no data for today and the two days before it, revenue metrics only with the monetary
// scope on a monetised channel (else 403), thumbnail impressions refused as YouTube does (400), and 400 "The query is
// not supported." for every other combination. Data API list calls cost 1 quota unit per key or token. The
// Reporting API's reach reports (impressions, click-through rate) are in youtube-reporting.ts.
import { PERSONAS, type Persona } from './demo-accounts.ts';
import { bearerToken, json, listParam, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import {
  catalogue,
  contentTitle,
  countersBetween,
  countersAt,
  dailyValue,
  dayNoise,
  dayOf,
  decodeCursor,
  encodeCursor,
  isoDay,
  isoDuration,
  followerCountAt,
  netFollowers,
  parseIsoDay,
  publishedBy,
  type ContentItem,
} from './metrics-data.ts';
import { secretsEqual, type AccessCheck } from './oauth-core.ts';
import { createYoutubeReporting } from './youtube-reporting.ts';
import { channelTrafficMix, countryShares, demographicShares, retentionCurve, SOURCE_WATCH_FACTOR, splitWhole, videoTrafficMix } from './youtube-audience.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';
import { createYoutubeQuota, type QuotaBucket } from './youtube-quota.ts';
import { createYoutubeSearch } from './youtube-search.ts';
import {
  REVENUE_METRICS,
  THUMBNAIL_METRICS,
  ALL_METRICS,
  DATA_TYPES,
  type Bucket,
  emptyBucket,
  PREMIUM_SHARE_OF_REVENUE,
  metricValue,
  reportOf,
  scaleBucket,
  sortRows,
} from './youtube-report-table.ts';

export const DATA_API_HOST = 'www.googleapis.com';
/** A `dimensions=video` report lists at most this many videos in total, however it is paged. */
export const TOP_VIDEOS_LIMIT = 200;
/** A `filters=video==…` list holds at most this many ids. */
export const MAX_FILTER_VIDEOS = 200;
/** The Data API answers on both: our adapters address www.googleapis.com, Google's client libraries youtube.googleapis.com. */
export const DATA_API_HOSTS = [DATA_API_HOST, 'youtube.googleapis.com'];
export const ANALYTICS_HOST = 'youtubeanalytics.googleapis.com';

const SCOPE_READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const SCOPE_ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const SCOPE_MONETARY = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';

/** The channel facts the metrics need (from youtube.ts's channel). */
export interface MetricsChannel {
  id: string;
  uploadsPlaylistId: string;
  title: string;
  publishedAt: string;
  subscriberCount: number;
}

export interface YoutubeMetricsDeps {
  channels: readonly MetricsChannel[];
  googleApiError(code: number, message: string, item: { reason: string; domain?: string; message?: string; location?: string; locationType?: string }, status?: string, headers?: Record<string, string>): Reply;
  invalidCredentials(): Reply;
}

const VIDEO_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** How each persona's channel behaves. */
export const CHANNEL_SHAPE = {
  large: { perTwoYears: 1000, viewsPerSubscriberDay: 0.15, growth: 0.45, rpm: 5.2, monetised: true },
  medium: { perTwoYears: 200, viewsPerSubscriberDay: 0.08, growth: 0.6, rpm: 3.4, monetised: true },
  small: { perTwoYears: 60, viewsPerSubscriberDay: 0.12, growth: 1.2, rpm: 0, monetised: false },
} as const;

export function youtubeVideos(persona: Persona, subscriberCount: number): ContentItem[] {
  const shape = CHANNEL_SHAPE[persona.tier];
  return catalogue('youtube', persona, {
    perTwoYears: shape.perTwoYears,
    medianViews: Math.max(200, (subscriberCount * shape.viewsPerSubscriberDay * 730) / shape.perTwoYears / 2.2),
    sigma: 1.25,
    likeRate: 0.038,
    commentRate: 0.0045,
    shareRate: 0.002,
    duration: persona.tier === 'large' ? [240, 1500] : [120, 900],
    titles: contentTitle,
  });
}

export function youtubeVideoId(item: ContentItem): string {
  const random = item.random('id');
  return random.chars(VIDEO_ID_ALPHABET, 10) + random.pick([...'AEIMQUYcgkosw048']);
}

/** The video's share of its duration watched on average (percent) and its revenue noise: fixed per video. */
export function videoReportShape(item: ContentItem): { percent: number; noise: number } {
  const random = item.random('report');
  return { percent: 30 + 25 * random.next(), noise: random.next() };
}

/** From this age on a video's traffic mix no longer changes (its launch boost has faded). */
const SETTLED_MIX_AGE = 120;

export function createYoutubeMetrics(context: PlatformContext, deps: YoutubeMetricsDeps) {
  const { store } = context;
  const { googleApiError, invalidCredentials } = deps;
  const videosOf = (index: number) => youtubeVideos(PERSONAS[index]!, deps.channels[index]!.subscriberCount);
  const byId = new Map<string, { index: number; item: ContentItem }>();
  PERSONAS.forEach((_persona, index) => {
    for (const item of videosOf(index)) byId.set(youtubeVideoId(item), { index, item });
  });
  const today = () => dayOf(context.now());
  const videoListingCache = new Map<string, (string | number)[][]>();

  const badRequest = (message: string, reason = 'badRequest', location?: string) => googleApiError(400, message, { reason, ...(location ? { location, locationType: 'parameter' } : {}) }, 'INVALID_ARGUMENT');
  const notSupported = () =>
    googleApiError(400, 'The query is not supported. Check the documentation at https://developers.google.com/youtube/analytics/v2/available_reports for a list of supported queries.', { reason: 'badRequest' }, 'INVALID_ARGUMENT');
  const forbidden = () => googleApiError(403, 'Forbidden', { reason: 'forbidden' }, 'PERMISSION_DENIED');
  const insufficientScope = () => googleApiError(403, 'Request had insufficient authentication scopes.', { message: 'Insufficient Permission', reason: 'insufficientPermissions' }, 'PERMISSION_DENIED');

  /** Data API caller: a token with youtube.readonly, or the app's API key. The credential, or the error reply. */
  function dataApiCaller(request: SandboxRequest): { credential: string } | { error: Reply } {
    const bearer = bearerToken(request.headers);
    if (bearer) {
      const access: AccessCheck = store.checkAccess('youtube', bearer);
      if (!access.ok) return { error: invalidCredentials() };
      if (!access.grant.scopes.includes(SCOPE_READONLY)) return { error: insufficientScope() };
      return { credential: bearer };
    }
    const apiKey = request.query.get('key') ?? (request.headers['x-goog-api-key'] as string | undefined) ?? null;
    if (!apiKey) {
      return { error: googleApiError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.", { reason: 'forbidden' }, 'PERMISSION_DENIED') };
    }
    if (!secretsEqual(apiKey, context.appKeys.youtubeApiKey)) return { error: googleApiError(400, 'API key not valid. Please pass a valid API key.', { reason: 'badRequest' }, 'INVALID_ARGUMENT') };
    return { credential: apiKey };
  }

  const quota = createYoutubeQuota(context);
  const quotaExceeded = () =>
    googleApiError(403, 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', { domain: 'youtube.quota', reason: 'quotaExceeded' });

  /** Charges a list call to the project's bucket (youtube-quota.ts); the refusal to answer when the bucket is spent. */
  function chargeQuota(credential: string, bucket: QuotaBucket = 'general'): Reply | null {
    return quota.charge(credential, bucket) ? null : quotaExceeded();
  }

  function parts(request: SandboxRequest, allowed: readonly string[]): Set<string> | Reply {
    const requested = listParam(request.query, 'part') ?? [];
    if (requested.length === 0) return googleApiError(400, 'Required parameter: part', { reason: 'required', location: 'part', locationType: 'parameter' });
    const unknown = requested.find((part) => !allowed.includes(part));
    if (unknown !== undefined) return googleApiError(400, `'${unknown}'`, { domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' });
    return new Set(requested);
  }

  function playlistItems(request: SandboxRequest): Reply {
    const caller = dataApiCaller(request);
    if ('error' in caller) return caller.error;
    const refused = chargeQuota(caller.credential);
    if (refused) return refused;
    const requested = parts(request, ['id', 'snippet', 'contentDetails', 'status']);
    if (!(requested instanceof Set)) return requested;
    const playlistId = request.query.get('playlistId');
    if (!playlistId) return badRequest('No filter selected. Expected one of: id, playlistId', 'missingRequiredParameter');
    const index = deps.channels.findIndex((channel) => channel.uploadsPlaylistId === playlistId);
    if (index < 0) {
      return googleApiError(404, 'The playlist identified with the request\'s <code>playlistId</code> parameter cannot be found.', { domain: 'youtube.playlistItem', reason: 'playlistNotFound', location: 'playlistId', locationType: 'parameter' }, 'NOT_FOUND');
    }
    const rawMax = request.query.get('maxResults');
    const maxResults = rawMax === null ? 5 : Number(rawMax);
    if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > 50) {
      return badRequest(`Invalid value '${rawMax}'. Values must be within the range: [0, 50]`, 'invalidParameter', 'maxResults');
    }
    const token = request.query.get('pageToken');
    let offset = 0;
    if (token) {
      const decoded = decodeCursor<{ p?: string; o?: number }>(token);
      if (!decoded || decoded.p !== playlistId || typeof decoded.o !== 'number') {
        return badRequest("The request specifies an invalid page token.", 'invalidPageToken', 'pageToken');
      }
      offset = decoded.o;
    }
    const channel = deps.channels[index]!;
    const videos = publishedBy(videosOf(index), context.now());
    const page = videos.slice(offset, offset + maxResults);
    const items = page.map((item, position) => {
      const videoId = youtubeVideoId(item);
      const publishedAt = new Date(item.publishedMs).toISOString().replace('.000Z', 'Z');
      const resource: Record<string, unknown> = { kind: 'youtube#playlistItem', etag: `sbx${videoId}`, id: Buffer.from(`${playlistId}.${videoId}`).toString('base64url') };
      if (requested.has('snippet')) {
        resource.snippet = {
          publishedAt,
          channelId: channel.id,
          title: item.title,
          description: item.description,
          thumbnails: { default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 } },
          channelTitle: channel.title,
          playlistId,
          position: offset + position,
          resourceId: { kind: 'youtube#video', videoId },
          videoOwnerChannelTitle: channel.title,
          videoOwnerChannelId: channel.id,
        };
      }
      if (requested.has('contentDetails')) resource.contentDetails = { videoId, videoPublishedAt: publishedAt };
      if (requested.has('status')) resource.status = { privacyStatus: 'public' };
      return resource;
    });
    const next = offset + maxResults < videos.length && maxResults > 0 ? encodeCursor({ p: playlistId, o: offset + maxResults }) : null;
    const previous = offset > 0 ? encodeCursor({ p: playlistId, o: Math.max(0, offset - maxResults) }) : null;
    return json(200, {
      kind: 'youtube#playlistItemListResponse',
      etag: `sbx-${playlistId}-${offset}-${videos.length}`,
      ...(next ? { nextPageToken: next } : {}),
      ...(previous ? { prevPageToken: previous } : {}),
      items,
      pageInfo: { totalResults: videos.length, resultsPerPage: maxResults },
    });
  }

  function videosList(request: SandboxRequest): Reply {
    const caller = dataApiCaller(request);
    if ('error' in caller) return caller.error;
    const refused = chargeQuota(caller.credential);
    if (refused) return refused;
    const requested = parts(request, ['id', 'snippet', 'contentDetails', 'statistics', 'status']);
    if (!(requested instanceof Set)) return requested;
    const ids = listParam(request.query, 'id');
    // videos.list documents maxResults for `myRating` only, "not supported for use in conjunction with the id
    // parameter"; observed as ignored (corrections row 25, rule 24): never limits the ids answered. Unverified
    // whether Google refuses it, hence the switch.
    if (ids !== null && request.query.has('maxResults') && context.settings.youtubeMaxResultsWithId === 'refused') {
      return googleApiError(400, 'Incompatible parameters specified in the request: id, maxResults', { domain: 'youtube.parameter', reason: 'incompatibleParameters', location: 'maxResults', locationType: 'parameter' }, 'INVALID_ARGUMENT');
    }
    if (ids === null) {
      const other = ['chart', 'myRating'].find((name) => request.query.has(name));
      if (other) return badRequest(`The sandbox does not implement the ${other} filter.`, 'badRequest', other);
      return badRequest('No filter selected. Expected one of: myRating, chart, id', 'missingRequiredParameter');
    }
    if (ids.length > 50) return badRequest('The request specifies an invalid filter parameter.', 'invalidFilters', 'id');
    const day = today();
    const now = context.now().getTime();
    const items = ids.flatMap((id) => {
      const found = byId.get(id);
      if (!found || found.item.publishedMs > now) return [];
      const { item, index } = found;
      const channel = deps.channels[index]!;
      const resource: Record<string, unknown> = { kind: 'youtube#video', etag: `sbx${id}${day}`, id };
      if (requested.has('snippet')) {
        resource.snippet = {
          publishedAt: new Date(item.publishedMs).toISOString().replace('.000Z', 'Z'),
          channelId: channel.id,
          title: item.title,
          description: item.description,
          thumbnails: {
            default: { url: `https://i.ytimg.com/vi/${id}/default.jpg`, width: 120, height: 90 },
            medium: { url: `https://i.ytimg.com/vi/${id}/mqdefault.jpg`, width: 320, height: 180 },
            high: { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360 },
          },
          channelTitle: channel.title,
          tags: item.description.match(/#\w+/g)?.map((tag) => tag.slice(1)) ?? [],
          categoryId: PERSONAS[index]!.key === 'theo' ? '26' : PERSONAS[index]!.key === 'maya' ? '19' : '27',
          liveBroadcastContent: 'none',
          localized: { title: item.title, description: item.description },
        };
      }
      if (requested.has('contentDetails')) {
        resource.contentDetails = { duration: isoDuration(item.duration), dimension: '2d', definition: 'hd', caption: 'false', licensedContent: true, contentRating: {}, projection: 'rectangular' };
      }
      if (requested.has('statistics')) {
        const counters = countersAt(item, day);
        // Counts are strings; dislikeCount is private and not sent.
        resource.statistics = { viewCount: String(counters.views), likeCount: String(counters.likes), favoriteCount: '0', commentCount: String(counters.comments) };
      }
      if (requested.has('status')) resource.status = { uploadStatus: 'processed', privacyStatus: 'public', license: 'youtube', embeddable: true, publicStatsViewable: true, madeForKids: false };
      return [resource];
    });
    return json(200, {
      kind: 'youtube#videoListResponse',
      etag: `sbx-videos-${day}-${items.length}`,
      ...(items.length > 0 ? { items } : {}),
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    });
  }

  /** Adds one channel-level day to a bucket (no video filter). */
  function addChannelDay(bucket: Bucket, index: number, day: number): void {
    const persona = PERSONAS[index]!;
    const channel = deps.channels[index]!;
    const shape = CHANNEL_SHAPE[persona.tier];
    const views = dailyValue('youtube', persona, 'report:views', day, channel.subscriberCount * shape.viewsPerSubscriberDay, shape.growth, 0.22);
    const random = dayNoise('youtube', persona, 'report:ratios', day);
    const ratio = () => 0.8 + 0.4 * random.next();
    const averageSeconds = (persona.tier === 'large' ? 330 : 240) * ratio();
    const percent = 32 + 18 * random.next();
    const likes = Math.round(views * 0.036 * ratio());
    const subscribers = netFollowers('youtube', persona, channel.subscriberCount, shape.growth, day);
    addCell(bucket, index, views, averageSeconds, percent, likes, Math.round(views * 0.0042 * ratio()), Math.round(views * 0.0019 * ratio()), subscribers.gained, subscribers.lost, random.next());
  }

  function addVideoRange(bucket: Bucket, index: number, item: ContentItem, fromDay: number, toDay: number): void {
    const gained = countersBetween(item, fromDay, toDay);
    if (gained.views <= 0) return;
    const { percent, noise } = videoReportShape(item);
    const averageSeconds = (item.duration * percent) / 100;
    const subscribersGained = Math.round(gained.views * 0.0021);
    addCell(bucket, index, gained.views, averageSeconds, percent, gained.likes, gained.comments, gained.shares, subscribersGained, Math.round(subscribersGained * 0.12), noise);
  }

  function addCell(bucket: Bucket, index: number, views: number, averageSeconds: number, percent: number, likes: number, comments: number, shares: number, gained: number, lost: number, noise: number): void {
    const shape = CHANNEL_SHAPE[PERSONAS[index]!.tier];
    bucket.views += views;
    bucket.engagedViews += Math.round(views * (0.74 + 0.08 * noise));
    bucket.estimatedMinutesWatched += (views * averageSeconds) / 60;
    bucket.percentWeighted += views * percent;
    bucket.likes += likes;
    bucket.dislikes += Math.round(likes * 0.025);
    bucket.comments += comments;
    bucket.shares += shares;
    bucket.subscribersGained += gained;
    bucket.subscribersLost += lost;
    const revenue = (views / 1000) * shape.rpm * (0.8 + 0.4 * noise);
    bucket.revenue += revenue;
    bucket.gross += revenue * 1.75;
    bucket.redRevenue += revenue * PREMIUM_SHARE_OF_REVENUE;
    const monetized = Math.round(views * 0.42);
    bucket.monetizedPlaybacks += monetized;
    bucket.adImpressions += Math.round(monetized * 1.4);
  }

  function reportsQuery(request: SandboxRequest): Reply {
    const access = store.checkAccess('youtube', bearerToken(request.headers));
    if (!access.ok) {
      if (!bearerToken(request.headers)) {
        return googleApiError(401, 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.', { message: 'Login Required.', reason: 'required', location: 'Authorization', locationType: 'header' }, 'UNAUTHENTICATED');
      }
      return invalidCredentials();
    }
    const scopes = access.grant.scopes;
    if (!scopes.includes(SCOPE_ANALYTICS) && !scopes.includes(SCOPE_MONETARY)) return insufficientScope();
    const { query } = request;
    for (const name of ['ids', 'startDate', 'endDate', 'metrics']) {
      if (!query.get(name)) return googleApiError(400, `Required parameter: ${name}`, { reason: 'required', location: name, locationType: 'parameter' }, 'INVALID_ARGUMENT');
    }
    const index = access.grant.accountIndex;
    const channel = deps.channels[index]!;
    const ids = query.get('ids')!;
    if (!/^[a-zA-Z]+==[a-zA-Z0-9_+-]+$/.test(ids)) return badRequest(`Invalid value '${ids}'. Values must match the following regular expression: '[a-zA-Z]+==[a-zA-Z0-9_+-]+'`, 'invalidParameter', 'ids');
    if (ids !== 'channel==MINE' && ids !== `channel==${channel.id}`) return forbidden();
    const startDay = parseIsoDay(query.get('startDate'));
    const endDay = parseIsoDay(query.get('endDate'));
    if (startDay === null) return badRequest(`Invalid value '${query.get('startDate')}'. Values must match the following regular expression: '[0-9]{4}-[0-9]{2}-[0-9]{2}'`, 'invalidParameter', 'startDate');
    if (endDay === null) return badRequest(`Invalid value '${query.get('endDate')}'. Values must match the following regular expression: '[0-9]{4}-[0-9]{2}-[0-9]{2}'`, 'invalidParameter', 'endDate');
    if (endDay < startDay) return badRequest('The start date must be on or before the end date.', 'badRequest');
    const metrics = listParam(query, 'metrics')!;
    const unknownMetric = metrics.find((metric) => !ALL_METRICS.includes(metric));
    if (unknownMetric !== undefined) return badRequest(`Unknown identifier (${unknownMetric}) given in field parameters.metrics.`, 'badRequest');
    if (new Set(metrics).size !== metrics.length) return notSupported();
    const persona = PERSONAS[index]!;
    if (metrics.some((metric) => (REVENUE_METRICS as readonly string[]).includes(metric)) && (!scopes.includes(SCOPE_MONETARY) || !CHANNEL_SHAPE[persona.tier].monetised)) return forbidden();
    // Thumbnail impressions and click-through rate: refused with every dimension combination (use the Reporting API).
    if (metrics.some((metric) => (THUMBNAIL_METRICS as readonly string[]).includes(metric))) return notSupported();

    const dimensions = listParam(query, 'dimensions') ?? [];
    const report = reportOf(dimensions, metrics);
    if (report === null) return notSupported();

    // Filters: only video==ID[,ID…], at most MAX_FILTER_VIDEOS ids.
    let filterVideos: ContentItem[] | null = null;
    const rawFilters = query.get('filters');
    if (rawFilters) {
      const filters = rawFilters.split(';').filter(Boolean);
      if (filters.length !== 1 || !filters[0]!.startsWith('video==')) return notSupported();
      const filterIds = filters[0]!.slice('video=='.length).split(',').filter(Boolean);
      if (filterIds.length === 0) return notSupported();
      if (filterIds.length > MAX_FILTER_VIDEOS) return badRequest(`The filter lists ${filterIds.length} videos; at most ${MAX_FILTER_VIDEOS} are allowed in one query.`, 'badRequest', 'filters');
      filterVideos = filterIds.flatMap((id) => {
        const found = byId.get(id);
        return found && found.index === index ? [found.item] : [];
      });
      // The retention report is for exactly one video.
      if (report === 'retention' && filterIds.length !== 1) return notSupported();
    } else if (report === 'retention') {
      return notSupported();
    }

    const sort = listParam(query, 'sort') ?? [];
    const rawMax = query.get('maxResults');
    const maxResults = rawMax === null ? null : Number(rawMax);
    if (maxResults !== null && (!Number.isInteger(maxResults) || maxResults < 1)) return badRequest(`Invalid value '${rawMax}'. Values must be within the range: [1, ]`, 'invalidParameter', 'maxResults');
    const rawStart = query.get('startIndex');
    const startIndex = rawStart === null ? 1 : Number(rawStart);
    if (!Number.isInteger(startIndex) || startIndex < 1) return badRequest(`Invalid value '${rawStart}'. Values must be within the range: [1, ]`, 'invalidParameter', 'startIndex');

    if (report === 'video') {
      // The top-videos report: a descending metric sort and maxResults ≤ 200 are required, and the listing reaches
      // at most TOP_VIDEOS_LIMIT rows in total: paging past them is refused (per-video figures of a larger channel
      // come from filters=video==… batches of known ids).
      if (sort.length !== 1 || !sort[0]!.startsWith('-') || !metrics.includes(sort[0]!.slice(1)) || maxResults === null || maxResults > TOP_VIDEOS_LIMIT) return notSupported();
      if (startIndex > TOP_VIDEOS_LIMIT) {
        return badRequest(`The top-videos report has at most ${TOP_VIDEOS_LIMIT} rows: startIndex ${startIndex} is past them. Query specific videos with filters=video==ID1,ID2,… instead.`, 'badRequest', 'startIndex');
      }
    } else if (report === 'day') {
      if (sort.some((key) => key !== 'day' && key !== '-day')) return notSupported();
    } else if (report === 'total') {
      if (sort.length > 0) return notSupported();
    } else if (sort.some((key) => ![...dimensions, ...metrics].includes(key.replace(/^-/, '')))) {
      return notSupported();
    }

    // Data exists from the channel's creation until three days before today.
    const firstDay = Math.max(startDay, dayOf(Date.parse(channel.publishedAt)));
    const lastDay = Math.min(endDay, today() - 3);
    // Traffic-source reports refuse more than 50,000 video-days (revision history, 2024-11-15).
    if (report === 'traffic' && filterVideos && filterVideos.length * Math.max(1, lastDay - firstDay + 1) > 50_000) {
      return badRequest('The query exceeds the maximum number of videos multiplied by days (50000). Request fewer videos or a shorter date range.', 'badRequest');
    }
    const videos = filterVideos ?? publishedBy(videosOf(index), new Date((lastDay + 1) * 86_400_000));
    let rows: (string | number)[][] = [];
    const valuesOf = (bucket: Bucket) => metrics.map((metric) => metricValue(bucket, metric));
    /** The channel's (or the filtered videos') numbers over days [from, to]. */
    const rangeBucket = (from: number, to: number) => {
      const bucket = emptyBucket();
      if (filterVideos) for (const item of filterVideos) addVideoRange(bucket, index, item, from, to);
      else for (let day = from; day <= to; day += 1) addChannelDay(bucket, index, day);
      return bucket;
    };
    if (firstDay <= lastDay) {
      if (report === 'day') {
        for (let day = firstDay; day <= lastDay; day += 1) rows.push([isoDay(day), ...valuesOf(rangeBucket(day, day))]);
        if (sort[0] === '-day') rows.reverse();
      } else if (report === 'video') {
        // Pages of one listing (startIndex) share the computation: keep the last listing per query shape.
        const cacheKey = `${index}|${firstDay}|${lastDay}|${metrics.join(',')}|${sort[0]}|${rawFilters ?? ''}|${today()}`;
        const cached = videoListingCache.get(cacheKey);
        if (cached) rows = cached;
        else {
          const perVideo = videos.map((item) => {
            const bucket = emptyBucket();
            addVideoRange(bucket, index, item, firstDay, lastDay);
            return { id: youtubeVideoId(item), bucket };
          });
          const key = sort[0]!.slice(1);
          rows = perVideo
            .filter((entry) => entry.bucket.views > 0)
            .map((entry) => [entry.id, ...valuesOf(entry.bucket)])
            .sort((a, b) => (b[1 + metrics.indexOf(key)] as number) - (a[1 + metrics.indexOf(key)] as number) || (String(a[0]) < String(b[0]) ? -1 : 1));
          videoListingCache.clear();
          videoListingCache.set(cacheKey, rows);
        }
      } else if (report === 'traffic') {
        rows = trafficRows(index, filterVideos, firstDay, lastDay, dimensions.includes('day'), metrics);
      } else if (report === 'demographics') {
        const bucket = rangeBucket(firstDay, lastDay);
        if (bucket.views > 0) {
          const shares = demographicShares(persona, firstDay, lastDay, filterVideos?.length === 1 ? filterVideos[0]!.seq : undefined);
          const grouped = new Map<string, number>();
          for (const cell of shares) {
            const key = dimensions.map((dimension) => (dimension === 'ageGroup' ? cell.ageGroup : cell.gender)).join('|');
            grouped.set(key, (grouped.get(key) ?? 0) + cell.percent);
          }
          rows = [...grouped].map(([key, percent]) => [...key.split('|'), Math.round(percent * 100) / 100]);
        }
      } else if (report === 'country') {
        const bucket = rangeBucket(firstDay, lastDay);
        if (bucket.views > 0) {
          const shares = countryShares(persona, firstDay, lastDay);
          const views = splitWhole(bucket.views, shares);
          rows = [...shares].flatMap(([country, share]) => {
            const part = scaleBucket(bucket, share, views.get(country)!);
            return part.views > 0 ? [[country, ...valuesOf(part)]] : [];
          });
        }
      } else if (report === 'retention') {
        const item = filterVideos![0];
        if (item && rangeBucket(firstDay, lastDay).views > 0) {
          rows = retentionCurve(item, videoReportShape(item).percent).map((point) =>
            [point.ratio, ...metrics.map((metric) => (metric === 'audienceWatchRatio' ? point.watch : point.relative))],
          );
        }
      } else {
        const bucket = rangeBucket(firstDay, lastDay);
        if (bucket.views > 0 || !filterVideos) rows = [valuesOf(bucket)];
      }
    }
    if (report !== 'video' && report !== 'day' && sort.length > 0) rows = sortRows(rows, [...dimensions, ...metrics], sort);
    // The unfiltered top-videos listing ends at its 200th row, wherever the page starts.
    const end = report === 'video' && !filterVideos ? TOP_VIDEOS_LIMIT : Infinity;
    rows = rows.slice(startIndex - 1, Math.min(end, maxResults === null ? Infinity : startIndex - 1 + maxResults));
    const dimensionType = (dimension: string) => (dimension === 'elapsedVideoTimeRatio' ? 'FLOAT' : 'STRING');
    const columnHeaders = [
      ...dimensions.map((dimension) => ({ name: dimension, columnType: 'DIMENSION', dataType: dimensionType(dimension) })),
      ...metrics.map((metric) => ({ name: metric, columnType: 'METRIC', dataType: DATA_TYPES[metric] ?? 'INTEGER' })),
    ];
    // No data: `rows` is left out entirely.
    return json(200, { kind: 'youtubeAnalytics#resultTable', columnHeaders, ...(rows.length > 0 ? { rows } : {}) });
  }

  /** Views (and minutes) by traffic source over days [from, to], per day or in total, channel-wide or for the filtered videos. */
  function trafficRows(index: number, filterVideos: ContentItem[] | null, from: number, to: number, byDay: boolean, metrics: readonly string[]): (string | number)[][] {
    const persona = PERSONAS[index]!;
    const totals = new Map<string, { views: number; minutes: number }>();
    const rows: (string | number)[][] = [];
    const add = (target: Map<string, { views: number; minutes: number }>, views: Map<string, number>, minutesPerView: number) => {
      for (const [source, count] of views) {
        if (count <= 0) continue;
        const entry = target.get(source) ?? { views: 0, minutes: 0 };
        entry.views += count;
        entry.minutes += count * minutesPerView * (SOURCE_WATCH_FACTOR[source] ?? 1);
        target.set(source, entry);
      }
    };
    if (filterVideos && !byDay) {
      // A video's mix only changes in its first weeks (videoTrafficMix): day by day until then, one span after.
      for (const item of filterVideos) {
        const settled = dayOf(item.publishedMs) + SETTLED_MIX_AGE;
        for (let day = from; day <= Math.min(to, settled - 1); day += 1) {
          const bucket = emptyBucket();
          addVideoRange(bucket, index, item, day, day);
          if (bucket.views > 0) add(totals, splitWhole(bucket.views, videoTrafficMix(persona, item, day - dayOf(item.publishedMs))), bucket.estimatedMinutesWatched / bucket.views);
        }
        if (to >= Math.max(from, settled)) {
          const bucket = emptyBucket();
          addVideoRange(bucket, index, item, Math.max(from, settled), to);
          if (bucket.views > 0) add(totals, splitWhole(bucket.views, videoTrafficMix(persona, item, SETTLED_MIX_AGE)), bucket.estimatedMinutesWatched / bucket.views);
        }
      }
    }
    for (let day = from; day <= to && !(filterVideos && !byDay); day += 1) {
      const dayTotals = byDay ? new Map<string, { views: number; minutes: number }>() : totals;
      if (filterVideos) {
        for (const item of filterVideos) {
          const bucket = emptyBucket();
          addVideoRange(bucket, index, item, day, day);
          if (bucket.views <= 0) continue;
          add(dayTotals, splitWhole(bucket.views, videoTrafficMix(persona, item, day - dayOf(item.publishedMs))), bucket.estimatedMinutesWatched / bucket.views);
        }
      } else {
        const bucket = emptyBucket();
        addChannelDay(bucket, index, day);
        if (bucket.views > 0) add(dayTotals, splitWhole(bucket.views, channelTrafficMix(persona, day)), bucket.estimatedMinutesWatched / bucket.views);
      }
      if (byDay) {
        // Within a day, sources come most viewed first.
        const sorted = [...dayTotals].sort((a, b) => b[1].views - a[1].views || (a[0] < b[0] ? -1 : 1));
        for (const [source, entry] of sorted) rows.push([isoDay(day), source, ...metrics.map((metric) => (metric === 'views' ? entry.views : Math.round(entry.minutes)))]);
      }
    }
    if (byDay) return rows;
    return [...totals]
      .sort((a, b) => b[1].views - a[1].views || (a[0] < b[0] ? -1 : 1))
      .map(([source, entry]) => [source, ...metrics.map((metric) => (metric === 'views' ? entry.views : Math.round(entry.minutes)))]);
  }

  const routes: RouteDefinition[] = [
    { platform: 'youtube', hosts: DATA_API_HOSTS, method: 'GET', path: '/youtube/v3/playlistItems', endpoint: 'playlistItems.list', group: 'metrics', handle: playlistItems },
    { platform: 'youtube', hosts: DATA_API_HOSTS, method: 'GET', path: '/youtube/v3/videos', endpoint: 'videos.list', group: 'metrics', handle: videosList },
    { platform: 'youtube', hosts: [ANALYTICS_HOST], method: 'GET', path: '/v2/reports', endpoint: 'reports.query', group: 'metrics', handle: reportsQuery },
    ...createYoutubeReporting(context, { channels: deps.channels, videosOf, youtubeVideoId, googleApiError, invalidCredentials }).routes,
    createYoutubeSearch(context, { channels: deps.channels, googleApiError, dataApiCaller, chargeSearch: (credential) => chargeQuota(credential, 'search'), videosOf, youtubeVideoId }),
  ];

  function failure(kind: RenderedFailure): Reply {
    switch (kind) {
      case 'rate_limited':
        return googleApiError(429, 'Resource has been exhausted (e.g. check quota).', { reason: 'rateLimitExceeded', domain: 'usageLimits' }, 'RESOURCE_EXHAUSTED', { 'retry-after': '30' });
      case 'token_expired':
      case 'revoked':
      case 'invalid_grant':
        return invalidCredentials();
      default:
        return googleApiError(503, 'The service is currently unavailable.', { reason: 'backendError' }, 'UNAVAILABLE');
    }
  }

  /** Videos published by `now` (for channels.list statistics.videoCount). */
  const videoCount = (index: number) => publishedBy(videosOf(index), context.now()).length;

  /**
   * The channel's subscribers at the start of the sandbox's today: the count on the anchor day plus the daily changes
   * since, which the reports give as subscribersGained − subscribersLost (followerCountAt). A count read today less the
   * gains reported since gives each past day's count, as on YouTube (a count that stood still while the reports kept
   * gaining had read, two years back, as a negative count).
   */
  const subscriberCount = (index: number) => followerCountAt('youtube', PERSONAS[index]!, deps.channels[index]!.subscriberCount, CHANNEL_SHAPE[PERSONAS[index]!.tier].growth, today());

  return { routes, failure, videoCount, subscriberCount, chargeQuota, quota };
}
