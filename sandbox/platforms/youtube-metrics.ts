// YouTube's metrics endpoints: Data API v3 playlistItems.list and videos.list (www.googleapis.com) and YouTube
// Analytics API v2 reports.query (youtubeanalytics.googleapis.com). platform-apis.md §1.3, §1.4, §1.5, §7.
//
// Modelled: the uploads playlist (`UU…`) newest first with 50-item pages and opaque page tokens; videos.list with
// at most 50 ids and counts as strings; reports.query for no dimension, `day` and `video` (with the required sort
// and maxResults), `video==` filters, the columnHeaders + rows table with `rows` absent when empty, no data for
// today and the two days before it, revenue metrics only with the monetary scope on a monetised channel (else 403),
// 400 "The query is not supported." for everything else. Data API list calls cost 1 quota unit per key or token.
import { PERSONAS, type Persona } from './demo-accounts.ts';
import { bearerToken, json, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
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
  netFollowers,
  parseIsoDay,
  publishedBy,
  type ContentItem,
} from './metrics-data.ts';
import { secretsEqual, type AccessCheck } from './oauth-core.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

export const DATA_API_HOST = 'www.googleapis.com';
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
const CHANNEL_SHAPE = {
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

const ADDITIVE = ['views', 'engagedViews', 'estimatedMinutesWatched', 'likes', 'dislikes', 'comments', 'shares', 'subscribersGained', 'subscribersLost'] as const;
const REVENUE_METRICS = ['estimatedRevenue', 'estimatedAdRevenue', 'grossRevenue', 'cpm', 'monetizedPlaybacks', 'playbackBasedCpm', 'adImpressions', 'estimatedRedPartnerRevenue'] as const;
const BASIC_METRICS = [...ADDITIVE, 'averageViewDuration', 'averageViewPercentage'] as const;
const ALL_METRICS: readonly string[] = [...BASIC_METRICS, ...REVENUE_METRICS];
const DATA_TYPES: Record<string, 'INTEGER' | 'FLOAT' | 'CURRENCY'> = {
  averageViewPercentage: 'FLOAT',
  estimatedRevenue: 'CURRENCY',
  estimatedAdRevenue: 'CURRENCY',
  grossRevenue: 'CURRENCY',
  estimatedRedPartnerRevenue: 'CURRENCY',
  cpm: 'CURRENCY',
  playbackBasedCpm: 'CURRENCY',
};

/** Sums over a set of (day, video) cells; averages and CPMs are derived at the end. */
interface Bucket {
  views: number;
  engagedViews: number;
  estimatedMinutesWatched: number;
  likes: number;
  dislikes: number;
  comments: number;
  shares: number;
  subscribersGained: number;
  subscribersLost: number;
  percentWeighted: number;
  revenue: number;
  gross: number;
  redRevenue: number;
  monetizedPlaybacks: number;
  adImpressions: number;
}

const emptyBucket = (): Bucket => ({
  views: 0,
  engagedViews: 0,
  estimatedMinutesWatched: 0,
  likes: 0,
  dislikes: 0,
  comments: 0,
  shares: 0,
  subscribersGained: 0,
  subscribersLost: 0,
  percentWeighted: 0,
  revenue: 0,
  gross: 0,
  redRevenue: 0,
  monetizedPlaybacks: 0,
  adImpressions: 0,
});

const round2 = (value: number) => Math.round(value * 100) / 100;

function metricValue(bucket: Bucket, metric: string): number {
  switch (metric) {
    case 'averageViewDuration':
      return bucket.views ? Math.round((bucket.estimatedMinutesWatched * 60) / bucket.views) : 0;
    case 'averageViewPercentage':
      return bucket.views ? round2(bucket.percentWeighted / bucket.views) : 0;
    case 'estimatedMinutesWatched':
      return Math.round(bucket.estimatedMinutesWatched);
    case 'estimatedRevenue':
      return round2(bucket.revenue);
    case 'estimatedAdRevenue':
      return round2(bucket.revenue * 0.84);
    case 'grossRevenue':
      return round2(bucket.gross);
    case 'estimatedRedPartnerRevenue':
      return round2(bucket.redRevenue);
    case 'monetizedPlaybacks':
      return bucket.monetizedPlaybacks;
    case 'adImpressions':
      return bucket.adImpressions;
    case 'cpm':
      return bucket.adImpressions ? round2((bucket.gross / bucket.adImpressions) * 1000) : 0;
    case 'playbackBasedCpm':
      return bucket.monetizedPlaybacks ? round2((bucket.gross / bucket.monetizedPlaybacks) * 1000) : 0;
    default:
      return bucket[metric as (typeof ADDITIVE)[number]] ?? 0;
  }
}

export function createYoutubeMetrics(context: PlatformContext, deps: YoutubeMetricsDeps) {
  const { store } = context;
  const { googleApiError, invalidCredentials } = deps;
  const videosOf = (index: number) => youtubeVideos(PERSONAS[index]!, deps.channels[index]!.subscriberCount);
  const byId = new Map<string, { index: number; item: ContentItem }>();
  PERSONAS.forEach((_persona, index) => {
    for (const item of videosOf(index)) byId.set(youtubeVideoId(item), { index, item });
  });
  const today = () => dayOf(context.now());

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

  function chargeQuota(credential: string, units = 1): void {
    context.quotaUnits.set(credential, (context.quotaUnits.get(credential) ?? 0) + units);
  }

  function parts(request: SandboxRequest, allowed: readonly string[]): Set<string> | Reply {
    const raw = request.query.get('part');
    if (!raw) return googleApiError(400, 'Required parameter: part', { reason: 'required', location: 'part', locationType: 'parameter' });
    const requested = raw.split(',').map((part) => part.trim());
    const unknown = requested.find((part) => !allowed.includes(part));
    if (unknown !== undefined) return googleApiError(400, `'${unknown}'`, { domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' });
    return new Set(requested);
  }

  function playlistItems(request: SandboxRequest): Reply {
    const caller = dataApiCaller(request);
    if ('error' in caller) return caller.error;
    chargeQuota(caller.credential);
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
    chargeQuota(caller.credential);
    const requested = parts(request, ['id', 'snippet', 'contentDetails', 'statistics', 'status']);
    if (!(requested instanceof Set)) return requested;
    const rawIds = request.query.get('id');
    if (rawIds === null) {
      const other = ['chart', 'myRating'].find((name) => request.query.has(name));
      if (other) return badRequest(`The sandbox does not implement the ${other} filter.`, 'badRequest', other);
      return badRequest('No filter selected. Expected one of: myRating, chart, id', 'missingRequiredParameter');
    }
    const ids = rawIds.split(',').map((id) => id.trim()).filter(Boolean);
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
          thumbnails: { default: { url: `https://i.ytimg.com/vi/${id}/default.jpg`, width: 120, height: 90 } },
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
    const random = item.random('report');
    const percent = 30 + 25 * random.next();
    const averageSeconds = (item.duration * percent) / 100;
    const subscribersGained = Math.round(gained.views * 0.0021);
    addCell(bucket, index, gained.views, averageSeconds, percent, gained.likes, gained.comments, gained.shares, subscribersGained, Math.round(subscribersGained * 0.12), random.next());
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
    bucket.redRevenue += revenue * 0.04;
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
    const metrics = query.get('metrics')!.split(',').map((metric) => metric.trim());
    const unknownMetric = metrics.find((metric) => !ALL_METRICS.includes(metric));
    if (unknownMetric !== undefined) return badRequest(`Unknown identifier (${unknownMetric}) given in field parameters.metrics.`, 'badRequest');
    if (new Set(metrics).size !== metrics.length) return notSupported();
    const persona = PERSONAS[index]!;
    if (metrics.some((metric) => (REVENUE_METRICS as readonly string[]).includes(metric)) && (!scopes.includes(SCOPE_MONETARY) || !CHANNEL_SHAPE[persona.tier].monetised)) return forbidden();

    const dimensions = (query.get('dimensions') ?? '').split(',').map((dimension) => dimension.trim()).filter(Boolean);
    const dimension = dimensions.length === 0 ? null : dimensions.length === 1 && (dimensions[0] === 'day' || dimensions[0] === 'video') ? dimensions[0] : undefined;
    if (dimension === undefined) return notSupported();

    // Filters: only video==ID[,ID…] (up to 500).
    let filterVideos: ContentItem[] | null = null;
    const rawFilters = query.get('filters');
    if (rawFilters) {
      const filters = rawFilters.split(';').filter(Boolean);
      if (filters.length !== 1 || !filters[0]!.startsWith('video==')) return notSupported();
      const filterIds = filters[0]!.slice('video=='.length).split(',').filter(Boolean);
      if (filterIds.length === 0 || filterIds.length > 500) return notSupported();
      filterVideos = filterIds.flatMap((id) => {
        const found = byId.get(id);
        return found && found.index === index ? [found.item] : [];
      });
    }

    const sort = (query.get('sort') ?? '').split(',').map((key) => key.trim()).filter(Boolean);
    const rawMax = query.get('maxResults');
    const maxResults = rawMax === null ? null : Number(rawMax);
    if (maxResults !== null && (!Number.isInteger(maxResults) || maxResults < 1)) return badRequest(`Invalid value '${rawMax}'. Values must be within the range: [1, ]`, 'invalidParameter', 'maxResults');
    const rawStart = query.get('startIndex');
    const startIndex = rawStart === null ? 1 : Number(rawStart);
    if (!Number.isInteger(startIndex) || startIndex < 1) return badRequest(`Invalid value '${rawStart}'. Values must be within the range: [1, ]`, 'invalidParameter', 'startIndex');

    if (dimension === 'video') {
      // The top-videos report: a descending metric sort and maxResults ≤ 200 are required.
      if (sort.length !== 1 || !sort[0]!.startsWith('-') || !metrics.includes(sort[0]!.slice(1)) || maxResults === null || maxResults > 200) return notSupported();
    } else if (dimension === 'day') {
      if (sort.some((key) => key !== 'day' && key !== '-day')) return notSupported();
    } else if (sort.length > 0) {
      return notSupported();
    }

    // Data exists from the channel's creation until three days before today.
    const firstDay = Math.max(startDay, dayOf(Date.parse(channel.publishedAt)));
    const lastDay = Math.min(endDay, today() - 3);
    const videos = filterVideos ?? publishedBy(videosOf(index), new Date((lastDay + 1) * 86_400_000));
    let rows: (string | number)[][] = [];
    const valuesOf = (bucket: Bucket) => metrics.map((metric) => metricValue(bucket, metric));
    if (firstDay <= lastDay) {
      if (dimension === 'day') {
        for (let day = firstDay; day <= lastDay; day += 1) {
          const bucket = emptyBucket();
          if (filterVideos) for (const item of filterVideos) addVideoRange(bucket, index, item, day, day);
          else addChannelDay(bucket, index, day);
          rows.push([isoDay(day), ...valuesOf(bucket)]);
        }
        if (sort[0] === '-day') rows.reverse();
      } else if (dimension === 'video') {
        const perVideo = videos.map((item) => {
          const bucket = emptyBucket();
          addVideoRange(bucket, index, item, firstDay, lastDay);
          return { id: youtubeVideoId(item), bucket };
        });
        const key = sort[0]!.slice(1);
        rows = perVideo
          .filter((entry) => entry.bucket.views > 0)
          .map((entry) => [entry.id, ...valuesOf(entry.bucket)])
          .sort((a, b) => (b[1 + metrics.indexOf(key)] as number) - (a[1 + metrics.indexOf(key)] as number) || String(a[0]).localeCompare(String(b[0])));
      } else {
        const bucket = emptyBucket();
        if (filterVideos) for (const item of filterVideos) addVideoRange(bucket, index, item, firstDay, lastDay);
        else for (let day = firstDay; day <= lastDay; day += 1) addChannelDay(bucket, index, day);
        if (bucket.views > 0 || !filterVideos) rows = [valuesOf(bucket)];
      }
    }
    rows = rows.slice(startIndex - 1, maxResults === null ? undefined : startIndex - 1 + maxResults);
    const columnHeaders = [
      ...(dimension ? [{ name: dimension, columnType: 'DIMENSION', dataType: 'STRING' }] : []),
      ...metrics.map((metric) => ({ name: metric, columnType: 'METRIC', dataType: DATA_TYPES[metric] ?? 'INTEGER' })),
    ];
    // No data: `rows` is left out entirely.
    return json(200, { kind: 'youtubeAnalytics#resultTable', columnHeaders, ...(rows.length > 0 ? { rows } : {}) });
  }

  const routes: RouteDefinition[] = [
    { platform: 'youtube', hosts: [DATA_API_HOST], method: 'GET', path: '/youtube/v3/playlistItems', endpoint: 'playlistItems.list', group: 'metrics', handle: playlistItems },
    { platform: 'youtube', hosts: [DATA_API_HOST], method: 'GET', path: '/youtube/v3/videos', endpoint: 'videos.list', group: 'metrics', handle: videosList },
    { platform: 'youtube', hosts: [ANALYTICS_HOST], method: 'GET', path: '/v2/reports', endpoint: 'reports.query', group: 'metrics', handle: reportsQuery },
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

  return { routes, failure, videoCount, chargeQuota };
}
