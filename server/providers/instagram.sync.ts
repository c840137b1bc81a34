// Instagram sync (docs/platforms/instagram.md): the profile's followers_count, media pages (cursor paging through
// `paging.next`), media insights for recent media, and account insights on Meta's days (ending 07:00 UTC, see
// metaDay below). Follower history is derived backwards from today's followers_count with each day's follows minus
// unfollows (`follows_and_unfollows` by `follow_type`): `follower_count` counts new followers only (gross, never
// negative), so it cannot give a total; it only says which days have follower data. The account's daily totals
// (views, reach, interactions) are read back as far as Meta answers on the first sync (a history start is
// not growth), within a two-year bound; follower insights only reach the last 30 days.
import { z } from 'zod';
import { addDays, dayOf } from '../lib/dates.ts';
import { failureRuleOf, platformFailure } from './failure-rule.ts';
import { buildUrl, callCounter, count, parseBody } from './http-client.ts';
import { PlatformError } from './platform-error.ts';
import { type CounterReadInput, type CounterReadOutput, type ProviderContext, type SyncedContent, type SyncInput, type SyncOutput } from './provider.ts';
import { retriedParts, syncParts } from './sync-parts.ts';

const GRAPH = 'https://graph.instagram.com/v25.0';
const MEDIA_FIELDS = 'id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count';
const MEDIA_INSIGHTS = 'views,reach,likes,comments,shares,saved,total_interactions';
/** The public counters alone (the poll of young posts): reach and saves are not read hourly. */
const COUNTER_INSIGHTS = 'views,likes,comments,shares,total_interactions';
/**
 * The furthest back a first sync asks for the account's daily totals. Meta documents no retention for account
 * insights (corrections row 18: "stored for up to 2 years" is said of media insights only; Instagram's app shows 90
 * days), so this is only a bound: the reading walks back 30 days at a time and stops at the first 30 days Meta has no
 * data for, or refuses (accountTotals). Two years, as the sync window of a first sync, so a history Meta does keep is
 * read whole.
 */
export const ACCOUNT_INSIGHT_HISTORY_DAYS = 730;
/** Follower insights (`follower_count`, and `follows_and_unfollows` read alike) cover the last 30 days before today only. */
export const FOLLOWER_INSIGHT_DAYS = 30;
/** The widest `since`/`until` Meta answers for account insights: 30 days (row 15). */
const MAX_RANGE_DAYS = 30;

/**
 * Meta's day (corrections row 19): daily values end at 07:00 UTC (`end_time` `2026-05-05T07:00:00+0000`), i.e. a
 * Meta day runs from 07:00 UTC to 07:00 UTC the next day: midnight to midnight in California in summer, which is the
 * day Instagram's own screens label it with. The product stores it under the date it starts on: Instagram's day
 * `2026-05-04` is 2026-05-04T07:00Z to 2026-05-05T07:00Z, its `end_time` is 2026-05-05T07:00:00+0000, and the
 * product's calendar day 2026-05-04 holds it (17 of its 24 hours fall on that UTC date). Requests are asked on that
 * boundary (`since` and `until` at 07:00 UTC), so a total is one Meta day, not the halves of two.
 */
const META_DAY_OFFSET_MS = 7 * 3_600_000;
/** Unix seconds at which the Meta day stored as `day` (YYYY-MM-DD) starts. */
export const metaDayStart = (day: string) => (Date.parse(`${day}T00:00:00Z`) + META_DAY_OFFSET_MS) / 1000;
/** The day a daily value belongs to, from its `end_time` (the end of its Meta day); undefined when unreadable. */
export function metaDayOfEndTime(endTime: string): string | undefined {
  const end = Date.parse(endTime.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(end) ? dayOf(new Date(end - META_DAY_OFFSET_MS - 1)) : undefined;
}
/** The last Meta day that is over at `now` (the one under way has no data yet). */
export const lastCompleteMetaDay = (now: Date) => addDays(dayOf(new Date(now.getTime() - META_DAY_OFFSET_MS)), -1);
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

/**
 * A Graph answer about one thing we can do without (one media's insights, one day's follower changes): what the
 * failure rule calls skip_part (failure-rule.ts), e.g. code 100 with subcode 2108006 (media posted before the account
 * became a business account), "(#10) Not enough viewers", or code 100 for a day or metric Meta has nothing for.
 * Throttling, a dead token and a permission only the creator can give stop the sync.
 */
const isItemRefusal = (error: unknown) => error instanceof PlatformError && failureRuleOf(error).rule === 'skip_part';

/** Follows minus unfollows from a `follows_and_unfollows` answer broken down by `follow_type`; undefined when absent. */
function netFollowChange(body: z.infer<typeof insightsBody>): number | undefined {
  const breakdown = body.data.find((metric) => metric.name === 'follows_and_unfollows')?.total_value?.breakdowns?.find((entry) => entry.dimension_keys?.includes('follow_type'));
  if (!breakdown) return undefined;
  const valueOf = (type: string) => breakdown.results.find((result) => result.dimension_values[0] === type)?.value ?? 0;
  return valueOf('FOLLOWER') - valueOf('NON_FOLLOWER');
}

const METRIC_NAMES: Record<string, string> = { views: 'views', likes: 'likes', comments: 'comments', shares: 'shares', total_interactions: 'engagements', reach: 'reach', saved: 'saves' };

/** Graph calls, counted; a refusal is read by the failure rule (throttling waits, a dead token reconnects). */
function graphRequests(context: ProviderContext) {
  const { usage, call } = callCounter();
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await call(context, { platform: 'instagram', operation: 'metrics', url });
    if (response.status !== 200) throw platformFailure('instagram', 'metrics', response);
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

type GraphGet = ReturnType<typeof graphRequests>['get'];

/** Graph's `since`/`until` of a run of Meta days, first to last inclusive (Unix seconds on Meta's boundary). */
function metaRange(first: string, last: string) {
  return { since: String(metaDayStart(first)), until: String(metaDayStart(addDays(last, 1))) };
}
type Parts = ReturnType<typeof syncParts>;

/** A Graph read whose item refusal (isItemRefusal: data Meta does not have) answers `absent` instead of failing the part. */
async function unlessRefused<T, A>(read: () => Promise<T>, absent: A): Promise<T | A> {
  try {
    return await read();
  } catch (error) {
    if (!isItemRefusal(error)) throw error;
    return absent;
  }
}

/**
 * The account's daily totals of one window of at most 30 days (the longest range Meta answers): one `reach` time
 * series (one value per Meta day that has data), whose days are the days the window has, and only those get their
 * one `total_value` call for `views` and `total_interactions` (those metrics have no time series: one total per
 * range, so one call per day). Answers null when the window has no day of data, or Meta refuses it (code 100): how
 * far back Meta keeps account insights is not documented, so that is where its history ends, not a failure. A day
 * refused likewise stores nothing. A window or a day Meta fails to answer is a missing part (`account-days:<first>..
 * <last>`), read again on the next run; undefined when the whole window is. Throttling and a dead token stop the sync.
 */
async function accountWindow(get: GraphGet, token: string, parts: Parts, first: string, last: string): Promise<SyncOutput['daily'] | null | undefined> {
  const reach = await parts.read(`account-days:${first}..${last}`, () =>
    unlessRefused(() => get(buildUrl(`${GRAPH}/me/insights`, { metric: 'reach', period: 'day', metric_type: 'time_series', ...metaRange(first, last), access_token: token }), insightsBody), null),
  );
  if (reach === undefined || reach === null) return reach;
  const reachByDay = new Map<string, number>();
  for (const value of reach.data.find((metric) => metric.name === 'reach')?.values ?? []) {
    const day = value.end_time === undefined ? undefined : metaDayOfEndTime(value.end_time);
    if (day !== undefined && day >= first && day <= last) reachByDay.set(day, value.value);
  }
  if (reachByDay.size === 0) return null;
  const days = [...reachByDay.keys()].sort().reverse();
  const perDay = await mapBounded(days, HISTORY_CONCURRENCY, (day) =>
    parts.read(`account-days:${day}..${day}`, () =>
      unlessRefused(() => get(buildUrl(`${GRAPH}/me/insights`, { metric: 'views,total_interactions', period: 'day', metric_type: 'total_value', ...metaRange(day, day), access_token: token }), insightsBody), {
        data: [],
      }),
    ),
  );
  const rows: SyncOutput['daily'] = [];
  days.forEach((day, index) => {
    rows.push({ date: day, metricType: 'reach', value: reachByDay.get(day)! });
    for (const metric of perDay[index]?.data ?? []) {
      const name = METRIC_NAMES[metric.name];
      const value = metric.total_value?.value;
      if (name && value !== undefined) rows.push({ date: day, metricType: name, value });
    }
  });
  return rows;
}

/**
 * Each day's follows minus unfollows from `first` to `last` (within the last 30 days before today, where Meta has
 * follower metrics). `follower_count` comes first, alone in its call (Meta refuses the whole call when it is asked
 * outside its window): the days it has values for are the days with follower data, so an account without (under 100
 * followers) costs one call, not thirty. Then one `follows_and_unfollows` call per such day: it is a range total.
 * Undefined when Meta failed to answer (the `follower-history` part is missing): no history rather than a broken one.
 */
async function followerChanges(get: GraphGet, token: string, parts: Parts, first: string, last: string): Promise<Map<string, number> | undefined> {
  const net = new Map<string, number>();
  if (first > last) return net;
  const gained = await parts.read('follower-history', () =>
    unlessRefused(() => get(buildUrl(`${GRAPH}/me/insights`, { metric: 'follower_count', period: 'day', ...metaRange(first, last), access_token: token }), insightsBody), null),
  );
  if (gained === undefined) return undefined;
  // No follower insights for this account: the snapshot stands.
  if (gained === null) return net;
  const days = (gained.data.find((metric) => metric.name === 'follower_count')?.values ?? [])
    .map((value) => (value.end_time === undefined ? undefined : metaDayOfEndTime(value.end_time)))
    .filter((day): day is string => day !== undefined && day >= first && day <= last);
  let failed = false;
  const changes = await mapBounded(days, HISTORY_CONCURRENCY, async (day) => {
    const read = await parts.read('follower-history', () =>
      unlessRefused(
        async () => ({ change: netFollowChange(await get(buildUrl(`${GRAPH}/me/insights`, { metric: 'follows_and_unfollows', breakdown: 'follow_type', period: 'day', metric_type: 'total_value', ...metaRange(day, day), access_token: token }), insightsBody)) }),
        { change: undefined },
      ),
    );
    if (read === undefined) failed = true;
    return read?.change;
  });
  if (failed) return undefined;
  days.forEach((day, index) => {
    const change = changes[index];
    if (change !== undefined) net.set(day, change);
  });
  return net;
}

/**
 * A first sync's progress, kept as it goes (SyncInput.keep): the profile's followers, the media pages read (the next
 * page's address, without its token), the account-insight windows read (from `historyTop` down to the day before
 * `historyNext`; null once the walk has ended) and the parts missed so far.
 */
const checkpointBody = z.object({
  profileRead: z.boolean(),
  followers: z.number().nullable(),
  postsNext: z.string().nullable(),
  postsDone: z.boolean(),
  historyTop: z.string().nullable(),
  historyNext: z.string().nullable(),
  missing: z.array(z.object({ part: z.string(), reason: z.string(), at: z.string() })),
});
type InstagramCheckpoint = z.infer<typeof checkpointBody>;
const FRESH_CHECKPOINT: InstagramCheckpoint = { profileRead: false, followers: null, postsNext: null, postsDone: false, historyTop: null, historyNext: null, missing: [] };

/** A paging address as kept in a checkpoint: without the access token (a checkpoint is no place for secrets). */
function withoutToken(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('access_token');
  return parsed.toString();
}
function withToken(url: string, token: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('access_token', token);
  return parsed.toString();
}

export async function syncInstagram(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, get } = graphRequests(context);
  const parts = syncParts(context);
  const token = input.accessToken;
  const resumed = input.firstSync ? checkpointBody.safeParse(input.checkpoint).data : undefined;
  const checkpoint: InstagramCheckpoint = { ...(resumed ?? FRESH_CHECKPOINT) };
  const daily: SyncOutput['daily'] = [];
  const content: SyncedContent[] = [];
  /**
   * What a part read: on a first sync kept at once with the checkpoint (a throttle or a crash later loses none of
   * it), otherwise returned with the rest.
   */
  async function keep(rows: { daily?: SyncOutput['daily']; content?: SyncedContent[] }, progress: Partial<InstagramCheckpoint>) {
    Object.assign(checkpoint, progress);
    if (!input.keep) {
      daily.push(...(rows.daily ?? []));
      content.push(...(rows.content ?? []));
      return;
    }
    await input.keep({ daily: rows.daily ?? [], content: rows.content ?? [] }, { ...checkpoint, missing: [...checkpoint.missing, ...parts.missing] });
  }
  const retried = (part: string) => (input.retryParts ?? []).some((entry) => entry.part === part);

  if (!checkpoint.profileRead) {
    const profile = await parts.read('profile', () => get(buildUrl(`${GRAPH}/me`, { fields: 'id,followers_count,media_count', access_token: token }), profileBody));
    if (profile) Object.assign(checkpoint, { profileRead: true, followers: profile.followers_count ?? null });
  }

  // Media: the list carries like and comment counts; older pages only matter on the first sync, on a retry of the
  // list, or while a post whose insights were missed is still ahead.
  const retryMedia = new Set(retriedParts(input.retryParts, 'post-metrics:'));
  const readWholeList = input.firstSync || retried('posts');
  let next: string | undefined = checkpoint.postsDone
    ? undefined
    : checkpoint.postsNext
      ? withToken(checkpoint.postsNext, token)
      : buildUrl(`${GRAPH}/me/media`, { fields: MEDIA_FIELDS, limit: '25', access_token: token });
  while (next) {
    const url: string = next;
    const page = await parts.read('posts', () => get(url, mediaBody));
    if (!page) break;
    let reachedOld = false;
    const pageContent: SyncedContent[] = [];
    for (const media of page.data) {
      const publishedAt = media.timestamp ? new Date(media.timestamp.replace(/\+0000$/, 'Z')) : null;
      const recent = publishedAt === null || publishedAt >= input.contentSince;
      if (!readWholeList && !recent && input.knownContentIds.has(media.id)) reachedOld = true;
      const metrics: Partial<Record<string, number>> = {};
      if (media.like_count !== undefined) metrics.likes = media.like_count;
      if (media.comments_count !== undefined) metrics.comments = media.comments_count;
      if (recent || !input.knownContentIds.has(media.id) || retryMedia.has(media.id)) {
        retryMedia.delete(media.id);
        // A media without insights (posted before the business conversion, too few viewers…) keeps the list's counts.
        const insights = await parts.read(`post-metrics:${media.id}`, () => unlessRefused(() => get(buildUrl(`${GRAPH}/${media.id}/insights`, { metric: MEDIA_INSIGHTS, access_token: token }), insightsBody), { data: [] }));
        if (insights) insightMetrics(insights, metrics);
      }
      const caption = media.caption ?? '';
      pageContent.push({ platformContentId: media.id, title: caption.split('\n')[0]!.slice(0, 120), description: caption || null, publishedAt, url: media.permalink ?? null, metrics });
    }
    next = reachedOld && retryMedia.size === 0 ? undefined : page.paging?.next;
    await keep({ content: pageContent }, { postsNext: next ? withoutToken(next) : null, postsDone: next === undefined });
  }

  // Account insights on Meta's days (see metaDay): the daily totals as far back as Meta answers, newest window
  // first, and the follower history of the last 30 days. Missing is unknown, never 0: a day Meta has no data for
  // stores nothing. A first sync resumed goes on below the windows it kept, and reads the days since it stopped.
  const lastDay = lastCompleteMetaDay(context.now());
  const first = latest(input.since, addDays(lastDay, 1 - ACCOUNT_INSIGHT_HISTORY_DAYS));
  if (checkpoint.historyTop !== null && checkpoint.historyTop < lastDay) {
    const rows = await accountWindow(get, token, parts, latest(first, addDays(checkpoint.historyTop, 1)), lastDay);
    await keep({ daily: rows ?? [] }, { historyTop: lastDay });
  }
  let windowLast: string | null = checkpoint.historyTop === null ? lastDay : checkpoint.historyNext;
  if (checkpoint.historyTop === null) checkpoint.historyTop = lastDay;
  while (windowLast !== null && windowLast >= first) {
    const windowFirst = latest(first, addDays(windowLast, 1 - MAX_RANGE_DAYS));
    const rows = await accountWindow(get, token, parts, windowFirst, windowLast);
    windowLast = rows === null ? null : addDays(windowFirst, -1);
    await keep({ daily: rows ?? [] }, { historyNext: windowLast });
  }
  // Windows an earlier run missed, where they lie before this run's own.
  for (const range of retriedParts(input.retryParts, 'account-days:')) {
    const [rangeFirst = '', rangeLast = ''] = range.split('..');
    const last = rangeLast < first ? rangeLast : addDays(first, -1);
    if (rangeFirst <= last) daily.push(...((await accountWindow(get, token, parts, rangeFirst, last)) ?? []));
  }

  // In day order, whichever window came first: the same rows on the same answers.
  daily.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const followers = checkpoint.followers ?? undefined;
  if (followers !== undefined) {
    daily.push({ date: input.today, metricType: 'followers', value: followers });
    const followerFirst = retried('profile') || retried('follower-history') ? addDays(lastDay, 1 - FOLLOWER_INSIGHT_DAYS) : latest(input.since, addDays(lastDay, 1 - FOLLOWER_INSIGHT_DAYS));
    const netChange = (await followerChanges(get, token, parts, followerFirst, lastDay)) ?? new Map<string, number>();
    // The total at the end of each day, back from today's count, as far as the days without a gap reach. (The
    // changes since the last whole Meta day are not known: the count read now stands for the end of it as well.)
    let laterNet = 0;
    for (let day = lastDay; netChange.has(day); day = addDays(day, -1)) {
      daily.push({ date: day, metricType: 'followers', value: followers - laterNet });
      laterNet += netChange.get(day)!;
    }
  }
  parts.throwIfNothingRead();
  const missingParts = [...checkpoint.missing, ...parts.missing];
  return { ...(followers !== undefined ? { followers } : {}), daily, content, usage, ...(missingParts.length > 0 ? { missingParts } : {}) };
}
