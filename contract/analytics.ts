// The /api/analytics and /api/sync calls (spec section 7). Premium: behind the 402 gate, but for the exports and the
// sync status, which a user whose subscription ended still gets (server/plugins/access.ts, the lapsed allowlist).
import { z } from 'zod';
import { comparisonPeriod, comparisonQueryFields, isoDate } from './comparison.ts';
import { formatBareAmount, formatMoney } from './money.ts';
import { syncStatus } from './sync-status.ts';
import { wordList } from './words.ts';

/**
 * The figures of the cards (spec section 3, "Analytics summary") for a period: the summary's last 30 days, or the
 * range and platform of GET /api/analytics (its `totals`).
 */
export const periodTotals = z.object({
  /**
   * Sum over the active connections of each one's latest followers (subscribers, patrons) in the period, else its
   * profile count.
   */
  totalFollowers: z.number(),
  /**
   * Percent over the period: engagements / views × 100, e.g. 4.2 for 4.2 %; a platform that reports
   * impressions instead of views (LinkedIn, X: IMPRESSION_PLATFORMS) counts its engagements over its impressions.
   * 0 without either.
   */
  averageEngagementRate: z.number(),
  /** Views over the period: views only (impressions are not views; X's views are its videos' views). */
  totalViews: z.number(),
  /** Impressions over the period, from platforms that report impressions rather than views (LinkedIn and X posts). */
  totalImpressions: z.number(),
  /**
   * USD, major units: YouTube estimatedRevenue over the period plus the pledges of each Patreon campaign whose
   * currency is set to USD over the period's days: each day the monthly level as read on or before it, over the days
   * of its month (the income view's rule: the same days give the same amount on every screen). Pledges in another
   * currency, or in one not set yet, are in pledgesNotInUsd.
   */
  totalRevenue: z.number(),
  /**
   * Patreon pledges never added to totalRevenue because they are not in US dollars (no conversion is made), per
   * campaign currency: `periodAmount` over the period's days (the rule of totalRevenue), `monthlyAmount` the latest
   * monthly level; currency null for campaigns whose currency neither Patreon nor the creator has named.
   */
  pledgesNotInUsd: z.array(
    z.object({ currency: z.string().nullable(), periodAmount: z.number(), monthlyAmount: z.number(), connections: z.number().int() }),
  ),
  connectedPlatforms: z.number().int(),
});
export type PeriodTotals = z.infer<typeof periodTotals>;

/**
 * One side of a comparison: the cards' figures over the connections that have the figure in both periods (like with
 * like, see periodComparison). null: no connection has the figure in both periods, which is no data, never 0.
 */
export const comparedTotals = z.object({
  totalFollowers: z.number().nullable(),
  averageEngagementRate: z.number().nullable(),
  totalViews: z.number().nullable(),
  totalRevenue: z.number().nullable(),
  /** Active connections, and in the comparison period those connected by its last day. */
  connectedPlatforms: z.number().int(),
});
export type ComparedTotals = z.infer<typeof comparedTotals>;

/** The figures a comparison covers one by one, each over the days its own history holds. */
export const COMPARED_FIGURES = ['followers', 'views', 'engagement', 'revenue'] as const;
export type ComparedFigure = (typeof COMPARED_FIGURES)[number];

/** A connection whose figures (all, or those named) in the current period have no counterpart in the comparison period. */
export const comparisonLeftOut = z.object({
  /** Display name, e.g. "TikTok". */
  platform: z.string(),
  account: z.string().nullable(),
  /** Which of the connection's figures; null: every figure it has. */
  figures: z.array(z.enum(COMPARED_FIGURES)).nullable(),
});
export type ComparisonLeftOut = z.infer<typeof comparisonLeftOut>;

/**
 * A connection's figures compared over fewer days than the periods have, because their history begins after the
 * comparison period starts: both periods are cut at their start alike, so a history start never reads as growth
 * (issue 24).
 */
export const comparisonShortened = z.object({
  /** Display name, e.g. "Instagram". */
  platform: z.string(),
  account: z.string().nullable(),
  /** The first day (YYYY-MM-DD) stored for these figures of the connection. */
  historyStart: z.string(),
  /** How many days of each period are compared. */
  days: z.number().int().positive(),
  /** Which of the connection's figures; null: every figure it has. */
  figures: z.array(z.enum(COMPARED_FIGURES)).nullable(),
});
export type ComparisonShortened = z.infer<typeof comparisonShortened>;

/**
 * The comparison of the answer's period with another (compare=previous|year|custom; null with compare=none). A card's
 * change is currentTotals against totals: both sum the same connections (each figure over the connections that have
 * it in both periods; the others are in leftOut) by the same definitions, and a platform whose figures end before the
 * period does (YouTube Analytics lags 2–3 days) is compared over the days it has, both periods cut by as many days.
 */
export const periodComparison = comparisonPeriod.extend({
  /** The comparison period's figures. */
  totals: comparedTotals,
  /** The current period's figures over the same connections and days as `totals`. */
  currentTotals: comparedTotals,
  leftOut: z.array(comparisonLeftOut),
  shortened: z.array(comparisonShortened),
});
export type PeriodComparison = z.infer<typeof periodComparison>;

/** How fresh one platform's figures are (the oldest of its connections). */
export const platformFreshness = z.object({
  /** Display name, e.g. "YouTube". */
  platform: z.string(),
  /** The least recent last successful sync of the platform's connections; null when one was never synced. */
  syncedAt: z.iso.datetime().nullable(),
  /**
   * The last complete day (YYYY-MM-DD) of its figures: YouTube's newest day of the daily Analytics report (it lags 2–3
   * days), other platforms' newest day stored (the last synced day; that day's figures count up to the sync). Null
   * when nothing is stored yet.
   */
  completeThrough: z.string().nullable(),
});
export type PlatformFreshness = z.infer<typeof platformFreshness>;

/** The summary's period: the last 30 days, today included. */
export const ANALYTICS_SUMMARY_DAYS = 30;

/** GET /api/analytics/summary: the cards' figures over the last 30 days (today included). */
export const analyticsSummaryQuery = z.strictObject(comparisonQueryFields);
export type AnalyticsSummaryQuery = z.infer<typeof analyticsSummaryQuery>;

/** Spec section 3, "Analytics summary": the last 30 days' card figures, how fresh each platform's are, and the comparison. */
export const analyticsSummaryResponse = periodTotals.extend({
  /** One entry per platform with an active connection, in the platforms' order. */
  freshness: z.array(platformFreshness),
  comparison: periodComparison.nullable(),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummaryResponse>;

/**
 * What Total Revenue leaves out, in words, for the screen and the PDF alike; null when it leaves out nothing.
 * Pledges in another currency are shown in that currency, never converted with a rate nobody can check.
 */
export function revenueCurrencyNote(
  pledges: readonly { currency: string | null; monthlyAmount: number; periodAmount?: number; connections: number }[],
): string | null {
  if (pledges.length === 0) return null;
  // An unset currency is named in the sentence itself, hence the bare amount.
  const amount = (value: number, currency: string | null) => (currency ? formatMoney(value, currency) : formatBareAmount(value));
  const campaigns = (count: number) => (count === 1 ? '1 campaign' : `${count} campaigns`);
  // Over a period's days where the caller counted them (the cards), else the latest month's level.
  const figure = (pledge: (typeof pledges)[number]) =>
    pledge.periodAmount === undefined ? `${amount(pledge.monthlyAmount, pledge.currency)} a month` : `${amount(pledge.periodAmount, pledge.currency)} over these days`;
  const parts = pledges.map((pledge) =>
    pledge.currency
      ? `${figure(pledge)} in ${pledge.currency} (${campaigns(pledge.connections)}, not converted)`
      : `${figure(pledge)} from ${campaigns(pledge.connections)} whose currency Patreon did not name (choose it on the Platforms page)`,
  );
  return `Total Revenue counts US dollars only. Patreon pledges left out: ${parts.join('; ')}.`;
}

/** The date ranges the Analytics screen offers (spec section 9); the API accepts any 1 to 730. */
export const ANALYTICS_DATE_RANGES = [7, 30, 90] as const;
export const DEFAULT_ANALYTICS_DAYS = 30;
/**
 * allMetrics is paged: at most this many records per page. The default page is 100 records: the screens draw the
 * derived series, and every answer's size is paid on each request (bench/analytics.ts).
 */
export const MAX_ANALYTICS_PAGE_SIZE = 1000;
export const DEFAULT_ANALYTICS_PAGE_SIZE = 100;

const MAX_DAYS = 730;

/** Query strings: "30" → 30. Anything that is not a whole number in range is a 400. */
const intString = (min: number, max: number, label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));

/** Platform filter: null, 'null' or empty means all platforms (spec section 5); otherwise a platform id 1 to 6. */
const platformFilter = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' || value === 'null' || value === 'undefined' ? undefined : value))
  .pipe(intString(1, 6, 'platformId').optional());

const metricTypeFilter = z
  .string()
  .trim()
  .max(64)
  .optional()
  .transform((value) => (value === undefined || value === '' || value === 'null' || value === 'all' ? undefined : value));

/**
 * GET /api/analytics. `metricType` filters allMetrics and the two time series (a type that is not a follower or
 * engagement type leaves that series empty); platformBreakdown and topContent follow the platform and dates only.
 * `days` counts back from today (today included) unless startDate/endDate are given
 * (either one alone bounds that side; the other side defaults from `days`). Dates are UTC calendar days.
 */
export const analyticsQuery = z.strictObject({
  days: intString(1, MAX_DAYS, 'days').optional(),
  metricType: metricTypeFilter,
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  platformId: platformFilter,
  /** allMetrics paging, 1-based. */
  page: intString(1, 100_000, 'page').optional(),
  pageSize: intString(1, MAX_ANALYTICS_PAGE_SIZE, 'pageSize').optional(),
  /** What the period is compared with (default previous; contract/comparison.ts). */
  ...comparisonQueryFields,
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

/** GET /api/analytics/platform/{id}: the same, for one platform (id 1 to 6). */
export const platformAnalyticsQuery = analyticsQuery.omit({ platformId: true });
export const platformAnalyticsParams = z.strictObject({ id: intString(1, 6, 'platform id') });

/** Spec section 3 "Analytics response" record. Account metrics have contentTitle null. */
export const metricRecord = z.object({
  /** Unique across account and content metrics: `a<id>` or `c<id>`. */
  id: z.string(),
  metricType: z.string(),
  /** YYYY-MM-DD (UTC). For content metrics, the day the value was read. */
  date: z.string(),
  value: z.number(),
  /** Display name, e.g. "YouTube". */
  platformName: z.string(),
  contentTitle: z.string().nullable(),
});
export type MetricRecord = z.infer<typeof metricRecord>;

export const seriesPoint = z.object({ date: z.string(), value: z.number() });
export type SeriesPoint = z.infer<typeof seriesPoint>;

export const breakdownItem = z.object({
  name: z.string(),
  /** The platform's latest followers (subscribers, patrons) in the range, summed over its connections. */
  followers: z.number(),
  /** Its exact share of all followers, in per cent (not rounded: a screen rounds it once, to what it shows). */
  percentage: z.number(),
  /** The platform's colour of every chart (contract/platform-palette.ts), never one chosen by its rank. */
  color: z.string(),
});
export type BreakdownItem = z.infer<typeof breakdownItem>;

/**
 * One value per day of a period, its first day first (the n-th value is the n-th day); null: no figure that day,
 * never 0. Compact: a 90-day answer carries many of these lines.
 */
export const dailyValues = z.array(z.number().nullable());
export type DailyValues = z.infer<typeof dailyValues>;

/** One platform's line (its connections summed), over the answer's range. */
export const platformLine = z.object({
  /** Display name, e.g. "YouTube". */
  platform: z.string(),
  values: dailyValues,
});
export type PlatformLine = z.infer<typeof platformLine>;

/**
 * The trends the Analytics screen offers without a Metric filter (issue 25), in this order: views (views only, not
 * impressions), watch time (minutes), followers (followers, subscribers and patrons), engagements, and the engagement
 * rate (a percentage: engagements / views × 100, or over impressions where a platform reports impressions: LinkedIn, X).
 */
export const TREND_METRICS = ['views', 'watch_time_minutes', 'followers', 'engagements', 'engagement_rate'] as const;

/**
 * A metric's daily trend: per platform that reports it (a platform without the figure has no line, never a flat 0),
 * combined, and the comparison period's combined line. Followers: each platform's line carries its last figure over a
 * day without one, and the combined line (followersOverTime) starts when every platform's history has begun.
 */
export const metricTrend = z.object({
  /** One of TREND_METRICS, or the metric type the Metric filter names (e.g. "likes", "revenue"). */
  metric: z.string(),
  /** Over the answer's range (startDate first). */
  combined: dailyValues,
  platforms: z.array(platformLine),
  /** `combined` over the comparison period (its startDate first); empty without a comparison, or when the comparison period holds other connections than this one (a line of fewer accounts would read as growth). */
  comparison: dailyValues,
});
export type MetricTrend = z.infer<typeof metricTrend>;

/** How Top Content picks its posts: those published in the period, by the engagement they have had so far. */
export const TOP_CONTENT_RULE = 'published in the period';

export const topContentItem = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** Display name, e.g. "YouTube". */
  platform: z.string(),
  /** Likes + comments + shares (latest values read in the range). */
  engagement: z.number(),
  url: z.string().nullable(),
  /** When it was published (ISO); top content is what was published in the period. */
  publishedAt: z.iso.datetime().nullable(),
});
export type TopContentItem = z.infer<typeof topContentItem>;

export const analyticsPaging = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Records matching the filters (all pages). */
  total: z.number().int(),
  hasMore: z.boolean(),
});

/** How a series we derived was made (server/db/derived-metrics.ts says which rows). */
export const DERIVATION_METHODS = {
  snapshots: 'from how much each post’s running totals grew between our daily readings (what a post had before our first reading counts on the day it was posted)',
  followsAndUnfollows: 'from daily follows minus unfollows',
  gainedAndLost: 'from daily subscribers gained minus lost',
  memberList: 'from when each member of the list started and stopped paying',
} as const;

/** Each derivation in a creator's words, behind "How is this calculated?" where derived series are shown. */
export const DERIVATION_EXPLANATIONS: Readonly<Partial<Record<string, string>>> = {
  [DERIVATION_METHODS.snapshots]:
    'TikTok and X give each post’s running totals (views, likes, comments, shares; on X impressions, and views for videos only), never a day’s figures. We read each post’s totals: a day’s figure is how much they grew since our previous reading. ' +
    'What a post had already gathered when we first read it is counted on the day it was posted, since no one can tell on which days it came. ' +
    'A day we did not read has no figure; after a missed day, the next reading’s day holds the growth of both. X posts are read when they are new and again at 24 hours, 7 days and 28 days old, so what they gather later is not counted.',
  [DERIVATION_METHODS.followsAndUnfollows]: 'Instagram gives today’s follower total and each day’s follows and unfollows: earlier days’ totals are counted back from today’s.',
  [DERIVATION_METHODS.gainedAndLost]:
    'YouTube gives each day’s subscribers gained and lost: the days before you connected are counted back from today’s subscriber count, which YouTube shows cut down to three figures.',
};

/** A series of the answer that is our derivation, not the platform's own daily figure, and over which days. */
export const derivedSeries = z.object({
  /** Display name, e.g. "TikTok". */
  platform: z.string(),
  /** The metric types derived, e.g. ["views", "likes"]. */
  metrics: z.array(z.string()),
  /** One of DERIVATION_METHODS' values. */
  method: z.string(),
  /** First and last day (YYYY-MM-DD) of the range holding derived values. */
  startDate: z.string(),
  endDate: z.string(),
});
export type DerivedSeries = z.infer<typeof derivedSeries>;

/** "TikTok views and likes: from how much each post’s running totals grew between our daily readings (…) since Nov 3, 2026." */
export function derivedSeriesSentence(series: DerivedSeries, formatDay: (day: string) => string): string {
  return `${series.platform} ${wordList(series.metrics).replaceAll('_', ' ')}: ${series.method} since ${formatDay(series.startDate)}.`;
}

/** Where one connection's follower history begins inside the answer's range. */
export const followerHistoryStart = z.object({
  /** Display name, e.g. "Instagram". */
  platform: z.string(),
  /** The connected account's name, to tell two connections of one platform apart. */
  account: z.string().nullable(),
  /** Its first day (YYYY-MM-DD) with a follower figure in the range. */
  startDate: z.string(),
});
export type FollowerHistoryStart = z.infer<typeof followerHistoryStart>;

/**
 * Says where follower histories begin when they begin on different days inside the range (the Followers Growth total
 * is drawn only from the day every one has begun, so a platform joining does not look like a jump); null when every
 * history covers the whole range. "Follower history begins on Nov 3, 2026 for Instagram (@maya) and on Nov 10, 2026
 * for TikTok (@maya): the total is drawn from Nov 10, 2026, when every history has begun."
 */
export function followerHistoryNote(starts: readonly FollowerHistoryStart[], rangeStart: string, formatDay: (day: string) => string): string | null {
  const late = starts.filter((start) => start.startDate > rangeStart).sort((a, b) => a.startDate.localeCompare(b.startDate) || a.platform.localeCompare(b.platform));
  if (late.length === 0 || starts.length < 2) return null;
  const since = late.at(-1)!.startDate;
  const parts = late.map((start) => `on ${formatDay(start.startDate)} for ${start.platform}${start.account ? ` (${start.account})` : ''}`);
  return `Follower history begins ${wordList(parts)}: the total is drawn from ${formatDay(since)}, when every history has begun.`;
}

/** The comparison of GET /api/analytics: the summary's, plus the follower series of the comparison period. */
export const analyticsComparison = periodComparison.extend({
  /**
   * followersOverTime over the comparison period (the Followers Growth chart overlays it, dashed); empty unless the
   * same connections have follower figures in both periods (two lines of different accounts would not compare).
   */
  followersOverTime: z.array(seriesPoint),
});
export type AnalyticsComparison = z.infer<typeof analyticsComparison>;

export const analyticsResponse = z.object({
  /** The range actually used (YYYY-MM-DD, inclusive). */
  startDate: z.string(),
  endDate: z.string(),
  /** The cards' figures for the range and platform (metricType does not narrow them). */
  totals: periodTotals,
  comparison: analyticsComparison.nullable(),
  /**
   * Newest first; one page (see `paging`). Account metrics: one record per day. Content metrics (contentTitle set):
   * each item's lifetime counters as read on its connection's latest sync day in the range, one record per metric.
   */
  allMetrics: z.array(metricRecord),
  paging: analyticsPaging,
  /**
   * Follower totals (metric types followers, subscribers, patrons) summed per day over the connections, from the first
   * day every connection's history in the range has begun.
   */
  followersOverTime: z.array(seriesPoint),
  /** Each connection's first day of follower history in the range, earliest first (see followerHistoryNote). */
  followerHistoryStarts: z.array(followerHistoryStart),
  /**
   * Each platform's follower line (issue 24), platforms in the product's order: from its first figure in the range,
   * a day without one carrying the last. Same metric types as followersOverTime (empty when the filter names none).
   */
  followersByPlatform: z.array(platformLine),
  /**
   * Engagements summed per day: each connection's `engagements` where the platform reports it, else its likes +
   * comments + shares (never both). With metricType = likes, comments, shares or engagements: that type only.
   */
  engagementOverTime: z.array(seriesPoint),
  platformBreakdown: z.array(breakdownItem),
  /**
   * Top 5 content items published in the range (by publish time, UTC days), by engagement as read on each
   * connection's latest sync day in the range. Items without a publish time are left out.
   */
  topContent: z.array(topContentItem),
  /**
   * The daily trends (issue 25): without a Metric filter one per TREND_METRICS; with one, the trend of what it names
   * (a follower type: followers; engagements or an engagement type: that; any other type: that type).
   */
  trends: z.array(metricTrend),
  /** The series in this answer that we derived rather than read as daily figures (charts and exports mark them). */
  derivedSeries: z.array(derivedSeries),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponse>;

/** GET /api/analytics/metrics: the metric types present in the user's data, sorted. */
export const metricTypesResponse = z.array(z.string());

/** Metric type names stored and answered (one vocabulary over all platforms). */
export const METRIC_TYPES = [
  'followers',
  'subscribers',
  'patrons',
  'views',
  'impressions',
  'likes',
  /** LinkedIn: every kind of reaction (like, celebrate, support…), not only likes. */
  'reactions',
  'comments',
  'shares',
  'engagements',
  'watch_time_minutes',
  'subscribers_gained',
  'subscribers_lost',
  'revenue',
  /** Patreon: active members, counting free trials and gifted memberships (patrons are the paying ones). */
  'members',
  /** Patreon: the month's pledges of paying patrons, in the campaign's currency (the connection's currency). */
  'monthly_pledges',
  /**
   * Patreon, a campaign billed per paid post (`is_monthly: false`): what its paying patrons pledge for each paid post,
   * in the campaign's currency. Not a monthly figure, and never turned into one.
   */
  'per_post_pledges',
] as const;

// --- /api/sync ---


/** Why a connection's background reads are paused: the account's trial or subscription ended (resubscribing resumes them). */
export const SYNC_PAUSE_REASONS = ['subscription_ended'] as const;
export const syncPauseReason = z.enum(SYNC_PAUSE_REASONS);
export type SyncPauseReason = z.infer<typeof syncPauseReason>;

export const SUBSCRIPTION_ENDED_SYNC_MESSAGE = 'Syncing is paused because your subscription ended. It resumes when you subscribe again.';

/**
 * GET /api/sync/status: one entry per connection of the user. Open to an account whose trial or subscription ended
 * (the access gate's lapsed allowlist): its connections then read `paused`, with the reason.
 */
/** GET /api/sync/status `state`: how complete a connection's data is (see connectionSyncStatus). */
export const syncCompleteness = z.enum(['ok', 'partial', 'failed', 'paused']);
export type SyncCompleteness = z.infer<typeof syncCompleteness>;

export const connectionSyncStatus = z.object({
  connectionId: z.number().int(),
  platformName: z.string(),
  /**
   * The sync's state, or `paused` while nothing runs in the background for the account (its trial or subscription
   * ended: `pausedReason`). A platform paused for everyone (an operator's budget) keeps its sync state and says so in
   * `pause`.
   */
  status: z.union([syncStatus, z.literal('paused')]),
  /** Why the connection is paused; null unless `status` is `paused`. */
  pausedReason: syncPauseReason.nullable(),
  /**
   * Why the last attempt failed or waits (the platform's error in our words), or why it is paused ("X figures pause
   * until Jan 1 while we stay within our X budget." unless the sync failed); null otherwise.
   */
  message: z.string().nullable(),
  /**
   * The platform's refreshes are paused for every creator: `platform_budget`, the operator's monthly budget for a
   * metered platform (X) is spent, until the first instant of next month (UTC), and `message` says so in words. Null
   * when not paused.
   */
  pause: z.object({ reason: z.enum(['platform_budget']), until: z.iso.datetime(), message: z.string() }).nullable(),
  lastSyncedAt: z.iso.datetime().nullable(),
  /**
   * When the next sync is due: a failed attempt's retry (after its backoff), a platform's Retry-After, the end of a
   * platform's pause, or the schedule; null when the sync has stopped until the user acts (status failed), while the
   * account is paused and for inactive connections.
   */
  nextRunAt: z.iso.datetime().nullable(),
  /** When the last attempt failed, while failures are counted (since the last success or the user's last action). */
  lastFailedAt: z.iso.datetime().nullable(),
  /** Failed attempts since the last success or the user's last action (Sync, reconnect, settings change). */
  attempts: z.number().int().min(0),
  /**
   * How complete the connection's data is, in one word: `ok` (the last run read everything), `partial` (it was
   * stored without `missingParts`, read again at `nextRunAt`), `failed` (the last attempt failed, or the sync
   * stopped until the user acts) or `paused` (the account's access ended, or the platform's budget is spent).
   */
  state: syncCompleteness,
  /** What the last stored run could not read, each in words with the platform's reason; empty when nothing is missing. */
  missingParts: z.array(z.string()),
  /**
   * What the creator must do before the sync can go on, when it stopped for a reason only they can fix
   * (`needs_creator`: a permission not given, not a Business account, the app's access): `message` says it in words
   * and ends with "press Retry" (POST /api/sync/platform/{connectionId} runs the sync again). Null otherwise.
   */
  action: z.object({ kind: z.literal('needs_creator'), message: z.string() }).nullable(),
});
export type ConnectionSyncStatus = z.infer<typeof connectionSyncStatus>;
export const syncStatusResponse = z.array(connectionSyncStatus);

/** POST /api/sync/platform/{connectionId} → 202. A sync already queued or running is answered with its job. */
export const syncTriggerResponse = z.object({
  connectionId: z.number().int(),
  jobId: z.string(),
  status: syncStatus,
});
export type SyncTrigger = z.infer<typeof syncTriggerResponse>;
