// LinkedIn sync (docs/platforms/linkedin.md): today's member follower count, the daily follower history
// (`memberFollowersCount?q=dateRange`), and the member's daily post analytics (`memberCreatorPostAnalytics`, one
// queryType per call), each over ranges of at most LONGEST_RANGE_DAYS with an exclusive end, read page by page
// (corrections rows 3–6). An app without post analytics (403) keeps the follower history.
import type { z } from 'zod';
import { addDays } from '../lib/dates.ts';
import { platformFailure } from './failure-rule.ts';
import { buildUrl, callCounter, parseBody } from './http-client.ts';
import {
  analyticsDayBody,
  FOLLOWERS_URL,
  followerDayBody,
  followersNowBody,
  isoOfRestliDay,
  LONGEST_RANGE_DAYS,
  POST_ANALYTICS_URL,
  type RangeReader,
  readDailyRanges,
  versionedSender,
} from './linkedin-api.ts';
import { PlatformError } from './platform-error.ts';
import { hasScope, type FollowerHistoryMeaning, type ProviderContext, type SyncInput, type SyncOutput } from './provider.ts';
import { retriedParts, syncParts } from './sync-parts.ts';

/**
 * The queryTypes stored, one call each. REACTION counts every reaction (like, celebrate, support, love, insightful,
 * funny): reactions, not likes. MEMBERS_REACHED is not asked: LinkedIn refuses it with DAILY (row 3), and a TOTAL
 * of unique members cannot be split into days.
 */
const QUERY_TYPES: Record<string, string> = { IMPRESSION: 'impressions', REACTION: 'reactions', COMMENT: 'comments', RESHARE: 'shares' };

type AnalyticsDay = z.infer<typeof analyticsDayBody>['elements'][number];
type FollowerDay = z.infer<typeof followerDayBody>['elements'][number];

/** Until a real account shows it (row 6), LinkedIn's daily follower values are read as the day's new followers. */
export const DEFAULT_FOLLOWER_HISTORY: FollowerHistoryMeaning = 'daily_gain';

/** LinkedIn has no post analytics for this app or member (403, 404): the follower history stands. */
class PostAnalyticsUnavailable extends Error {}
const isAnalyticsRefusal = (error: unknown) => error instanceof PlatformError && (error.details.status === 403 || error.details.status === 404);

export async function syncLinkedIn(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, call } = callCounter();
  const parts = syncParts(context);
  const send = versionedSender(context, input.accessToken, call, 'metrics');
  // The request's end is exclusive: up to today, today (not over yet) left out.
  const window = { since: [input.since, input.today].sort()[0]!, untilExclusive: input.today };
  // Shared by every finder of this sync: once LinkedIn refuses a range as too long, shorter ones are asked.
  const ranges = { days: LONGEST_RANGE_DAYS };
  const daily: SyncOutput['daily'] = [];
  /** Each range of a finder is a part of its own (`<prefix>:<first>..<last>`): one refused range loses only its days. */
  const rangesAsParts =
    (prefix: string, refusal?: (error: unknown) => Error | undefined): RangeReader =>
    (first, last, read) =>
      parts.read(`${prefix}:${first}..${last}`, async () => {
        try {
          return await read();
        } catch (error) {
          throw refusal?.(error) ?? error;
        }
      });
  /** The ranges an earlier run missed under `prefix`, as windows before this run's own. */
  const retriedWindows = (prefix: string) =>
    retriedParts(input.retryParts, `${prefix}:`).flatMap((range) => {
      const [first = '', last = ''] = range.split('..');
      const untilExclusive = [addDays(last, 1), window.since].sort()[0]!;
      return first < untilExclusive ? [{ since: first, untilExclusive }] : [];
    });

  let followers: number | undefined;
  if (hasScope(input.scope, 'r_member_profileAnalytics')) {
    const now = await parts.read('profile', async () => {
      const response = await send(buildUrl(FOLLOWERS_URL, { q: 'me' }));
      if (response.status !== 200) throw platformFailure('linkedin', 'metrics', response);
      return parseBody(followersNowBody, response, 'linkedin', 'metrics');
    });
    followers = now?.elements[0]?.memberFollowersCount;
    if (followers !== undefined) {
      // Totals are counted back from today: a history range read again is read up to today.
      const since = [window.since, ...retriedWindows('follower-history').map((retried) => retried.since)].sort()[0]!;
      const days = await readDailyRanges(send, (range) => `${buildUrl(FOLLOWERS_URL, { q: 'dateRange' })}&${range}`, followerDayBody, { ...window, since }, ranges, rangesAsParts('follower-history'));
      const meaning = context.followerHistory ?? DEFAULT_FOLLOWER_HISTORY;
      const history = followerTotals(followers, input.today, days, meaning);
      if (history === null) {
        context.logger.warn({ platform: 'linkedin', followerHistory: meaning }, 'LinkedIn daily follower values read as gains give a negative total: only today’s count was stored. Check LINKEDIN_FOLLOWER_HISTORY.');
      }
      daily.push({ date: input.today, metricType: 'followers', value: followers }, ...(history ?? []));
    }
  }

  if (hasScope(input.scope, 'r_member_postAnalytics')) {
    for (const [queryType, metricType] of Object.entries(QUERY_TYPES)) {
      const prefix = `post-analytics:${queryType}`;
      const finder = (range: string) => `${buildUrl(POST_ANALYTICS_URL, { q: 'me', queryType, aggregation: 'DAILY' })}&${range}`;
      const elements: AnalyticsDay[] = [];
      try {
        for (const each of [window, ...retriedWindows(prefix)]) {
          elements.push(...(await readDailyRanges(send, finder, analyticsDayBody, each, ranges, rangesAsParts(prefix, (error) => (isAnalyticsRefusal(error) ? new PostAnalyticsUnavailable() : undefined)))));
        }
      } catch (error) {
        // No post analytics for this app or member: the follower history stands.
        if (error instanceof PostAnalyticsUnavailable) break;
        throw error;
      }
      for (const element of elements) {
        const value = element.count ?? element.value;
        const start = element.dateRange?.start;
        if (value !== undefined && start) daily.push({ date: isoOfRestliDay(start), metricType, value });
      }
    }
  }
  parts.throwIfNothingRead();
  return { followers, daily, content: [], usage, ...(parts.missing.length > 0 ? { missingParts: parts.missing } : {}) };
}

/**
 * The follower totals at the end of each day before today (today's own row is `followers`, the count read now, which
 * also stands for the end of yesterday: today's changes are not over, as on Instagram). Read as daily gains, each
 * earlier day is the next day's total less that next day's gain, back as far as the days run without a gap; read as
 * totals, each day is its own value. Gains that would make a total negative cannot be gains: null, nothing stored.
 */
export function followerTotals(followers: number, today: string, days: readonly FollowerDay[], meaning: FollowerHistoryMeaning): SyncOutput['daily'] | null {
  const byDay = new Map(days.map((element) => [isoOfRestliDay(element.dateRange.start), element.memberFollowersCount]));
  if (meaning === 'running_total') return [...byDay].filter(([date]) => date < today).map(([date, value]) => ({ date, metricType: 'followers', value }));
  const history: SyncOutput['daily'] = [];
  let total = followers;
  for (let day = addDays(today, -1); byDay.has(day); day = addDays(day, -1)) {
    history.push({ date: day, metricType: 'followers', value: total });
    total -= byDay.get(day)!;
  }
  return history.some((row) => row.value < 0) ? null : history;
}
