// Instagram's metrics endpoints on graph.instagram.com: the media list, media insights and account insights.
// docs/platforms/instagram.md, §7.
//
// Modelled: `/me/media` (or `/<id>/media`) newest first with cursor paging (`paging.cursors`, `paging.next` absent
// on the last page); `/<media-id>/insights` lifetime values per media type (FEED vs REELS metrics; deprecated
// metrics → code 100; media posted before the account became a business account → code 100, subcode 2108006);
// `/me/insights` on Meta's days (ending 07:00 UTC, `end_time` `<date>T07:00:00+0000`), with the rules of
// ../shared/platform-apis-corrections.md ("Rules the imitation must enforce" 16–22, each cited where enforced): ranges
// of at most 30 days; `follower_count` (daily GROSS new followers, a time series only, none below 100 followers) only
// inside the last 30 days before today, else the whole call is refused; total_value-only metrics refused without
// `metric_type=total_value`; unfollows only through `follows_and_unfollows` broken down by `follow_type` (also only for
// the last 30 days: Meta says so of follower metrics, and the sandbox takes the stricter reading for this one too;
// without a `total_value` below 100 followers); the other account metrics as far back as a switch says (default 90
// days, unverified), past it an empty answer or a code 100 refusal (another switch). Where Meta has no data it answers
// an empty data set, never a 0. Errors are Graph error objects keyed by `error.code`.
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

/** Follower data (follower_count, and follows_and_unfollows read alike) covers the last 30 days before today. */
const FOLLOWER_DAYS = 30;
const MAX_RANGE_SECONDS = 30 * 86_400;
/** Meta's day ends at 07:00 UTC (corrections row 19: every captured `end_time` is T07:00:00+0000). */
const META_DAY_OFFSET_SECONDS = 7 * 3_600;
/** Unix seconds at which Meta day `day` (days since 1970-01-01, labelled with the date it starts on) begins. */
export const metaDayStart = (day: number) => day * 86_400 + META_DAY_OFFSET_SECONDS;
/** The Meta day under way at `now` (not over yet, so without data). */
export const currentMetaDay = (now: Date) => Math.floor((Math.floor(now.getTime() / 1000) - META_DAY_OFFSET_SECONDS) / 86_400);
/** A daily value's `end_time`: the end of its Meta day, `<next date>T07:00:00+0000`. */
const metaEndTime = (day: number) => new Date(metaDayStart(day + 1) * 1000).toISOString().replace(/\.\d{3}Z$/, '+0000');

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
/** Account metrics Meta serves as total_value only (corrections row 14, official metric table); reach has both. */
const TOTAL_VALUE_ONLY = TOTAL_VALUE_METRICS.filter((metric) => metric !== 'reach');
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
    // Rule 18 (corrections row 17, peer adapter notes): total_value-only metrics asked without metric_type=total_value
    // fail the call (one of the two reported behaviours; the other, an empty answer, is what an adapter must not rely on).
    const totalOnly = metrics.filter((metric) => TOTAL_VALUE_ONLY.includes(metric));
    if (metricType === 'time_series' && totalOnly.length > 0) {
      return graphError(400, { message: `(#100) The following metrics (${totalOnly.join(', ')}) should be specified with parameter metric_type=total_value`, code: 100 });
    }
    // Rule 19 (row 16, official metric table): follower_count is a time series only.
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
    // Meta's days end at 07:00 UTC (row 19): day m runs from metaDayStart(m) to metaDayStart(m + 1); the current one
    // is not over, so only the days before it have data.
    const current = currentMetaDay(context.now());
    const parseTime = (name: string, fallback: number) => {
      const raw = query.get(name);
      if (raw === null) return fallback;
      const value = /^\d+$/.test(raw) ? Number(raw) : Math.floor(Date.parse(raw) / 1000);
      return Number.isFinite(value) ? value : null;
    };
    const until = parseTime('until', metaDayStart(current));
    const since = parseTime('since', (until ?? metaDayStart(current)) - 2 * 86_400);
    if (until === null || since === null) return graphError(400, { message: '(#100) The since and until parameters must be Unix timestamps or dates', code: 100 });
    if (until < since) return graphError(400, { message: '(#100) The since parameter must be before the until parameter', code: 100 });
    // Rule 16 (row 15, captured by several peers): the same cap for time_series and total_value.
    if (until - since > MAX_RANGE_SECONDS) return graphError(400, { message: '(#100) There cannot be more than 30 days (2592000 s) between since and until', code: 100 });
    // Rule 17 (row 16, official limitations list): follower_count outside the last 30 days before today refuses the
    // whole call, the other metrics in it too.
    if (metrics.includes('follower_count') && (since < metaDayStart(current - FOLLOWER_DAYS) || until > metaDayStart(current))) {
      return graphError(400, { message: '(#100) (follower_count) metric only supports querying data for the last 30 days excluding the current day', code: 100 });
    }
    // Rule 22 (row 18, unverified): how far back account insights go is a switch; past it, empty or refused.
    const horizon = current - context.settings.instagramAccountInsightDays;
    const nonFollower = metrics.some((metric) => metric !== 'follower_count' && metric !== 'follows_and_unfollows');
    if (context.settings.instagramOldDays === 'refuse' && nonFollower && since < metaDayStart(horizon)) {
      return graphError(400, { message: '(#100) Insights data is not available for the requested time range', code: 100 });
    }
    // The Meta days that start inside [since, until) and are over. How Meta bins a range that is not on its day
    // boundary is not documented (row 19): the sandbox counts the days that start in it.
    const firstDay = Math.ceil((since - META_DAY_OFFSET_SECONDS) / 86_400);
    const lastDay = Math.min(Math.ceil((until - META_DAY_OFFSET_SECONDS) / 86_400) - 1, current - 1);
    const node = request.params.node!;
    const followers = deps.profiles[index]!.followersCount;
    const data: unknown[] = [];
    for (const metric of metrics) {
      const oldest = Math.max(firstDay, metric === 'follower_count' || metric === 'follows_and_unfollows' ? current - FOLLOWER_DAYS : horizon);
      if (metricType === 'time_series') {
        // Rule 21: no follower_count under 100 followers.
        if (metric === 'follower_count' && followers < 100) continue;
        const values: { value: number; end_time: string }[] = [];
        for (let day = oldest; day <= lastDay; day += 1) values.push({ value: accountDaily(index, metric, day), end_time: metaEndTime(day) });
        // Rule 21 (row 20, account-insights reference): no data is an empty data set, never a 0.
        if (values.length === 0) continue;
        data.push(insightsEntry(node, metric, 'day', { values }));
      } else if (metric === 'follows_and_unfollows') {
        // FOLLOWER: accounts that followed in the range; NON_FOLLOWER: accounts that unfollowed (or left Instagram).
        // Follower data, like follower_count, only for the last 30 days: a range without one of them has no entry.
        if (oldest > lastDay) continue;
        // Rule 21 (row 20, peer probe report): under 100 followers the entry comes without a total_value.
        if (followers < 100) {
          const [title, description] = TITLES[metric]!;
          data.push({ name: metric, period: 'day', title, description, id: `${node}/insights/${metric}/day` });
          continue;
        }
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
        // Rule 20: one total for the whole range, no values[]. A range without a day inside the horizon (or without
        // a day that is over) has no entry.
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
