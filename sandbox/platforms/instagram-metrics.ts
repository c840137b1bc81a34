// Instagram's metrics endpoints on graph.instagram.com: the media list, media insights and account insights.
// docs/platforms/instagram.md, §7.
//
// Modelled: `/me/media` (or `/<id>/media`) newest first with cursor paging (`paging.cursors`, `paging.next` absent
// on the last page); `/<media-id>/insights` lifetime values per media type (FEED vs REELS metrics; deprecated
// metrics → code 100; media posted before the account became a business account → code 100, subcode 2108006);
// `/me/insights` with `follower_count` as daily GROSS new followers (never negative; last 30 days excluding today,
// none below 100 followers), unfollows only through `follows_and_unfollows` broken down by `follow_type` (also only
// for the last 30 days excluding today: Meta says so of follower metrics, and the sandbox takes the stricter reading
// for this one too), and total_value metrics (`views` only with `metric_type=total_value`; a breakdown only where the
// metric has it) kept for two years (730 days); ranges of at most 30 days. Where Meta has no data it answers an
// empty data set, never a 0: a metric with no day of its window in the range (older than 30 days for follower data,
// than 730 for the rest, or no whole day yet) has no entry in `data`, and a time series has no values for those days;
// a range reaching partly into the window sums (or lists) only its days inside. Errors are Graph error objects keyed
// by `error.code`.
import { PERSONAS, type Persona } from './demo-accounts.ts';
import { json, type FailureOptions, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { catalogue, contentTitle, countersAt, dailyValue, dayOf, DAY_MS, decodeCursor, encodeCursor, netFollowers, publishedBy, type ContentItem } from './metrics-data.ts';
import type { TokenRecord } from './oauth-core.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

export interface InstagramMetricsDeps {
  profiles: readonly { id: string; userId: string; username: string; followersCount: number }[];
  graphToken(request: SandboxRequest): { record: TokenRecord } | { error: Reply };
  graphError(status: number, error: { message: string; code: number; type?: string; error_subcode?: number; is_transient?: boolean }, headers?: Record<string, string>): Reply;
  /** "Friday, 01-May-26 10:00:00 PDT" */
  pacificTime(date: Date): string;
}

export const SHAPE = {
  large: { perTwoYears: 700, reachPerFollower: 0.35, growth: 0.3 },
  medium: { perTwoYears: 300, reachPerFollower: 0.4, growth: 0.45 },
  small: { perTwoYears: 80, reachPerFollower: 0.8, growth: 0.6 },
} as const;

export function instagramMedia(persona: Persona, followers: number): ContentItem[] {
  const shape = SHAPE[persona.tier];
  return catalogue('instagram', persona, {
    perTwoYears: shape.perTwoYears,
    medianViews: Math.max(60, followers * 0.12),
    sigma: 1.1,
    likeRate: 0.045,
    commentRate: 0.0035,
    shareRate: 0.004,
    saveRate: 0.006,
    duration: [8, 90],
    titles: contentTitle,
  });
}

interface MediaFacts {
  id: string;
  shortcode: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS';
}

const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

export function mediaFacts(item: ContentItem): MediaFacts {
  const random = item.random('media');
  const roll = random.next();
  const mediaType = roll < 0.55 ? 'VIDEO' : roll < 0.8 ? 'IMAGE' : 'CAROUSEL_ALBUM';
  return { id: `18${random.digits(15)}`, shortcode: `C${random.chars(SHORTCODE_ALPHABET, 10)}`, mediaType, productType: mediaType === 'VIDEO' ? 'REELS' : 'FEED' };
}

/**
 * The demo account that began as a personal account (theo, the medium one): its oldest media predate the switch to
 * a business account, and Instagram has no insights for them (code 100, subcode 2108006).
 */
export const CONVERTED_ACCOUNT_INDEX = 1;
const POSTS_BEFORE_CONVERSION = 30;
/** Whether a media was posted before its account became a business account (its insights answer 2108006). */
export const predatesConversion = (index: number, item: ContentItem) => index === CONVERTED_ACCOUNT_INDEX && item.seq < POSTS_BEFORE_CONVERSION;

/** Account insights are kept for two years; follower data (follower_count, follows_and_unfollows) for 30 days. */
const RETENTION_DAYS = 730;
const FOLLOWER_DAYS = 30;

/** Which breakdowns each account metric offers (a metric without one refuses `breakdown`). */
const BREAKDOWNS: Record<string, readonly string[]> = {
  reach: ['media_product_type', 'follow_type'],
  views: ['follower_type', 'media_product_type'],
  follows_and_unfollows: ['follow_type'],
  profile_links_taps: ['contact_button_type'],
};

const MEDIA_FIELDS = ['id', 'caption', 'media_type', 'media_product_type', 'media_url', 'thumbnail_url', 'permalink', 'shortcode', 'timestamp', 'username', 'like_count', 'comments_count', 'is_comment_enabled'] as const;
const FEED_METRICS = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'follows', 'profile_visits', 'profile_activity'];
const REELS_METRICS = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time'];
const TOTAL_VALUE_METRICS = ['views', 'reach', 'accounts_engaged', 'total_interactions', 'likes', 'comments', 'shares', 'saves', 'replies', 'follows_and_unfollows', 'profile_links_taps'];
const USER_METRICS = [...TOTAL_VALUE_METRICS, 'follower_count'];
const TITLES: Record<string, [string, string]> = {
  views: ['Views', 'The number of times your content was played or displayed.'],
  reach: ['Accounts reached', 'The number of unique accounts that have seen your content at least once.'],
  likes: ['Likes', 'The number of likes on your content.'],
  comments: ['Comments', 'The number of comments on your content.'],
  shares: ['Shares', 'The number of shares of your content.'],
  saved: ['Saves', 'The number of saves of your post.'],
  saves: ['Saves', 'The number of saves of your content.'],
  total_interactions: ['Interactions', 'The number of likes, saves, comments and shares on your content.'],
  follows: ['Follows', 'The number of accounts that started following you.'],
  profile_visits: ['Profile visits', 'The number of times your profile was visited.'],
  profile_activity: ['Profile activity', 'The number of actions people took on your profile after engaging with your post.'],
  ig_reels_avg_watch_time: ['Average watch time', 'The average amount of time spent playing the reel, in milliseconds.'],
  ig_reels_video_view_total_time: ['Watch time', 'The total amount of time the reel was played, in milliseconds.'],
  accounts_engaged: ['Accounts engaged', 'The number of accounts that have interacted with your content.'],
  replies: ['Replies', 'The number of replies to your stories.'],
  follows_and_unfollows: ['Follows and unfollows', 'The number of accounts that followed and unfollowed you.'],
  profile_links_taps: ['Profile links taps', 'The number of taps on your business address, call, email and text buttons.'],
  follower_count: ['Follower Count', 'Total number of unique accounts following this profile'],
};

export function createInstagramMetrics(context: PlatformContext, deps: InstagramMetricsDeps) {
  const { graphError, graphToken } = deps;
  const mediaOf = (index: number) => instagramMedia(PERSONAS[index]!, deps.profiles[index]!.followersCount);
  const byId = new Map<string, { index: number; item: ContentItem; facts: MediaFacts }>();
  PERSONAS.forEach((_persona, index) => {
    for (const item of mediaOf(index)) {
      const facts = mediaFacts(item);
      byId.set(facts.id, { index, item, facts });
    }
  });
  const today = () => dayOf(context.now());
  const missingPermission = () => graphError(400, { message: '(#10) Application does not have permission for this action', code: 10 });
  const isOwnNode = (node: string, index: number) => node === 'me' || node === deps.profiles[index]!.id || node === deps.profiles[index]!.userId;
  const unknownNode = (node: string) =>
    graphError(400, { message: `Unsupported get request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, code: 100, error_subcode: 33, type: 'IGApiException' });

  function mediaList(request: SandboxRequest): Reply {
    const checked = graphToken(request);
    if ('error' in checked) return checked.error;
    const { grant } = checked.record;
    const index = grant.accountIndex;
    const node = request.params.node!;
    if (!isOwnNode(node, index)) return unknownNode(node);
    if (!grant.scopes.includes('instagram_business_basic')) return missingPermission();
    const fields = (request.query.get('fields') ?? 'id').split(',').map((field) => field.trim()).filter(Boolean);
    const unknown = fields.find((field) => !(MEDIA_FIELDS as readonly string[]).includes(field));
    if (unknown !== undefined) return graphError(400, { message: `(#100) Tried accessing nonexisting field (${unknown}) on node type (Media)`, code: 100 });
    const rawLimit = request.query.get('limit');
    const limit = rawLimit === null ? 25 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1) return graphError(400, { message: '(#100) Param limit must be a positive integer', code: 100 });
    const pageSize = Math.min(limit, 100);
    const media = publishedBy(mediaOf(index), context.now());
    let offset = 0;
    const after = request.query.get('after');
    const before = request.query.get('before');
    if (after || before) {
      const decoded = decodeCursor<{ o?: number }>((after ?? before)!);
      if (!decoded || typeof decoded.o !== 'number') return graphError(400, { message: '(#100) The parameter after is invalid', code: 100 });
      offset = after ? decoded.o + 1 : Math.max(0, decoded.o - pageSize);
    }
    const page = media.slice(offset, offset + pageSize);
    const day = today();
    const profile = deps.profiles[index]!;
    const data = page.map((item) => {
      const facts = mediaFacts(item);
      const counters = countersAt(item, day);
      const permalink = `https://www.instagram.com/${facts.productType === 'REELS' ? 'reel' : 'p'}/${facts.shortcode}/`;
      const cdn = `https://scontent.cdninstagram.com/v/t51.sbx/${facts.id}.jpg`;
      const values: Record<(typeof MEDIA_FIELDS)[number], unknown> = {
        id: facts.id,
        caption: item.description,
        media_type: facts.mediaType,
        media_product_type: facts.productType,
        media_url: facts.mediaType === 'VIDEO' ? `https://scontent.cdninstagram.com/v/t50.sbx/${facts.id}.mp4` : cdn,
        thumbnail_url: facts.mediaType === 'VIDEO' ? cdn : undefined,
        permalink,
        shortcode: facts.shortcode,
        timestamp: new Date(item.publishedMs).toISOString().replace(/\.\d{3}Z$/, '+0000'),
        username: profile.username,
        like_count: counters.likes,
        comments_count: counters.comments,
        is_comment_enabled: true,
      };
      const resource: Record<string, unknown> = {};
      for (const field of fields) if (values[field as keyof typeof values] !== undefined) resource[field] = values[field as keyof typeof values];
      resource.id = facts.id;
      return resource;
    });
    const body: Record<string, unknown> = { data };
    if (page.length > 0) {
      const cursors = { before: encodeCursor({ o: offset }), after: encodeCursor({ o: offset + page.length - 1 }) };
      const link = (name: 'after' | 'before', cursor: string) => {
        const url = new URL(`https://graph.instagram.com/v25.0/${profile.userId}/media`);
        for (const [key, value] of request.query) if (key !== 'after' && key !== 'before') url.searchParams.set(key, value);
        url.searchParams.set('limit', String(pageSize));
        url.searchParams.set(name, cursor);
        return url.href;
      };
      body.paging = {
        cursors,
        ...(offset + page.length < media.length ? { next: link('after', cursors.after) } : {}),
        ...(offset > 0 ? { previous: link('before', cursors.before) } : {}),
      };
    }
    return json(200, body);
  }

  function insightsEntry(node: string, name: string, period: string, value: { values: unknown[] } | { total_value: { value: number; breakdowns?: unknown[] } }) {
    const [title, description] = TITLES[name] ?? [name, ''];
    return { name, period, ...value, title, description, id: `${node}/insights/${name}/${period}` };
  }

  function mediaInsights(request: SandboxRequest, found: { index: number; item: ContentItem; facts: MediaFacts }): Reply {
    const metrics = (request.query.get('metric') ?? '').split(',').map((metric) => metric.trim()).filter(Boolean);
    if (metrics.length === 0) return graphError(400, { message: '(#100) The parameter metric is required', code: 100 });
    const allowed = found.facts.productType === 'REELS' ? REELS_METRICS : FEED_METRICS;
    const bad = metrics.find((metric) => !allowed.includes(metric));
    if (bad !== undefined) {
      return graphError(400, { message: `(#100) metric[${metrics.indexOf(bad)}] must be one of the following values: ${allowed.join(', ')}`, code: 100 });
    }
    if (predatesConversion(found.index, found.item)) {
      return deps.graphError(400, { message: '(#100) Media Posted Before Business Account Conversion', type: 'OAuthException', code: 100, error_subcode: 2108006 });
    }
    const counters = countersAt(found.item, today());
    const random = found.item.random('insights');
    const reach = Math.round(counters.views * (0.55 + 0.2 * random.next()));
    const watchMs = Math.round(found.item.duration * 1000 * (0.3 + 0.3 * random.next()));
    const values: Record<string, number> = {
      views: counters.views,
      reach,
      likes: counters.likes,
      comments: counters.comments,
      shares: counters.shares,
      saved: counters.saves,
      total_interactions: counters.likes + counters.comments + counters.shares + counters.saves,
      follows: Math.round(counters.views * 0.0009),
      profile_visits: Math.round(counters.views * 0.004),
      profile_activity: Math.round(counters.views * 0.005),
      ig_reels_avg_watch_time: watchMs,
      ig_reels_video_view_total_time: watchMs * counters.views,
    };
    // A post with no views yet has no insights: an empty data set rather than zeros.
    if (counters.views === 0) return json(200, { data: [] });
    return json(200, { data: metrics.map((metric) => insightsEntry(found.facts.id, metric, 'lifetime', { values: [{ value: values[metric] ?? 0 }] })) });
  }

  /** The account's daily value of a metric on `day`. */
  function accountDaily(index: number, metric: string, day: number): number {
    const persona = PERSONAS[index]!;
    const shape = SHAPE[persona.tier];
    const followers = deps.profiles[index]!.followersCount;
    const views = dailyValue('instagram', persona, 'insights:views', day, followers * shape.reachPerFollower, shape.growth, 0.2);
    switch (metric) {
      case 'views':
        return views;
      case 'reach':
        return Math.round(views * 0.42);
      case 'accounts_engaged':
        return Math.round(views * 0.031);
      case 'likes':
        return Math.round(views * 0.038);
      case 'comments':
        return Math.round(views * 0.003);
      case 'shares':
        return Math.round(views * 0.0035);
      case 'saves':
        return Math.round(views * 0.005);
      case 'replies':
        return Math.round(views * 0.0004);
      case 'total_interactions':
        return Math.round(views * 0.038) + Math.round(views * 0.003) + Math.round(views * 0.0035) + Math.round(views * 0.005);
      case 'profile_links_taps':
        return Math.round(views * 0.0006);
      case 'follower_count':
        // Gross: the accounts that started following that day. Unfollows are not subtracted.
        return netFollowers('instagram', persona, followers, shape.growth, day).gained;
      default:
        return 0;
    }
  }

  function userInsights(request: SandboxRequest, index: number): Reply {
    const { query } = request;
    const metrics = (query.get('metric') ?? '').split(',').map((metric) => metric.trim()).filter(Boolean);
    if (metrics.length === 0) return graphError(400, { message: '(#100) The parameter metric is required', code: 100 });
    const unknown = metrics.find((metric) => !USER_METRICS.includes(metric));
    if (unknown !== undefined) return graphError(400, { message: `(#100) metric[${metrics.indexOf(unknown)}] must be one of the following values: ${USER_METRICS.join(', ')}`, code: 100 });
    const period = query.get('period');
    if (!period) return graphError(400, { message: '(#100) The parameter period is required', code: 100 });
    if (period !== 'day') return graphError(400, { message: `(#100) Incompatible period (${period}) for the requested metrics; the sandbox serves period=day`, code: 100 });
    const metricType = query.get('metric_type') ?? 'time_series';
    if (metricType !== 'time_series' && metricType !== 'total_value') return graphError(400, { message: '(#100) Param metric_type must be one of {time_series, total_value}', code: 100 });
    if (metricType === 'time_series' && metrics.includes('views')) {
      return graphError(400, { message: '(#100) The following metrics (views) should be specified with parameter metric_type=total_value', code: 100 });
    }
    if (metricType === 'total_value' && metrics.includes('follower_count')) {
      return graphError(400, { message: '(#100) The following metrics (follower_count) do not support metric_type=total_value', code: 100 });
    }
    const breakdown = query.get('breakdown');
    if (breakdown !== null) {
      if (metricType !== 'total_value') return graphError(400, { message: '(#100) breakdown is only supported with metric_type=total_value', code: 100 });
      const without = metrics.filter((metric) => !(BREAKDOWNS[metric] ?? []).includes(breakdown));
      if (without.length > 0) return graphError(400, { message: `(#100) The following metrics (${without.join(', ')}) do not support breakdown=${breakdown}`, code: 100 });
    }
    if (metricType === 'total_value' && metrics.includes('follows_and_unfollows') && breakdown !== 'follow_type') {
      return graphError(400, { message: '(#100) The metric follows_and_unfollows requires breakdown=follow_type', code: 100 });
    }
    const nowSeconds = Math.floor(context.now().getTime() / 1000);
    const parseTime = (name: string, fallback: number) => {
      const raw = query.get(name);
      if (raw === null) return fallback;
      const value = /^\d+$/.test(raw) ? Number(raw) : Math.floor(Date.parse(raw) / 1000);
      return Number.isFinite(value) ? value : null;
    };
    const until = parseTime('until', nowSeconds);
    const since = parseTime('since', (until ?? nowSeconds) - 2 * 86_400);
    if (until === null || since === null) return graphError(400, { message: '(#100) The since and until parameters must be Unix timestamps or dates', code: 100 });
    if (until < since) return graphError(400, { message: '(#100) The since parameter must be before the until parameter', code: 100 });
    if (until - since > 30 * 86_400) return graphError(400, { message: '(#100) There cannot be more than 30 days (2592000 s) between since and until', code: 100 });
    const firstDay = Math.floor(since / 86_400);
    const endDay = Math.floor(until / 86_400); // exclusive
    const lastDay = Math.min(endDay - 1, today() - 1); // today is not over yet
    const node = request.params.node!;
    const followers = deps.profiles[index]!.followersCount;
    const data: unknown[] = [];
    for (const metric of metrics) {
      if (metricType === 'time_series') {
        // Without metric_type=total_value these metrics have no time series: nothing comes back for them.
        if (metric !== 'follower_count' && metric !== 'reach') continue;
        if (metric === 'follower_count' && followers < 100) continue;
        const oldest = Math.max(firstDay, today() - (metric === 'follower_count' ? FOLLOWER_DAYS : RETENTION_DAYS));
        const values: { value: number; end_time: string }[] = [];
        for (let day = oldest; day <= lastDay; day += 1) {
          values.push({ value: accountDaily(index, metric, day), end_time: new Date((day + 1) * DAY_MS + 7 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+0000') });
        }
        data.push(insightsEntry(node, metric, 'day', { values }));
      } else if (metric === 'follows_and_unfollows') {
        // FOLLOWER: accounts that followed in the range; NON_FOLLOWER: accounts that unfollowed (or left Instagram).
        // Follower data, like follower_count, only for the last 30 days: a range without one of them has no entry.
        const oldest = Math.max(firstDay, today() - FOLLOWER_DAYS);
        if (oldest > lastDay) continue;
        const persona = PERSONAS[index]!;
        let follows = 0;
        let unfollows = 0;
        for (let day = oldest; day <= lastDay; day += 1) {
          const change = netFollowers('instagram', persona, followers, SHAPE[persona.tier].growth, day);
          follows += change.gained;
          unfollows += change.lost;
        }
        const results = [
          { dimension_values: ['FOLLOWER'], value: follows },
          { dimension_values: ['NON_FOLLOWER'], value: unfollows },
        ];
        data.push(insightsEntry(node, metric, 'day', { total_value: { value: follows + unfollows, breakdowns: [{ dimension_keys: ['follow_type'], results }] } }));
      } else {
        // Kept for two years: a range without a day of them (or without a whole day yet) has no entry.
        const oldest = Math.max(firstDay, today() - RETENTION_DAYS);
        if (oldest > lastDay) continue;
        let total = 0;
        for (let day = oldest; day <= lastDay; day += 1) total += accountDaily(index, metric, day);
        if (metric === 'reach' || metric === 'accounts_engaged') total = Math.round(total * (lastDay > oldest ? 0.7 : 1)); // unique accounts overlap across days
        data.push({ ...insightsEntry(node, metric, 'day', { total_value: { value: total } }) });
      }
    }
    const page = (from: number, to: number) => {
      const url = new URL(`https://graph.instagram.com/v25.0/${deps.profiles[index]!.userId}/insights`);
      for (const [key, value] of query) if (key !== 'since' && key !== 'until') url.searchParams.set(key, value);
      url.searchParams.set('since', String(from));
      url.searchParams.set('until', String(to));
      return url.href;
    };
    const span = Math.max(86_400, until - since);
    return json(200, { data, ...(metricType === 'time_series' ? { paging: { previous: page(since - span, since), next: page(until, until + span) } } : {}) });
  }

  function insights(request: SandboxRequest): Reply {
    const checked = graphToken(request);
    if ('error' in checked) return checked.error;
    const { grant } = checked.record;
    const node = request.params.node!;
    if (!grant.scopes.includes('instagram_business_manage_insights')) return missingPermission();
    if (isOwnNode(node, grant.accountIndex)) return userInsights(request, grant.accountIndex);
    const found = byId.get(node);
    if (!found || found.index !== grant.accountIndex || found.item.publishedMs > context.now().getTime()) return unknownNode(node);
    return mediaInsights(request, found);
  }

  const isUserNode = (node: string) => node === 'me' || deps.profiles.some((profile) => profile.id === node || profile.userId === node);
  const version = '(?:/v\\d+\\.\\d+)?';
  const routes: RouteDefinition[] = [
    { platform: 'instagram', hosts: ['graph.instagram.com'], method: 'GET', path: new RegExp(`^${version}/(?<node>me|\\d+)/media$`), endpoint: 'media', group: 'metrics', handle: mediaList },
    {
      platform: 'instagram',
      hosts: ['graph.instagram.com'],
      method: 'GET',
      path: new RegExp(`^${version}/(?<node>me|\\d+)/insights$`),
      endpoint: (request) => (isUserNode(request.params.node ?? '') ? 'user.insights' : 'media.insights'),
      group: 'metrics',
      handle: insights,
    },
  ];

  /** Graph throttling (2.7): HTTP 400 with the level's `error.code`, usage in headers, never a Retry-After. */
  function throttled({ graphErrorCode = 4, regainAccessMinutes }: FailureOptions): Reply {
    const usage = { call_count: 100, total_cputime: 12, total_time: 34 };
    const message = {
      4: '(#4) Application request limit reached',
      17: '(#17) User request limit reached',
      32: '(#32) Page request limit reached',
      613: '(#613) Calls to this api have exceeded the rate limit.',
      80002: '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again.',
    }[graphErrorCode];
    const headers: Record<string, string> = { [graphErrorCode === 32 ? 'x-page-usage' : 'x-app-usage']: JSON.stringify(usage) };
    if (regainAccessMinutes !== undefined) {
      headers['x-business-use-case-usage'] = JSON.stringify({ '17841400000000000': [{ type: 'instagram', ...usage, estimated_time_to_regain_access: regainAccessMinutes }] });
    }
    return graphError(400, { message, code: graphErrorCode, is_transient: true }, headers);
  }

  function failure(kind: RenderedFailure, options: FailureOptions = {}): Reply {
    switch (kind) {
      case 'rate_limited':
        return throttled(options);
      case 'token_expired': {
        const expired = new Date(context.now().getTime() - 3_600_000);
        return graphError(400, { message: `Error validating access token: Session has expired on ${deps.pacificTime(expired)}. The current time is ${deps.pacificTime(context.now())}.`, code: 190, error_subcode: 463 });
      }
      case 'revoked':
      case 'invalid_grant':
        return graphError(400, { message: 'Error validating access token: The user has not authorized application.', code: 190, error_subcode: 458 });
      default:
        return graphError(500, { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true });
    }
  }

  const mediaCount = (index: number) => publishedBy(mediaOf(index), context.now()).length;
  return { routes, failure, mediaCount };
}
