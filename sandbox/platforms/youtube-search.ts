// YouTube Data API v3 `search.list` (developers.google.com/youtube/v3/docs/search/list): the product never calls it
// (uploads come from the uploads playlist), but it is served so that its quota is what Google documents: its own
// bucket of 100 calls a day at 1 unit each since 2026-06-01, never the 10,000-unit general bucket
// (platform-apis-corrections.md row 26, imitation rule 25; youtube-quota.ts).
//
// Modelled: `part=snippet` (or `id`), `q` (every word in the title), `channelId`, `type` (video, channel), `maxResults`
// 0–50 (default 5), opaque page tokens; results newest first. Other filters are refused by name.
import { PERSONAS } from './demo-accounts.ts';
import { json, listParam, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { decodeCursor, encodeCursor, publishedBy, type ContentItem } from './metrics-data.ts';
import type { PlatformContext } from './platform-module.ts';
import type { MetricsChannel, YoutubeMetricsDeps } from './youtube-metrics.ts';

const SUPPORTED = new Set(['part', 'q', 'channelId', 'type', 'maxResults', 'pageToken', 'order', 'key']);

export interface YoutubeSearchDeps {
  channels: readonly MetricsChannel[];
  googleApiError: YoutubeMetricsDeps['googleApiError'];
  dataApiCaller(request: SandboxRequest): { credential: string } | { error: Reply };
  /** Charges one call to the search bucket; the refusal when it is spent. */
  chargeSearch(credential: string): Reply | null;
  videosOf(index: number): ContentItem[];
  youtubeVideoId(item: ContentItem): string;
}

export function createYoutubeSearch(context: PlatformContext, deps: YoutubeSearchDeps): RouteDefinition {
  const { googleApiError } = deps;
  const badRequest = (message: string, reason: string, location: string) => googleApiError(400, message, { reason, location, locationType: 'parameter' }, 'INVALID_ARGUMENT');

  function search(request: SandboxRequest): Reply {
    const caller = deps.dataApiCaller(request);
    if ('error' in caller) return caller.error;
    const refused = deps.chargeSearch(caller.credential);
    if (refused) return refused;
    const { query } = request;
    const part = listParam(query, 'part') ?? [];
    if (part.length === 0) return googleApiError(400, 'Required parameter: part', { reason: 'required', location: 'part', locationType: 'parameter' });
    const unknownPart = part.find((name) => name !== 'snippet' && name !== 'id');
    if (unknownPart) return googleApiError(400, `'${unknownPart}'`, { domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' });
    const unsupported = [...query.keys()].find((name) => !SUPPORTED.has(name));
    if (unsupported) return badRequest(`The sandbox does not implement the ${unsupported} parameter.`, 'badRequest', unsupported);
    const rawMax = query.get('maxResults');
    const maxResults = rawMax === null ? 5 : Number(rawMax);
    if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > 50) return badRequest(`Invalid value '${rawMax}'. Values must be within the range: [0, 50]`, 'invalidParameter', 'maxResults');
    const types = listParam(query, 'type') ?? ['video', 'channel'];
    const words = (query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const channelId = query.get('channelId');
    const matches = (text: string) => words.every((word) => text.toLowerCase().includes(word));

    const results: { publishedMs: number; resource: Record<string, unknown> }[] = [];
    deps.channels.forEach((channel, index) => {
      if (channelId && channel.id !== channelId) return;
      const snippetOf = (publishedMs: number, title: string, description: string) => ({
        publishedAt: new Date(publishedMs).toISOString().replace('.000Z', 'Z'),
        channelId: channel.id,
        title,
        description,
        channelTitle: channel.title,
        liveBroadcastContent: 'none',
        publishTime: new Date(publishedMs).toISOString().replace('.000Z', 'Z'),
      });
      if (types.includes('channel') && matches(`${channel.title} ${PERSONAS[index]!.handle}`)) {
        const publishedMs = Date.parse(channel.publishedAt);
        results.push({ publishedMs, resource: { kind: 'youtube#searchResult', id: { kind: 'youtube#channel', channelId: channel.id }, snippet: snippetOf(publishedMs, channel.title, '') } });
      }
      if (types.includes('video')) {
        for (const item of publishedBy(deps.videosOf(index), context.now())) {
          if (!matches(item.title)) continue;
          const videoId = deps.youtubeVideoId(item);
          results.push({ publishedMs: item.publishedMs, resource: { kind: 'youtube#searchResult', id: { kind: 'youtube#video', videoId }, snippet: snippetOf(item.publishedMs, item.title, item.description) } });
        }
      }
    });
    results.sort((a, b) => b.publishedMs - a.publishedMs);

    const token = query.get('pageToken');
    let offset = 0;
    if (token) {
      const decoded = decodeCursor<{ s?: number }>(token);
      if (!decoded || typeof decoded.s !== 'number') return badRequest('The request specifies an invalid page token.', 'invalidPageToken', 'pageToken');
      offset = decoded.s;
    }
    const page = results.slice(offset, offset + maxResults).map(({ resource }) => (part.includes('snippet') ? resource : { kind: resource.kind, id: resource.id }));
    const next = maxResults > 0 && offset + maxResults < results.length ? encodeCursor({ s: offset + maxResults }) : null;
    return json(200, {
      kind: 'youtube#searchListResponse',
      etag: `sbx-search-${offset}-${results.length}`,
      ...(next ? { nextPageToken: next } : {}),
      regionCode: 'US',
      pageInfo: { totalResults: results.length, resultsPerPage: maxResults },
      items: page,
    });
  }

  return { platform: 'youtube', hosts: ['www.googleapis.com', 'youtube.googleapis.com'], method: 'GET', path: '/youtube/v3/search', endpoint: 'search.list', group: 'metrics', handle: search };
}
