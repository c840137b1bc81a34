// TikTok's Display API content endpoints: POST /v2/video/list/ (cursor paging, newest first) and
// POST /v2/video/query/ (up to 20 ids). Lifetime counters only. docs/platforms/tiktok.md#video-list, §3.4, §7.
import { PERSONAS, type Persona } from './demo-accounts.ts';
import { bearerToken, json, mediaTypeOf, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { catalogue, contentTitle, countersAt, dayOf, publishedBy, type ContentItem } from './metrics-data.ts';
import type { OAuthStore } from './oauth-core.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

const VIDEO_FIELDS = ['id', 'title', 'video_description', 'create_time', 'cover_image_url', 'share_url', 'embed_html', 'embed_link', 'duration', 'height', 'width', 'like_count', 'comment_count', 'share_count', 'view_count', 'is_aigc'] as const;
type VideoField = (typeof VIDEO_FIELDS)[number];

const SHAPE = { large: 600, medium: 250, small: 90 } as const;

export function tiktokVideos(persona: Persona, followers: number): ContentItem[] {
  return catalogue('tiktok', persona, {
    perTwoYears: SHAPE[persona.tier],
    medianViews: Math.max(150, followers * 0.08),
    sigma: 1.6, // TikTok is the most viral-tailed
    likeRate: 0.07,
    commentRate: 0.0018,
    shareRate: 0.0035,
    duration: [9, 120],
    titles: contentTitle,
  });
}

/** TikTok video ids: the create time in seconds in the high 32 bits, then 32 random bits. */
export function tiktokVideoId(item: ContentItem): string {
  const random = item.random('id');
  return ((BigInt(Math.floor(item.publishedMs / 1000)) << 32n) | BigInt(random.int(0, 0x7fffffff))).toString();
}

export interface TiktokMetricsDeps {
  store: OAuthStore;
  profiles: readonly { username: string; followerCount: number }[];
  apiError(status: number, code: string, message: string, headers?: Record<string, string>): Reply;
  logId(): string;
}

export function createTiktokMetrics(context: PlatformContext, deps: TiktokMetricsDeps) {
  const { apiError } = deps;
  const videosOf = (index: number) => tiktokVideos(PERSONAS[index]!, deps.profiles[index]!.followerCount);
  const tokenInvalid = () => apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');

  /** Checks token, scope, fields and JSON body; the account, fields and body, or the error reply. */
  function prepare(request: SandboxRequest): { index: number; fields: VideoField[]; body: Record<string, unknown> } | { error: Reply } {
    const check = deps.store.checkAccess('tiktok', bearerToken(request.headers));
    if (!check.ok) return { error: tokenInvalid() };
    if (!check.grant.scopes.includes('video.list')) return { error: apiError(401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.') };
    const rawFields = request.query.get('fields');
    if (!rawFields) return { error: apiError(400, 'invalid_params', 'Missing required parameter: fields.') };
    const fields = rawFields.split(',').map((field) => field.trim()).filter(Boolean);
    const unknown = fields.filter((field) => !(VIDEO_FIELDS as readonly string[]).includes(field));
    if (unknown.length > 0) return { error: apiError(400, 'invalid_params', `Invalid fields: ${unknown.join(',')}.`) };
    let body: unknown = {};
    if (request.rawBody.length > 0) {
      if (mediaTypeOf(request.headers) !== 'application/json') return { error: apiError(400, 'invalid_params', 'The request body must be JSON (Content-Type: application/json).') };
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return { error: apiError(400, 'invalid_params', 'The request body is not valid JSON.') };
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { error: apiError(400, 'invalid_params', 'The request body must be a JSON object.') };
    return { index: check.grant.accountIndex, fields: fields as VideoField[], body: body as Record<string, unknown> };
  }

  function render(item: ContentItem, index: number, fields: readonly VideoField[]): Record<string, unknown> {
    const id = tiktokVideoId(item);
    const counters = countersAt(item, dayOf(context.now()));
    const username = deps.profiles[index]!.username;
    const values: Record<VideoField, unknown> = {
      id,
      title: item.title,
      video_description: `${item.title} ${item.description.match(/#\w+/g)?.join(' ') ?? ''}`.trim().slice(0, 150),
      create_time: Math.floor(item.publishedMs / 1000),
      cover_image_url: `https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/${id}~tplv-noop.image`,
      share_url: `https://www.tiktok.com/@${username}/video/${id}?utm_campaign=tt4d_open_api&utm_source=sbx`,
      embed_html: `<blockquote class="tiktok-embed" cite="https://www.tiktok.com/@${username}/video/${id}" data-video-id="${id}"></blockquote>`,
      embed_link: `https://www.tiktok.com/player/v1/${id}`,
      duration: item.duration,
      height: 1024,
      width: 576,
      like_count: counters.likes,
      comment_count: counters.comments,
      share_count: counters.shares,
      view_count: counters.views,
      is_aigc: false,
    };
    return Object.fromEntries(fields.map((field) => [field, values[field]]));
  }

  function list(request: SandboxRequest): Reply {
    const prepared = prepare(request);
    if ('error' in prepared) return prepared.error;
    const { index, fields, body } = prepared;
    const maxCount = body.max_count ?? 10;
    if (typeof maxCount !== 'number' || !Number.isInteger(maxCount) || maxCount < 1 || maxCount > 20) return apiError(400, 'invalid_params', 'max_count must be an integer between 1 and 20.');
    const nowMs = context.now().getTime();
    const cursor = body.cursor ?? nowMs;
    if (typeof cursor !== 'number' || !Number.isFinite(cursor) || cursor < 0) return apiError(400, 'invalid_params', 'cursor must be a UTC Unix timestamp in milliseconds.');
    // Videos created strictly before the cursor (ms), newest first.
    const older = publishedBy(videosOf(index), context.now()).filter((item) => Math.floor(item.publishedMs / 1000) * 1000 < cursor);
    const page = older.slice(0, maxCount);
    const hasMore = older.length > page.length;
    const last = page.at(-1);
    const nextCursor = last ? Math.floor(last.publishedMs / 1000) * 1000 : cursor;
    return json(200, { data: { videos: page.map((item) => render(item, index, fields)), cursor: nextCursor, has_more: hasMore }, error: { code: 'ok', message: '', log_id: deps.logId() } });
  }

  function query(request: SandboxRequest): Reply {
    const prepared = prepare(request);
    if ('error' in prepared) return prepared.error;
    const { index, fields, body } = prepared;
    const filters = body.filters as { video_ids?: unknown } | undefined;
    const ids = filters?.video_ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20 || ids.some((id) => typeof id !== 'string')) {
      return apiError(400, 'invalid_params', 'filters.video_ids must hold 1 to 20 video ids.');
    }
    const nowMs = context.now().getTime();
    const wanted = new Set(ids as string[]);
    const videos = videosOf(index).filter((item) => item.publishedMs <= nowMs && wanted.has(tiktokVideoId(item))).reverse();
    return json(200, { data: { videos: videos.map((item) => render(item, index, fields)) }, error: { code: 'ok', message: '', log_id: deps.logId() } });
  }

  const routes: RouteDefinition[] = [
    { platform: 'tiktok', hosts: ['open.tiktokapis.com'], method: 'POST', path: '/v2/video/list/', endpoint: 'video.list', group: 'metrics', handle: list },
    { platform: 'tiktok', hosts: ['open.tiktokapis.com'], method: 'POST', path: '/v2/video/query/', endpoint: 'video.query', group: 'metrics', handle: query },
  ];

  function failure(kind: RenderedFailure): Reply {
    switch (kind) {
      case 'rate_limited':
        return apiError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.', { 'retry-after': '30' });
      case 'token_expired':
      case 'revoked':
      case 'invalid_grant':
        return tokenInvalid();
      default:
        return apiError(500, 'internal_error', 'Something went wrong. Please try again later.');
    }
  }

  const videoCount = (index: number) => publishedBy(videosOf(index), context.now()).length;
  return { routes, failure, videoCount };
}
