// X's user timeline with metrics, GET /2/users/:id/tweets, and the posts lookup by ids, GET /2/tweets. docs/platforms/x.md#timeline, §4.5, §7.
//
// Modelled: newest first, `max_results` 5–100, `pagination_token` ← `meta.next_token` (absent on the last page),
// only the newest 3,200 posts reachable, `since_id` / `until_id` / `start_time` / `end_time`, `public_metrics` on
// every post, `non_public_metrics` and `organic_metrics` only on the token owner's posts from the last 30 days,
// `x-rate-limit-*` headers on every answer, problem JSON errors. Impressions are `impression_count` only, and views
// exist only on video media, as `includes.media[].public_metrics.view_count` with the `attachments.media_keys`
// expansion (corrections rule 15; docs.x.com/x-api/fundamentals/metrics): no post-level views field.
import { PERSONAS, type Persona } from './demo-accounts.ts';
import { bearerToken, json, listParam, problemJson, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { catalogue, contentTitle, countersAt, dayOf, DAY_MS, decodeCursor, encodeCursor, publishedBy, type ContentItem } from './metrics-data.ts';
import { secretsEqual, type OAuthStore } from './oauth-core.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

const TWEET_FIELDS = [
  'article', 'attachments', 'author_id', 'card_uri', 'community_id', 'context_annotations', 'conversation_id', 'created_at', 'display_text_range',
  'edit_controls', 'edit_history_tweet_ids', 'entities', 'geo', 'id', 'in_reply_to_user_id', 'lang', 'media_metadata', 'non_public_metrics', 'note_tweet',
  'organic_metrics', 'possibly_sensitive', 'promoted_metrics', 'public_metrics', 'referenced_tweets', 'reply_settings', 'scopes', 'source', 'text', 'withheld',
] as const;
/** The same fields under X's post-era names (OpenAPI v2.167), requested with `post.fields`. */
const POST_FIELDS = [
  'article', 'article_title', 'attachments', 'card_uri', 'community_id', 'context_annotations', 'conversation_id', 'created_at', 'display_text_range',
  'edit_controls', 'entities', 'geo', 'id', 'lang', 'matched_media_notes', 'media_metadata', 'non_public_metrics', 'note_post', 'note_request_suggestions',
  'organic_metrics', 'paid_partnership', 'possibly_sensitive', 'promoted_metrics', 'public_metrics', 'reply_settings', 'scopes', 'source',
  'suggested_source_links', 'suggested_source_links_with_counts', 'text', 'withheld',
] as const;
/** X's media.fields (OpenAPI v2.159 `MediaFieldsParameter`). */
const MEDIA_FIELDS = ['alt_text', 'duration_ms', 'height', 'media_key', 'non_public_metrics', 'organic_metrics', 'preview_image_url', 'promoted_metrics', 'public_metrics', 'type', 'url', 'variants', 'width'];
const TIMELINE_PARAMS = ['max_results', 'pagination_token', 'since_id', 'until_id', 'start_time', 'end_time', 'exclude', 'tweet.fields', 'post.fields', 'expansions', 'media.fields', 'user.fields', 'poll.fields', 'place.fields'];
const LOOKUP_PARAMS = ['ids', 'tweet.fields', 'post.fields', 'expansions', 'media.fields', 'user.fields', 'poll.fields', 'place.fields'];
const TIMELINE_CAP = 3200;
/** With exclude=replies the timeline reaches only the newest 800 posts (replies among them dropped). */
const TIMELINE_CAP_WITHOUT_REPLIES = 800;
/** Share of a demo account's posts that are replies to other accounts, in percent. */
const REPLY_PERCENT = 20;
/** The account the demo replies answer (X's own @X account). */
const REPLIED_USER_ID = '783214';

/** Whether a demo post is a reply to another account's post (deterministic per post). */
export const isReply = (item: ContentItem) => item.random('reply').int(0, 99) < REPLY_PERCENT;
/** Share of a demo account's posts that carry a video, in percent. */
const VIDEO_PERCENT = 15;
/** Whether a demo post carries a video (deterministic per post). */
export const hasVideo = (item: ContentItem) => item.random('video').int(0, 99) < VIDEO_PERCENT;
/** A video's media key: X's `7_` prefix (video) and an id next to the post's. */
export const videoMediaKey = (item: ContentItem) => `7_${(xPostId(item) + 1n).toString()}`;
/** A video's views: fewer than the post's impressions (a view needs the video to play). */
export const videoViews = (impressions: number) => Math.round(impressions * 0.4);
const TWITTER_EPOCH = 1288834974657n;
const PRIVATE_WINDOW_MS = 30 * DAY_MS;

const SHAPE = { large: 3000, medium: 800, small: 150 } as const;

export function xPosts(persona: Persona, followers: number): ContentItem[] {
  return catalogue('twitter', persona, {
    perTwoYears: SHAPE[persona.tier],
    medianViews: Math.max(40, followers * 0.05),
    sigma: 1.3,
    likeRate: 0.012,
    commentRate: 0.0012,
    shareRate: 0.0015,
    saveRate: 0.0008,
    duration: [0, 0],
    titles: contentTitle,
  });
}

/** A snowflake id: ms since the Twitter epoch in the high bits, then 22 random bits. */
export function xPostId(item: ContentItem): bigint {
  return ((BigInt(item.publishedMs) - TWITTER_EPOCH) << 22n) | BigInt(item.random('id').int(0, 0x3fffff));
}

export interface TwitterMetricsDeps {
  billing: XBilling;
  store: OAuthStore;
  users: readonly { id: string; username: string; followersCount: number }[];
  rateHeaders(key: string, limit: number): Record<string, string>;
  rateWindowMs: number;
}

const problem = (status: number, title: string, detail = title, headers: Record<string, string> = {}, type = 'about:blank') => problemJson(status, { title, type, status, detail }, headers);

function invalidRequest(parameters: Record<string, string[]>, message: string, headers: Record<string, string> = {}): Reply {
  return problemJson(400, { errors: [{ parameters, message }], title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request' }, headers);
}

export function createTwitterMetrics(context: PlatformContext, deps: TwitterMetricsDeps) {
  const postsOf = (index: number) => xPosts(PERSONAS[index]!, deps.users[index]!.followersCount);

  /** One post as X writes it, with the fields asked for (private metrics only on the owner's posts of the last 30 days). */
  function renderPost(item: ContentItem, id: string, { fields, expansions, postEra, now, owner }: { fields: readonly string[]; expansions: readonly string[]; postEra: boolean; now: Date; owner: boolean }): Record<string, unknown> {
    const day = dayOf(now);
    const postId = xPostId(item).toString();
    const counters = countersAt(item, day);
    const post: Record<string, unknown> = { id: postId, text: `${item.title} ${item.description.match(/#\w+/g)?.slice(0, 2).join(' ') ?? ''}`.trim(), [postEra ? 'edit_history_post_ids' : 'edit_history_tweet_ids']: [postId] };
    if (postEra && isReply(item) && expansions.includes('referenced_posts')) post.referenced_posts = [{ type: 'replied_to', id: (xPostId(item) - 1n).toString() }];
    if (postEra && isReply(item) && expansions.includes('in_reply_to_user_id')) post.in_reply_to_user_id = REPLIED_USER_ID;
    const publicMetrics = {
      [postEra ? 'repost_count' : 'retweet_count']: counters.shares,
      reply_count: counters.comments,
      like_count: counters.likes,
      quote_count: Math.round(counters.shares * 0.15),
      bookmark_count: counters.saves,
      impression_count: counters.views,
    };
    const recent = owner && now.getTime() - item.publishedMs < PRIVATE_WINDOW_MS;
    const linkClicks = Math.round(counters.views * 0.004);
    const profileClicks = Math.round(counters.views * 0.002);
    for (const field of fields) {
      if (field === 'created_at') post.created_at = new Date(item.publishedMs).toISOString();
      else if (field === 'public_metrics') post.public_metrics = publicMetrics;
      else if (field === 'author_id') post.author_id = id;
      else if (field === 'conversation_id') post.conversation_id = isReply(item) ? (xPostId(item) - 1n).toString() : postId;
      else if (field === 'referenced_tweets' && isReply(item)) post.referenced_tweets = [{ type: 'replied_to', id: (xPostId(item) - 1n).toString() }];
      else if (field === 'in_reply_to_user_id' && isReply(item)) post.in_reply_to_user_id = REPLIED_USER_ID;
      else if (field === 'lang') post.lang = 'en';
      else if (field === 'attachments' && hasVideo(item)) post.attachments = { media_keys: [videoMediaKey(item)] };
      else if (field === 'possibly_sensitive') post.possibly_sensitive = false;
      else if (field === 'reply_settings') post.reply_settings = 'everyone';
      else if (field === 'non_public_metrics' && recent) post.non_public_metrics = { impression_count: counters.views, url_link_clicks: linkClicks, user_profile_clicks: profileClicks };
      else if (field === 'organic_metrics' && recent) {
        post.organic_metrics = { impression_count: counters.views, like_count: counters.likes, reply_count: counters.comments, retweet_count: counters.shares, url_link_clicks: linkClicks, user_profile_clicks: profileClicks };
      }
    }
    return post;
  }

  /** `includes.media` for the posts answered, when `attachments.media_keys` is expanded: their videos, with the media.fields asked for. */
  function mediaIncludes(items: readonly ContentItem[], expansions: readonly string[], mediaFields: readonly string[], now: Date): Record<string, unknown> {
    if (!expansions.includes('attachments.media_keys')) return {};
    const media = items.filter(hasVideo).map((item) => {
      const counters = countersAt(item, dayOf(now));
      const entry: Record<string, unknown> = { media_key: videoMediaKey(item), type: 'video' };
      for (const field of mediaFields) {
        if (field === 'public_metrics') entry.public_metrics = { view_count: videoViews(counters.views) };
        else if (field === 'duration_ms') entry.duration_ms = 15_000 + item.random('video-length').int(0, 120_000);
      }
      return entry;
    });
    return media.length > 0 ? { includes: { media } } : {};
  }

  /** The media.fields asked for, or the 400 naming the first one X does not know. */
  function mediaFieldsOf(request: SandboxRequest, headers: Record<string, string>): string[] | Reply {
    const fields = listParam(request.query, 'media.fields') ?? [];
    const bad = fields.find((field) => !MEDIA_FIELDS.includes(field));
    return bad === undefined ? fields : invalidRequest({ 'media.fields': [bad] }, `The \`media.fields\` query parameter value [${bad}] is not one of [${MEDIA_FIELDS.join(',')}]`, headers);
  }

  /**
   * Who reads: the app's bearer token (viewer null) or a user's token with tweet.read and users.read (their account
   * index); else the 401 or 403 X answers.
   */
  function reader(request: SandboxRequest): { viewer: number | null } | Reply {
    const token = bearerToken(request.headers);
    if (token && secretsEqual(token, context.appKeys.twitterBearerToken)) return { viewer: null };
    const check = deps.store.checkAccess('twitter', token);
    if (!check.ok) return problem(401, 'Unauthorized');
    if (!check.grant.scopes.includes('tweet.read') || !check.grant.scopes.includes('users.read')) return problem(403, 'Forbidden');
    return { viewer: check.grant.accountIndex };
  }

  function timeline(request: SandboxRequest): Reply {
    const who = reader(request);
    if (!('viewer' in who)) return who;
    const { viewer } = who;
    const appOnly = viewer === null;
    const headers = deps.rateHeaders(`tweets:${viewer ?? 'app'}`, viewer === null ? 1500 : 900);
    const { query } = request;
    for (const name of new Set(query.keys())) {
      if (!TIMELINE_PARAMS.includes(name)) return invalidRequest({ [name]: [query.get(name) ?? ''] }, `The query parameter [${name}] is not one of [id,${TIMELINE_PARAMS.join(',')}]`, headers);
    }
    const rawMax = query.get('max_results');
    const maxResults = rawMax === null ? 10 : Number(rawMax);
    if (!Number.isInteger(maxResults) || maxResults < 5 || maxResults > 100) {
      return invalidRequest({ max_results: [rawMax ?? ''] }, `The \`max_results\` query parameter value [${rawMax}] is not between 5 and 100`, headers);
    }
    // X accepts the tweet-era and the post-era names alike; a request in the post-era form is answered in it
    // (docs/decisions/010-x-field-naming.md).
    const postEra = query.has('post.fields') || (listParam(query, 'expansions') ?? []).some((expansion) => expansion.includes('post'));
    const fieldsParam = query.has('post.fields') ? 'post.fields' : 'tweet.fields';
    const allowedFields: readonly string[] = fieldsParam === 'post.fields' ? POST_FIELDS : TWEET_FIELDS;
    const fields = listParam(query, fieldsParam) ?? [];
    const badField = fields.find((field) => !allowedFields.includes(field));
    if (badField) return invalidRequest({ [fieldsParam]: [badField] }, `The \`${fieldsParam}\` query parameter value [${badField}] is not one of [${allowedFields.join(',')}]`, headers);
    const expansions = listParam(query, 'expansions') ?? [];
    const mediaFields = mediaFieldsOf(request, headers);
    if (!Array.isArray(mediaFields)) return mediaFields;
    const badExclude = (query.get('exclude') ?? '').split(',').filter(Boolean).find((value) => value !== 'replies' && value !== 'retweets');
    if (badExclude) return invalidRequest({ exclude: [badExclude] }, `The \`exclude\` query parameter value [${badExclude}] is not one of [replies,retweets]`, headers);
    const wantsPrivate = fields.includes('non_public_metrics') || fields.includes('organic_metrics') || fields.includes('promoted_metrics');
    if (appOnly && wantsPrivate) {
      return problemJson(403, {
        title: 'Unsupported Authentication',
        detail: 'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].',
        type: 'https://api.x.com/2/problems/unsupported-authentication',
        status: 403,
      }, headers);
    }

    const id = request.params.id!;
    const index = deps.users.findIndex((user) => user.id === id);
    if (index < 0) {
      return json(200, { errors: [{ value: id, detail: `Could not find user with id: [${id}].`, title: 'Not Found Error', resource_type: 'user', parameter: 'id', resource_id: id, type: 'https://api.x.com/2/problems/resource-not-found' }] }, headers);
    }
    if (wantsPrivate && viewer !== index) {
      return problemJson(403, { title: 'Authorization Error', detail: 'Sorry, you are not authorized to access non_public_metrics on this Tweet.', type: 'https://api.x.com/2/problems/not-authorized-for-field', status: 403 }, headers);
    }

    const parseTime = (name: string): number | null | undefined => {
      const raw = query.get(name);
      if (raw === null) return undefined;
      const ms = Date.parse(raw);
      // X takes YYYY-MM-DDTHH:mm:ssZ (milliseconds allowed, as in its own created_at); no offsets, no bare dates.
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(raw) && !Number.isNaN(ms) ? ms : null;
    };
    const startTime = parseTime('start_time');
    const endTime = parseTime('end_time');
    if (startTime === null || endTime === null) return invalidRequest({ [startTime === null ? 'start_time' : 'end_time']: [query.get(startTime === null ? 'start_time' : 'end_time') ?? ''] }, 'Invalid RFC 3339 timestamp', headers);
    const idParam = (name: string) => {
      const raw = query.get(name);
      return raw !== null && /^\d{1,19}$/.test(raw) ? BigInt(raw) : raw === null ? undefined : null;
    };
    const sinceId = idParam('since_id');
    const untilId = idParam('until_id');
    if (sinceId === null || untilId === null) return invalidRequest({ since_id: [query.get('since_id') ?? ''] }, 'Invalid id', headers);

    // The newest 3,200 posts are all a timeline reaches, and only the newest 800 with exclude=replies.
    const now = context.now();
    const excluded = listParam(query, 'exclude') ?? [];
    const withoutReplies = excluded.includes('replies');
    const reachable = publishedBy(postsOf(index), now)
      .slice(0, withoutReplies ? TIMELINE_CAP_WITHOUT_REPLIES : TIMELINE_CAP)
      .filter((item) => !(withoutReplies && isReply(item)));
    const matching = reachable.filter((item) => {
      const postId = xPostId(item);
      return (sinceId === undefined || postId > sinceId) && (untilId === undefined || postId < untilId) && (startTime === undefined || item.publishedMs >= startTime) && (endTime === undefined || item.publishedMs <= endTime);
    });
    let offset = 0;
    const paginationToken = query.get('pagination_token');
    if (paginationToken) {
      const decoded = decodeCursor<{ o?: number; u?: string }>(paginationToken);
      if (!decoded || typeof decoded.o !== 'number' || decoded.u !== id) return invalidRequest({ pagination_token: [paginationToken] }, 'The `pagination_token` query parameter value is not valid', headers);
      offset = decoded.o;
    }
    const page = matching.slice(offset, offset + maxResults);
    deps.billing.postsRead(page.map((item) => xPostId(item).toString()));
    const data = page.map((item) => renderPost(item, id, { fields, expansions, postEra, now, owner: viewer === index }));
    const meta: Record<string, unknown> = { result_count: data.length };
    if (data.length > 0) {
      meta.newest_id = data[0]!.id;
      meta.oldest_id = data.at(-1)!.id;
    }
    if (offset + maxResults < matching.length) meta.next_token = encodeCursor({ u: id, o: offset + maxResults });
    if (offset > 0) meta.previous_token = encodeCursor({ u: id, o: Math.max(0, offset - maxResults) });
    return json(200, { ...(data.length > 0 ? { data } : {}), ...mediaIncludes(page, expansions, mediaFields, now), meta }, headers);
  }

  /** Every demo post by its id, and whose it is (the lookup reads anyone's posts). */
  let postIndex: Map<string, { item: ContentItem; index: number }> | undefined;
  function postById(postId: string) {
    if (!postIndex) {
      postIndex = new Map();
      deps.users.forEach((_user, index) => {
        for (const item of postsOf(index)) postIndex!.set(xPostId(item).toString(), { item, index });
      });
    }
    return postIndex.get(postId);
  }

  /**
   * GET /2/tweets?ids=…: 1 to 100 numeric ids; posts that do not exist (or are not published yet) come back as
   * per-id errors in a 200; every post returned is billed (once per UTC day); private metrics only on the token
   * owner's posts.
   */
  function lookup(request: SandboxRequest): Reply {
    const who = reader(request);
    if (!('viewer' in who)) return who;
    const { viewer } = who;
    const headers = deps.rateHeaders(`lookup:${viewer ?? 'app'}`, viewer === null ? 3500 : 900);
    const { query } = request;
    for (const name of new Set(query.keys())) {
      if (!LOOKUP_PARAMS.includes(name)) return invalidRequest({ [name]: [query.get(name) ?? ''] }, `The query parameter [${name}] is not one of [${LOOKUP_PARAMS.join(',')}]`, headers);
    }
    const ids = listParam(query, 'ids') ?? [];
    if (ids.length === 0) return invalidRequest({ ids: [''] }, 'The `ids` query parameter can not be empty', headers);
    if (ids.length > 100) return invalidRequest({ ids: [query.get('ids') ?? ''] }, `The number of values in the \`ids\` query parameter list [${ids.length}] is not between 1 and 100`, headers);
    const badId = ids.find((postId) => !/^\d{1,19}$/.test(postId));
    if (badId !== undefined) return invalidRequest({ ids: [badId] }, `The \`ids\` query parameter value [${badId}] is not valid`, headers);
    const postEra = query.has('post.fields');
    const fieldsParam = postEra ? 'post.fields' : 'tweet.fields';
    const allowedFields: readonly string[] = postEra ? POST_FIELDS : TWEET_FIELDS;
    const fields = listParam(query, fieldsParam) ?? [];
    const badField = fields.find((field) => !allowedFields.includes(field));
    if (badField) return invalidRequest({ [fieldsParam]: [badField] }, `The \`${fieldsParam}\` query parameter value [${badField}] is not one of [${allowedFields.join(',')}]`, headers);
    const wantsPrivate = fields.includes('non_public_metrics') || fields.includes('organic_metrics') || fields.includes('promoted_metrics');
    const expansions = listParam(query, 'expansions') ?? [];
    const mediaFields = mediaFieldsOf(request, headers);
    if (!Array.isArray(mediaFields)) return mediaFields;
    const now = context.now();
    const found = [...new Set(ids)].map((postId) => ({ postId, post: postById(postId) })).map(({ postId, post }) => ({ postId, post: post && post.item.publishedMs <= now.getTime() ? post : undefined }));
    if (wantsPrivate && found.some(({ post }) => post && post.index !== viewer)) {
      return problemJson(403, { title: 'Authorization Error', detail: 'Sorry, you are not authorized to access non_public_metrics on this Tweet.', type: 'https://api.x.com/2/problems/not-authorized-for-field', status: 403 }, headers);
    }
    // Private metrics exist only for posts of the last 30 days; what X does when older ones are asked for is not
    // documented, so the stand-in refuses the request (the stricter reading) rather than leaving the fields out.
    if (wantsPrivate && found.some(({ post }) => post && now.getTime() - post.item.publishedMs >= PRIVATE_WINDOW_MS)) {
      return problemJson(403, { title: 'Authorization Error', detail: 'Sorry, non_public_metrics are only available for Tweets created in the last 30 days.', type: 'https://api.x.com/2/problems/not-authorized-for-field', status: 403 }, headers);
    }
    const returned = found.flatMap(({ post }) => (post ? [post] : []));
    deps.billing.postsRead(returned.map(({ item }) => xPostId(item).toString()));
    const data = returned.map(({ item, index }) => renderPost(item, deps.users[index]!.id, { fields, expansions: [], postEra, now, owner: viewer === index }));
    const media = mediaIncludes(returned.map(({ item }) => item), expansions, mediaFields, now);
    const errors = found
      .filter(({ post }) => !post)
      .map(({ postId }) => ({ value: postId, detail: `Could not find tweet with ids: [${postId}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'ids', resource_id: postId, type: 'https://api.x.com/2/problems/resource-not-found' }));
    return json(200, { ...(data.length > 0 ? { data } : {}), ...media, ...(errors.length > 0 ? { errors } : {}) }, headers);
  }

  const routes: RouteDefinition[] = [
    { platform: 'twitter', hosts: ['api.x.com', 'api.twitter.com'], method: 'GET', path: /^\/2\/users\/(?<id>\d+)\/tweets$/, endpoint: 'users.tweets', group: 'metrics', handle: timeline },
    { platform: 'twitter', hosts: ['api.x.com', 'api.twitter.com'], method: 'GET', path: '/2/tweets', endpoint: 'tweets.lookup', group: 'metrics', handle: lookup },
  ];

  function failure(kind: RenderedFailure): Reply {
    switch (kind) {
      case 'rate_limited':
        return problem(429, 'Too Many Requests', 'Too Many Requests', {
          'x-rate-limit-limit': '900',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(Math.ceil((context.now().getTime() + deps.rateWindowMs) / 1000)),
        });
      case 'token_expired':
      case 'revoked':
      case 'invalid_grant':
        return problem(401, 'Unauthorized');
      default:
        return problem(503, 'Service Unavailable');
    }
  }

  return { routes, failure };
}

/**
 * X bills every resource a read returns (docs/platforms/x.md#errors-limits-and-billing): a post or a user, once per
 * UTC day however often it is read again that day. This counts what the real API would bill since the sandbox
 * started, for `GET /_sandbox/usage`.
 */
export function createXBilling(now: () => Date) {
  const lastBilledDay = new Map<string, string>();
  const totals = { postReads: 0, userReads: 0 };
  const bill = (kind: 'post' | 'user', ids: readonly string[]) => {
    const day = now().toISOString().slice(0, 10);
    for (const id of ids) {
      const key = `${kind}:${id}`;
      if (lastBilledDay.get(key) === day) continue;
      lastBilledDay.set(key, day);
      if (kind === 'post') totals.postReads += 1;
      else totals.userReads += 1;
    }
  };
  return {
    postsRead: (ids: readonly string[]) => bill('post', ids),
    usersRead: (ids: readonly string[]) => bill('user', ids),
    usage: () => ({ ...totals }),
  };
}

export type XBilling = ReturnType<typeof createXBilling>;
