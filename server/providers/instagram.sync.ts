// Instagram sync (docs/platforms/instagram.md): the profile's followers_count, media pages (cursor paging through
// `paging.next`), media insights for recent media, and account insights. Follower history is derived backwards
// from today's followers_count with each day's follows minus unfollows (`follows_and_unfollows` by `follow_type`):
// `follower_count` counts new followers only (gross, never negative), so it cannot give a total. The account's daily
// totals (views, reach, interactions) are read back two years on the first sync, so a new connection's first month is
// compared with the month before it like any other (issue 24: a history start is not growth); follower insights only
// reach 30 days back.
import { z } from 'zod';
import { addDays } from '../lib/dates.ts';
import { buildUrl, callCounter, count, parseBody, type PlatformResponse } from './http-client.ts';
import { retryAfterSeconds } from './http-date.ts';
import { PlatformError } from './platform-error.ts';
import { type CounterReadInput, type CounterReadOutput, type ProviderContext, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';

const GRAPH = 'https://graph.instagram.com/v25.0';
const MEDIA_FIELDS = 'id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count';
const MEDIA_INSIGHTS = 'views,reach,likes,comments,shares,saved,total_interactions';
/** The public counters alone (the poll of young posts): reach and saves are not read hourly. */
const COUNTER_INSIGHTS = 'views,likes,comments,shares,total_interactions';
const DAY_SECONDS = 86_400;
/**
 * How far back a first sync reads the account's daily totals (views, reach, interactions): Meta keeps account
 * insights for two years. `total_value` gives one total per range, so a daily history is one call per day. The cost,
 * measured with bench/instagram-first-sync.ts (the demo personas on PGlite, on a two-core machine shared with other
 * work): the 700 more calls add about 0.3–1 s, of CPU and of wall time, to a first sync that took 0.3 s (the small
 * persona) to 1.5 s (the large one) of CPU. Had it been more than ~1.5 s, 400 days would have done: a year-on-year
 * comparison of a 30-day period still holds both periods.
 */
export const ACCOUNT_INSIGHT_HISTORY_DAYS = 730;
/** Follower insights (`follower_count`, and `follows_and_unfollows` read alike) cover the last 30 days only. */
export const FOLLOWER_INSIGHT_DAYS = 30;
/**
 * Graph calls in flight at once while reading the account's daily insights: a first sync's two years are 730 days,
 * and at a few hundred milliseconds a round trip to Meta, one after another would take minutes. A few at a time, not
 * more: Graph throttles per account (2.7), and a throttling answer stops the sync (it resumes later) rather than being
 * raced past.
 */
const HISTORY_CONCURRENCY = 4;

/** The later of two YYYY-MM-DD days. */
const latest = (a: string, b: string) => (a > b ? a : b);

/**
 * `work` on every item, at most `limit` at a time, the results in the items' order. The first failure stops new work
 * from starting; the calls already in flight are awaited (nothing left running after the sync returns), then that
 * failure is thrown.
 */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  async function worker() {
    while (failure === undefined && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

const graphError = z.looseObject({ error: z.looseObject({ code: z.number().optional(), error_subcode: z.number().optional(), message: z.string().optional() }) });
const profileBody = z.looseObject({ id: z.string(), followers_count: count.optional() });
const mediaBody = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      caption: z.string().optional(),
      permalink: z.string().optional(),
      timestamp: z.string().optional(),
      like_count: count.optional(),
      comments_count: count.optional(),
    }),
  ),
  paging: z.looseObject({ next: z.string().optional() }).optional(),
});
const insightsBody = z.looseObject({
  data: z.array(
    z.looseObject({
      name: z.string(),
      values: z.array(z.looseObject({ value: z.number(), end_time: z.string().optional() })).optional(),
      total_value: z
        .looseObject({
          value: z.number(),
          breakdowns: z.array(z.looseObject({ dimension_keys: z.array(z.string()).optional(), results: z.array(z.looseObject({ dimension_values: z.array(z.string()), value: z.number() })) })).optional(),
        })
        .optional(),
    }),
  ),
});

const businessUseCaseUsage = z.record(z.string(), z.array(z.looseObject({ estimated_time_to_regain_access: z.number().nonnegative().optional() })));

/**
 * The longest `estimated_time_to_regain_access` (minutes) in `X-Business-Use-Case-Usage`, in seconds: the only
 * time Graph throttling signals (2.7). Undefined when absent, zero or unreadable.
 */
function regainAccessSeconds(response: PlatformResponse): number | undefined {
  const header = response.headers.get('x-business-use-case-usage');
  if (!header) return undefined;
  let usage: unknown;
  try {
    usage = JSON.parse(header);
  } catch {
    return undefined;
  }
  const minutes = Object.values(businessUseCaseUsage.safeParse(usage).data ?? {}).flatMap((entries) => entries.map((entry) => entry.estimated_time_to_regain_access ?? 0));
  const longest = Math.max(0, ...minutes);
  return longest > 0 ? longest * 60 : undefined;
}

/** Graph errors are keyed by `error.code`, not the HTTP status (2.7). */
function graphFailure(response: PlatformResponse, operation: string): PlatformError {
  const parsed = graphError.safeParse(response.body);
  const code = parsed.success ? parsed.data.error.code : undefined;
  const details = { status: response.status, errorCode: code !== undefined ? String(code) : undefined, retryAfterSeconds: retryAfterSeconds(response) ?? regainAccessSeconds(response) };
  if (response.status === 429 || (code !== undefined && [4, 17, 32, 613, 80002].includes(code))) {
    return new PlatformError('rate_limited', 'instagram', operation, 'The platform is rate limiting us', details);
  }
  if (code === 190 || response.status === 401) return new PlatformError('unauthorized', 'instagram', operation, 'The platform refused the access token', details);
  return new PlatformError('unavailable', 'instagram', operation, 'The platform could not answer', details);
}

/**
 * A Graph answer about one thing we can do without (one media's insights, one day's follower changes): any 4xx that
 * is neither throttling nor a dead token, e.g. code 100 with subcode 2108006 (media posted before the account became
 * a business account), code 10 (too few viewers) or code 100 (a metric unavailable for the item).
 */
const isItemRefusal = (error: unknown) =>
  error instanceof PlatformError && error.kind === 'unavailable' && error.details.errorCode !== 'malformed_response' && (error.details.status ?? 500) >= 400 && (error.details.status ?? 500) < 500;

/** Follows minus unfollows from a `follows_and_unfollows` answer broken down by `follow_type`; undefined when absent. */
function netFollowChange(body: z.infer<typeof insightsBody>): number | undefined {
  const breakdown = body.data.find((metric) => metric.name === 'follows_and_unfollows')?.total_value?.breakdowns?.find((entry) => entry.dimension_keys?.includes('follow_type'));
  if (!breakdown) return undefined;
  const valueOf = (type: string) => breakdown.results.find((result) => result.dimension_values[0] === type)?.value ?? 0;
  return valueOf('FOLLOWER') - valueOf('NON_FOLLOWER');
}

const METRIC_NAMES: Record<string, string> = { views: 'views', likes: 'likes', comments: 'comments', shares: 'shares', total_interactions: 'engagements', reach: 'reach', saved: 'saves' };

/** Graph calls, counted; a refusal is read by graphFailure (throttling waits, a dead token reconnects). */
function graphRequests(context: ProviderContext) {
  const { usage, call } = callCounter();
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await call(context, { platform: 'instagram', operation: 'metrics', url });
    if (response.status !== 200) throw graphFailure(response, 'metrics');
    return parseBody(schema, response, 'instagram', 'metrics');
  }
  return { usage, get };
}

/** One media's insights as our metric names; missing data is an empty set, never a zero (2.5). */
function insightMetrics(insights: z.infer<typeof insightsBody>, into: Partial<Record<string, number>>) {
  for (const metric of insights.data) {
    const value = metric.total_value?.value ?? metric.values?.[0]?.value;
    const name = METRIC_NAMES[metric.name];
    if (name && value !== undefined) into[name] = value;
  }
}

/**
 * The young-post poll's read: one media-insights call per post, asking only for its public counters. Views exist
 * only in insights (the media node's fields carry likes and comments, not views), so this one call per media is the
 * cheapest read that has them. A media without insights is skipped; throttling and a dead token stop the read.
 */
export async function readInstagramCounters(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput> {
  const { usage, get } = graphRequests(context);
  const counters: CounterReadOutput['counters'] = [];
  for (const id of input.platformContentIds) {
    try {
      const metrics: Partial<Record<string, number>> = {};
      insightMetrics(await get(buildUrl(`${GRAPH}/${id}/insights`, { metric: COUNTER_INSIGHTS, access_token: input.accessToken }), insightsBody), metrics);
      counters.push({ platformContentId: id, metrics });
    } catch (error) {
      if (!isItemRefusal(error)) throw error;
    }
  }
  return { counters, usage };
}

export async function syncInstagram(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, get } = graphRequests(context);
  const token = input.accessToken;
  const profile = await get(buildUrl(`${GRAPH}/me`, { fields: 'id,followers_count,media_count', access_token: token }), profileBody);

  // Media: the list carries like and comment counts; older pages only matter on the first sync.
  const content: SyncedContent[] = [];
  let next: string | undefined = buildUrl(`${GRAPH}/me/media`, { fields: MEDIA_FIELDS, limit: '25', access_token: token });
  while (next) {
    const page: z.infer<typeof mediaBody> = await get(next, mediaBody);
    let reachedOld = false;
    for (const media of page.data) {
      const publishedAt = media.timestamp ? new Date(media.timestamp.replace(/\+0000$/, 'Z')) : null;
      const recent = publishedAt === null || publishedAt >= input.contentSince;
      if (!input.firstSync && !recent && input.knownContentIds.has(media.id)) reachedOld = true;
      const metrics: Partial<Record<string, number>> = {};
      if (media.like_count !== undefined) metrics.likes = media.like_count;
      if (media.comments_count !== undefined) metrics.comments = media.comments_count;
      if (recent || !input.knownContentIds.has(media.id)) {
        let insights: z.infer<typeof insightsBody> = { data: [] };
        try {
          insights = await get(buildUrl(`${GRAPH}/${media.id}/insights`, { metric: MEDIA_INSIGHTS, access_token: token }), insightsBody);
        } catch (error) {
          // This media has no insights (posted before the business conversion, too few viewers…): keep it with
          // the list's counts and go on. Throttling and a dead token stop the sync.
          if (!isItemRefusal(error)) throw error;
        }
        insightMetrics(insights, metrics);
      }
      const caption = media.caption ?? '';
      content.push({ platformContentId: media.id, title: caption.split('\n')[0]!.slice(0, 120), description: caption || null, publishedAt, url: media.permalink ?? null, metrics });
    }
    next = reachedOld ? undefined : page.paging?.next;
  }

  // Account insights, day by day: totals (views, reach, interactions; as far back as the sync's window and Meta
  // reach), and follows and unfollows (the follower history, last 30 days only). A day Meta has no data for answers
  // an empty data set and stores nothing: missing is unknown, never 0.
  const followers = profile.followers_count;
  const unix = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
  const firstFollowerDay = latest(input.since, addDays(input.today, -FOLLOWER_INSIGHT_DAYS));
  // The totals cover the sync's whole window: two years on a first sync, the days since the last sync otherwise
  // (three on a daily sync; after a pause of months, every day of it Meta still keeps).
  const firstTotalsDay = latest(input.since, addDays(input.today, -ACCOUNT_INSIGHT_HISTORY_DAYS));
  const days: string[] = [];
  for (let day = firstTotalsDay; day < input.today; day = addDays(day, 1)) days.push(day);
  const perDay = await mapBounded(days, HISTORY_CONCURRENCY, async (day) => {
    const range = { period: 'day', metric_type: 'total_value', since: String(unix(day)), until: String(unix(day) + DAY_SECONDS), access_token: token };
    const totals = await get(buildUrl(`${GRAPH}/me/insights`, { metric: 'views,reach,total_interactions', ...range }), insightsBody);
    const rows: SyncOutput['daily'] = [];
    for (const metric of totals.data) {
      const name = METRIC_NAMES[metric.name];
      const value = metric.total_value?.value;
      if (name && value !== undefined) rows.push({ date: day, metricType: name, value });
    }
    if (followers === undefined || day < firstFollowerDay) return { rows, net: undefined };
    try {
      const changes = await get(buildUrl(`${GRAPH}/me/insights`, { metric: 'follows_and_unfollows', breakdown: 'follow_type', ...range }), insightsBody);
      return { rows, net: netFollowChange(changes) };
    } catch (error) {
      // No follower insights for this account (e.g. under 100 followers): the snapshot stands.
      if (!isItemRefusal(error)) throw error;
      return { rows, net: undefined };
    }
  });
  const daily: SyncOutput['daily'] = [];
  if (followers !== undefined) daily.push({ date: input.today, metricType: 'followers', value: followers });
  const netChange = new Map<string, number>();
  days.forEach((day, index) => {
    const { rows, net } = perDay[index]!;
    daily.push(...rows);
    if (net !== undefined) netChange.set(day, net);
  });
  // The total at the end of each day, back from today's count, as far as the days without a gap reach. (Today's
  // own changes so far are not known: the count read now stands for the end of yesterday as well.)
  if (followers !== undefined) {
    let laterNet = 0;
    for (let day = addDays(input.today, -1); netChange.has(day); day = addDays(day, -1)) {
      daily.push({ date: day, metricType: 'followers', value: followers - laterNet });
      laterNet += netChange.get(day)!;
    }
  }
  return { followers, daily, content, usage };
}
