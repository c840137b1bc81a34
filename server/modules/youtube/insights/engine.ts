// The insights engine: statistics over one channel's own numbers, as pure functions of plain data. Each rule says
// nothing when the data cannot carry a claim (too few videos, too small an effect, too weak evidence); what it does say
// cites the numbers it rests on, and its confidence follows the formulas in statistics.ts.
import type { RetentionPoint, RevenueAccess } from '../../../../contract/youtube.ts';
import { addDays } from '../../platforms/providers/provider.ts';
import { trafficSourceName } from '../traffic-source-names.ts';
import { formatCount, formatDuration, formatMoney, formatPercent, formatRatio } from './format.ts';
import { comparisonConfidence, type MannWhitneyResult, mannWhitney, median, outlierConfidence, robustSpread, round } from './statistics.ts';

export interface InsightVideo {
  videoId: string;
  title: string;
  publishedAt: Date | null;
  durationSeconds: number | null;
  views: number;
  likes: number | null;
  comments: number | null;
  /** Percent. */
  clickThroughRate: number | null;
  /** Percent 0–100. */
  averageViewPercentage: number | null;
  /** Views per day since publishing (index 0 = the publishing day). */
  earlyViews: number[] | null;
  retention: RetentionPoint[];
}

export interface InsightInput {
  now: Date;
  revenueAccess: RevenueAccess;
  videos: InsightVideo[];
  /** Channel views per day and traffic source. */
  channelTraffic: { date: string; sourceType: string; views: number }[];
  /** Channel views and revenue per day (revenue null where not reported). */
  daily: { date: string; views: number | null; revenue: number | null }[];
}

export type Facts = Record<string, number | string>;

export interface ComputedInsight {
  insightType: string;
  title: string;
  recommendation: string;
  confidenceScore: number;
  facts: Facts;
  /** YouTube's videoId when the insight is about one video. */
  videoId: string | null;
}

/** Fewer videos than this cannot say anything about publishing times or lengths. */
const MIN_VIDEOS = 15;
/** Each compared group needs at least this many videos. */
const MIN_GROUP = 5;
/** Outlier rules (click-through, retention) need this many videos with the measure. */
const MIN_OUTLIER_SAMPLE = 10;
/** Retention drop-off needs this many curves. */
const MIN_RETENTION_CURVES = 5;
const EARLY_WINDOW_DAYS = 7;
const TREND_WINDOW_DAYS = 28;

// A claim is made only when the evidence clears all three: adjusted p-value, effect size, and a difference a
// creator would care about.
const MAX_P_ADJUSTED = 0.1;
const MIN_EFFECT = 0.2;
const MIN_RATIO = 1.15;

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function generateInsights(input: InsightInput): ComputedInsight[] {
  const insights = [
    ...publishingTimeInsights(input),
    ...durationInsights(input),
    ...outlierInsights(input),
    ...retentionDropOffInsights(input),
    ...trafficSourceInsights(input),
    ...rpmTrendInsights(input),
  ];
  return insights.sort((a, b) => b.confidenceScore - a.confidenceScore || a.insightType.localeCompare(b.insightType));
}

// ---------------------------------------------------------------------------------------------------------------
// The performance of a video, comparable across videos of different ages.

export interface PerformanceMeasure {
  /** Words for the measure, e.g. "views in their first 7 days". */
  label: string;
  key: 'firstWeekViews' | 'viewsPerDay';
  values: Map<string, number>;
}

/**
 * Views in the first 7 days where the channel has that history for enough videos (earlyViews); otherwise views per day
 * since publishing, for videos at least 7 days old. One measure per run: the two are not comparable with each other.
 */
export function performanceMeasure(videos: readonly InsightVideo[], now: Date): PerformanceMeasure | null {
  const firstWeek = new Map<string, number>();
  for (const video of videos) {
    if (video.earlyViews && video.earlyViews.length >= EARLY_WINDOW_DAYS) {
      firstWeek.set(video.videoId, video.earlyViews.slice(0, EARLY_WINDOW_DAYS).reduce((sum, value) => sum + value, 0));
    }
  }
  if (firstWeek.size >= MIN_VIDEOS) return { label: `views in their first ${EARLY_WINDOW_DAYS} days`, key: 'firstWeekViews', values: firstWeek };
  const perDay = new Map<string, number>();
  for (const video of videos) {
    const ageDays = video.publishedAt ? (now.getTime() - video.publishedAt.getTime()) / DAY_MS : null;
    if (ageDays !== null && ageDays >= EARLY_WINDOW_DAYS) perDay.set(video.videoId, video.views / ageDays);
  }
  if (perDay.size >= MIN_VIDEOS) return { label: 'views per day since publishing', key: 'viewsPerDay', values: perDay };
  return null;
}

interface GroupComparison {
  group: string;
  inGroup: number[];
  rest: number[];
  test: MannWhitneyResult;
  groupsTested: number;
  pAdjusted: number;
  groupMedian: number;
  restMedian: number;
  ratio: number;
  confidence: number;
}

/**
 * Each group against all other videos; the group with the strongest evidence of being higher wins, if that evidence
 * survives the Bonferroni correction for the number of groups tested and the effect is large enough to matter.
 */
function bestGroup(entries: readonly { group: string; value: number }[], groupOrder: readonly string[]): GroupComparison | null {
  const candidates: Omit<GroupComparison, 'groupsTested' | 'pAdjusted' | 'confidence'>[] = [];
  for (const group of groupOrder) {
    const inGroup = entries.filter((entry) => entry.group === group).map((entry) => entry.value);
    const rest = entries.filter((entry) => entry.group !== group).map((entry) => entry.value);
    if (inGroup.length < MIN_GROUP || rest.length < MIN_GROUP) continue;
    const groupMedian = median(inGroup)!;
    const restMedian = median(rest)!;
    candidates.push({ group, inGroup, rest, test: mannWhitney(inGroup, rest), groupMedian, restMedian, ratio: restMedian > 0 ? groupMedian / restMedian : Number.POSITIVE_INFINITY });
  }
  if (candidates.length < 2) return null;
  const best = [...candidates].sort((a, b) => a.test.pGreater - b.test.pGreater || b.test.rankBiserial - a.test.rankBiserial)[0]!;
  const pAdjusted = Math.min(1, best.test.pGreater * candidates.length);
  if (pAdjusted > MAX_P_ADJUSTED || best.test.rankBiserial < MIN_EFFECT || best.restMedian <= 0 || best.ratio < MIN_RATIO) return null;
  return { ...best, groupsTested: candidates.length, pAdjusted, confidence: comparisonConfidence(pAdjusted, best.test.rankBiserial) };
}

const comparisonFacts = (comparison: GroupComparison, measure: PerformanceMeasure): Facts => ({
  measure: measure.label,
  medianViews: round(comparison.groupMedian, 1),
  otherMedianViews: round(comparison.restMedian, 1),
  ratio: round(comparison.ratio, 2),
  sampleSize: comparison.inGroup.length,
  otherSampleSize: comparison.rest.length,
  groupsCompared: comparison.groupsTested,
  pValueAdjusted: round(comparison.pAdjusted, 4),
  effectSize: round(comparison.test.rankBiserial, 2),
});

const measureValue = (value: number, measure: PerformanceMeasure) => (measure.key === 'viewsPerDay' && value < 100 ? value.toFixed(1) : formatCount(value));

function publishingTimeInsights({ videos, now }: InsightInput): ComputedInsight[] {
  const dated = videos.filter((video) => video.publishedAt);
  const measure = performanceMeasure(dated, now);
  if (!measure) return [];
  const insights: ComputedInsight[] = [];

  const byWeekday = dated.flatMap((video) => {
    const value = measure.values.get(video.videoId);
    return value === undefined ? [] : [{ group: WEEKDAYS[video.publishedAt!.getUTCDay()]!, value }];
  });
  const weekday = bestGroup(byWeekday, WEEKDAYS);
  if (weekday) {
    insights.push({
      insightType: 'best_publish_day',
      title: `Best day to publish: ${weekday.group}`,
      recommendation:
        `Videos published on ${weekday.group} (UTC) get a median of ${measureValue(weekday.groupMedian, measure)} ${measure.label}, ` +
        `${formatRatio(weekday.ratio)} the median of your other days (n=${weekday.inGroup.length} vs ${weekday.rest.length}). ` +
        `Schedule your most important uploads on ${weekday.group}.`,
      confidenceScore: weekday.confidence,
      facts: { weekday: weekday.group, ...comparisonFacts(weekday, measure) },
      videoId: null,
    });
  }

  // Four-hour windows: single hours would split a channel's uploads into groups too small to compare.
  const windows = [0, 4, 8, 12, 16, 20].map((start) => `${String(start).padStart(2, '0')}:00–${String(start + 4).padStart(2, '0')}:00 UTC`);
  const byHour = dated.flatMap((video) => {
    const value = measure.values.get(video.videoId);
    return value === undefined ? [] : [{ group: windows[Math.floor(video.publishedAt!.getUTCHours() / 4)]!, value }];
  });
  const hour = bestGroup(byHour, windows);
  if (hour) {
    insights.push({
      insightType: 'best_publish_time',
      title: `Best time to publish: ${hour.group}`,
      recommendation:
        `Videos published between ${hour.group.replace('–', ' and ')} get a median of ${measureValue(hour.groupMedian, measure)} ${measure.label}, ` +
        `${formatRatio(hour.ratio)} the median of other publishing times (n=${hour.inGroup.length} vs ${hour.rest.length}). ` +
        `Publish in this window when you can.`,
      confidenceScore: hour.confidence,
      facts: { timeWindow: hour.group, ...comparisonFacts(hour, measure) },
      videoId: null,
    });
  }
  return insights;
}

const DURATION_BUCKETS = [
  { label: 'under 1 minute', max: 60 },
  { label: '1–4 minutes', max: 240 },
  { label: '4–10 minutes', max: 600 },
  { label: '10–20 minutes', max: 1200 },
  { label: 'over 20 minutes', max: Number.POSITIVE_INFINITY },
] as const;

function durationInsights({ videos, now }: InsightInput): ComputedInsight[] {
  const timed = videos.filter((video) => video.durationSeconds !== null && video.durationSeconds > 0);
  const measure = performanceMeasure(timed, now);
  if (!measure) return [];
  const entries = timed.flatMap((video) => {
    const value = measure.values.get(video.videoId);
    const bucket = DURATION_BUCKETS.find((candidate) => video.durationSeconds! < candidate.max)!;
    return value === undefined ? [] : [{ group: bucket.label, value }];
  });
  const best = bestGroup(
    entries,
    DURATION_BUCKETS.map((bucket) => bucket.label),
  );
  if (!best) return [];
  return [
    {
      insightType: 'video_length',
      title: `Videos of ${best.group} outperform`,
      recommendation:
        `Your videos of ${best.group} get a median of ${measureValue(best.groupMedian, measure)} ${measure.label}, ` +
        `${formatRatio(best.ratio)} the median of your other lengths (n=${best.inGroup.length} vs ${best.rest.length}). ` +
        `Favour this length when you plan new videos.`,
      confidenceScore: best.confidence,
      facts: { length: best.group, ...comparisonFacts(best, measure) },
      videoId: null,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Videos that beat the channel's median click-through rate or retention.

function outlierInsights({ videos }: InsightInput): ComputedInsight[] {
  const rules = [
    {
      insightType: 'click_through_rate',
      pick: (video: InsightVideo) => video.clickThroughRate,
      title: 'A thumbnail and title that win clicks',
      sentence: (video: InsightVideo, value: number, centre: number, ratio: number, n: number, above: number) =>
        `"${video.title}" has a click-through rate of ${formatPercent(value)}, ${formatRatio(ratio)} your channel median of ${formatPercent(centre)} ` +
        `(n=${n} videos with impressions data; ${above} beat the median). Reuse what its title and thumbnail promise in upcoming videos.`,
    },
    {
      insightType: 'retention',
      pick: (video: InsightVideo) => video.averageViewPercentage,
      title: 'A video that holds its audience',
      sentence: (video: InsightVideo, value: number, centre: number, ratio: number, n: number, above: number) =>
        `"${video.title}" is watched for ${formatPercent(value)} of its length on average, ${formatRatio(ratio)} your channel median of ${formatPercent(centre)} ` +
        `(n=${n} videos; ${above} beat the median). Study its pacing and structure and repeat them.`,
    },
  ];
  const insights: ComputedInsight[] = [];
  for (const rule of rules) {
    const measured = videos.flatMap((video) => {
      const value = rule.pick(video);
      return value !== null && Number.isFinite(value) ? [{ video, value }] : [];
    });
    if (measured.length < MIN_OUTLIER_SAMPLE) continue;
    const values = measured.map((entry) => entry.value);
    const centre = median(values)!;
    const spread = robustSpread(values)!;
    if (centre <= 0 || spread <= 0) continue;
    const best = [...measured].sort((a, b) => b.value - a.value || a.video.videoId.localeCompare(b.video.videoId))[0]!;
    const ratio = best.value / centre;
    const robustZ = (best.value - centre) / spread;
    if (ratio < 1.2 || robustZ < 2) continue;
    const above = values.filter((value) => value > centre).length;
    insights.push({
      insightType: rule.insightType,
      title: rule.title,
      recommendation: rule.sentence(best.video, best.value, centre, ratio, measured.length, above),
      confidenceScore: outlierConfidence(measured.length, robustZ),
      facts: {
        videoTitle: best.video.title,
        value: round(best.value, 2),
        channelMedian: round(centre, 2),
        ratio: round(ratio, 2),
        robustZ: round(robustZ, 2),
        sampleSize: measured.length,
        videosAboveMedian: above,
      },
      videoId: best.video.videoId,
    });
  }
  return insights;
}

// ---------------------------------------------------------------------------------------------------------------
// Where viewers leave: the retention curves compared on one grid.

const GRID_STEP = 0.05;
/** Segment boundaries 0, 0.05, …, 0.95: the last 5 % is left out, where viewers leave because the video ends. */
const GRID = Array.from({ length: 20 }, (_, index) => round(index * GRID_STEP, 2));

/** The audience watch ratio at `t`, interpolated linearly; flat before the first and after the last point. */
export function watchRatioAt(curve: readonly RetentionPoint[], t: number): number {
  if (t <= curve[0]!.timeRatio) return curve[0]!.watchRatio;
  for (let index = 1; index < curve.length; index += 1) {
    const right = curve[index]!;
    if (t <= right.timeRatio) {
      const left = curve[index - 1]!;
      const span = right.timeRatio - left.timeRatio;
      return span > 0 ? left.watchRatio + ((t - left.timeRatio) / span) * (right.watchRatio - left.watchRatio) : right.watchRatio;
    }
  }
  return curve.at(-1)!.watchRatio;
}

/** Per 5 % segment of the video, the share of the audience lost in it (watch ratio points). */
export function segmentDrops(curve: readonly RetentionPoint[]): number[] {
  return GRID.slice(0, -1).map((start, index) => watchRatioAt(curve, start) - watchRatioAt(curve, GRID[index + 1]!));
}

function retentionDropOffInsights({ videos }: InsightInput): ComputedInsight[] {
  const curves = videos.filter((video) => video.retention.length >= 10);
  if (curves.length < MIN_RETENTION_CURVES) return [];
  const drops = curves.map((video) => segmentDrops(video.retention));
  const segments = drops[0]!.length;
  const meanDrops = Array.from({ length: segments }, (_, segment) => drops.reduce((sum, perVideo) => sum + perVideo[segment]!, 0) / drops.length);
  const steepest = meanDrops.reduce((best, value, index) => (value > meanDrops[best]! ? index : best), 0);
  const elsewhere = meanDrops.filter((_, index) => index !== steepest).reduce((sum, value) => sum + value, 0) / (segments - 1);
  const drop = meanDrops[steepest]!;
  if (drop < 0.03 || drop < 1.5 * Math.max(elsewhere, 0)) return [];
  // How consistent it is: in how many videos this segment is one of the three steepest.
  const agreeing = drops.filter((perVideo) => {
    const threshold = [...perVideo].sort((a, b) => b - a)[2]!;
    return perVideo[steepest]! >= threshold;
  }).length;
  const from = GRID[steepest]!;
  const to = GRID[steepest + 1]!;
  const durations = curves.map((video) => video.durationSeconds).filter((value): value is number => value !== null && value > 0);
  const typicalDuration = median(durations);
  const when = typicalDuration
    ? ` (about ${formatDuration(from * typicalDuration)}–${formatDuration(to * typicalDuration)} into a typical ${formatDuration(typicalDuration)} video)`
    : '';
  const advice =
    steepest === 0
      ? 'Viewers decide in the opening seconds: cut long intros and show the promise of the title right away.'
      : `Look at what happens around ${Math.round(from * 100)} % of your videos (a slow stretch, a sponsor read, a change of topic) and tighten it.`;
  const n = curves.length;
  return [
    {
      insightType: 'retention_dropoff',
      title: `Viewers leave most between ${Math.round(from * 100)} % and ${Math.round(to * 100)} % of a video`,
      recommendation:
        `Across ${n} videos with retention data, the steepest drop comes between ${Math.round(from * 100)} % and ${Math.round(to * 100)} % of the video${when}: ` +
        `${formatPercent(drop * 100)} of the audience leaves there on average, against ${formatPercent(Math.max(elsewhere, 0) * 100)} per 5 % stretch elsewhere. ` +
        `It is among the three steepest drops in ${agreeing} of the ${n} videos. ${advice}`,
      // Agreement across videos, discounted when there are few curves: 5 curves weigh 0.5, 20 weigh 0.8.
      confidenceScore: round(Math.min(0.99, (agreeing / n) * (n / (n + 5))), 2),
      facts: {
        segmentStartPercent: Math.round(from * 100),
        segmentEndPercent: Math.round(to * 100),
        averageDropPercent: round(drop * 100, 1),
        otherSegmentsDropPercent: round(Math.max(elsewhere, 0) * 100, 1),
        videosAgreeing: agreeing,
        sampleSize: n,
      },
      videoId: null,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Trends over the last 28 days against the 28 before: traffic sources and RPM.

/** The two windows ending at the newest day with data (YouTube's reports lag two to three days behind today). */
function trendWindows(latest: string) {
  return {
    recent: { from: addDays(latest, -(TREND_WINDOW_DAYS - 1)), to: latest },
    previous: { from: addDays(latest, -(2 * TREND_WINDOW_DAYS - 1)), to: addDays(latest, -TREND_WINDOW_DAYS) },
  };
}

const daysOf = (from: string) => Array.from({ length: TREND_WINDOW_DAYS }, (_, index) => addDays(from, index));

const SOURCE_ADVICE: Record<string, { up: string; down: string }> = {
  YT_SEARCH: {
    up: 'Search is finding you: keep titles and descriptions in the words people type, and cover related questions.',
    down: 'Check whether recent titles still use the words people search for, and refresh the descriptions of your best search videos.',
  },
  RELATED_VIDEO: {
    up: 'YouTube recommends you next to other videos more: follow up on the topics that are being suggested.',
    down: 'Fewer suggestions next to other videos: compare recent topics and thumbnails with those that used to be suggested.',
  },
  SUBSCRIBER: {
    up: 'Your home-feed and subscription reach is growing: keep a steady upload rhythm.',
    down: 'Browse features bring fewer views: a regular schedule and strong first hours help videos reach home feeds.',
  },
  SHORTS: {
    up: 'The Shorts feed is carrying you: link Shorts to your long videos to convert that reach.',
    down: 'The Shorts feed brings fewer views: test new hooks in the first second of your Shorts.',
  },
  EXT_URL: {
    up: 'Links from outside YouTube are working: find out where they come from and nurture those places.',
    down: 'Fewer visitors from outside YouTube: check the links you share on other sites and social networks.',
  },
};

function trafficSourceInsights({ channelTraffic }: InsightInput): ComputedInsight[] {
  if (channelTraffic.length === 0) return [];
  const dates = channelTraffic.map((row) => row.date).sort();
  const latest = dates.at(-1)!;
  const windows = trendWindows(latest);
  // Both windows must lie inside the stored history, or a short history would look like growth.
  if (dates[0]! > windows.previous.from) return [];
  const byDay = new Map<string, number>();
  let recentTotal = 0;
  let previousTotal = 0;
  for (const row of channelTraffic) {
    byDay.set(`${row.sourceType}|${row.date}`, (byDay.get(`${row.sourceType}|${row.date}`) ?? 0) + row.views);
    if (row.date >= windows.recent.from) recentTotal += row.views;
    else if (row.date >= windows.previous.from) previousTotal += row.views;
  }
  if (recentTotal <= 0 || previousTotal <= 0) return [];
  const sources = [...new Set(channelTraffic.map((row) => row.sourceType))].sort();
  const candidates = sources.flatMap((sourceType) => {
    // A day without a row for a source is a day it brought no views (reports leave such rows out).
    const recent = daysOf(windows.recent.from).map((day) => byDay.get(`${sourceType}|${day}`) ?? 0);
    const previous = daysOf(windows.previous.from).map((day) => byDay.get(`${sourceType}|${day}`) ?? 0);
    const recentSum = recent.reduce((sum, value) => sum + value, 0);
    const previousSum = previous.reduce((sum, value) => sum + value, 0);
    // Sources too small to matter are left out (and do not count against the others in the correction).
    if (recentSum + previousSum < 200 || Math.max(recentSum / recentTotal, previousSum / previousTotal) < 0.03 || previousSum <= 0) return [];
    return [{ sourceType, recentSum, previousSum, change: (recentSum - previousSum) / previousSum, growth: mannWhitney(recent, previous), decline: mannWhitney(previous, recent), share: recentSum / recentTotal }];
  });
  const tested = candidates.length;
  const insights: ComputedInsight[] = [];
  for (const direction of ['growth', 'decline'] as const) {
    const qualifying = candidates
      .map((candidate) => ({ ...candidate, test: candidate[direction], pAdjusted: Math.min(1, candidate[direction].pGreater * tested) }))
      .filter((candidate) => (direction === 'growth' ? candidate.change >= 0.2 : candidate.change <= -0.2))
      .filter((candidate) => candidate.pAdjusted <= MAX_P_ADJUSTED && candidate.test.rankBiserial >= MIN_EFFECT)
      .sort((a, b) => a.pAdjusted - b.pAdjusted || Math.abs(b.change) - Math.abs(a.change));
    const best = qualifying[0];
    if (!best) continue;
    const name = trafficSourceName(best.sourceType);
    const changePercent = Math.abs(best.change) * 100;
    const advice = SOURCE_ADVICE[best.sourceType]?.[direction === 'growth' ? 'up' : 'down'] ??
      (direction === 'growth' ? 'Find out what is driving it and do more of it.' : 'Find out what changed for this source.');
    insights.push({
      insightType: direction === 'growth' ? 'traffic_source_growth' : 'traffic_source_decline',
      title: direction === 'growth' ? `${name} is growing` : `${name} is shrinking`,
      recommendation:
        `Views from ${name} ${direction === 'growth' ? 'grew' : 'fell'} ${formatCount(changePercent)} % over the last ${TREND_WINDOW_DAYS} days ` +
        `(${formatCount(best.recentSum)} vs ${formatCount(best.previousSum)} in the ${TREND_WINDOW_DAYS} days before, ${windows.recent.from} to ${windows.recent.to}; ` +
        `now ${formatPercent(best.share * 100)} of your views). ${advice}`,
      confidenceScore: comparisonConfidence(best.pAdjusted, best.test.rankBiserial),
      facts: {
        source: name,
        sourceType: best.sourceType,
        recentViews: round(best.recentSum, 0),
        previousViews: round(best.previousSum, 0),
        changePercent: round(best.change * 100, 1),
        shareOfViewsPercent: round(best.share * 100, 1),
        windowDays: TREND_WINDOW_DAYS,
        periodEnd: windows.recent.to,
        sourcesCompared: tested,
        pValueAdjusted: round(best.pAdjusted, 4),
        effectSize: round(best.test.rankBiserial, 2),
      },
      videoId: null,
    });
  }
  return insights;
}

function rpmTrendInsights({ daily, revenueAccess }: InsightInput): ComputedInsight[] {
  if (revenueAccess !== 'available') return [];
  const earning = daily.filter((row) => row.revenue !== null && row.views !== null && row.views > 0);
  if (earning.length === 0) return [];
  const dates = earning.map((row) => row.date).sort();
  const windows = trendWindows(dates.at(-1)!);
  if (dates[0]! > windows.previous.from) return [];
  const recent = earning.filter((row) => row.date >= windows.recent.from);
  const previous = earning.filter((row) => row.date >= windows.previous.from && row.date <= windows.previous.to);
  // At least half of each window must have data.
  if (recent.length < TREND_WINDOW_DAYS / 2 || previous.length < TREND_WINDOW_DAYS / 2) return [];
  const rpmOf = (rows: typeof earning) => (rows.reduce((sum, row) => sum + row.revenue!, 0) / rows.reduce((sum, row) => sum + row.views!, 0)) * 1000;
  const recentRpm = rpmOf(recent);
  const previousRpm = rpmOf(previous);
  if (previousRpm <= 0) return [];
  const change = (recentRpm - previousRpm) / previousRpm;
  if (Math.abs(change) < 0.1) return [];
  const dailyRpm = (rows: typeof earning) => rows.map((row) => (row.revenue! / row.views!) * 1000);
  const test = change > 0 ? mannWhitney(dailyRpm(recent), dailyRpm(previous)) : mannWhitney(dailyRpm(previous), dailyRpm(recent));
  if (test.pGreater > MAX_P_ADJUSTED || test.rankBiserial < MIN_EFFECT) return [];
  const rising = change > 0;
  return [
    {
      insightType: 'rpm_trend',
      title: rising ? 'Your RPM is rising' : 'Your RPM is falling',
      recommendation:
        `Your RPM ${rising ? 'rose' : 'fell'} to ${formatMoney(recentRpm)} per 1,000 views over the last ${TREND_WINDOW_DAYS} days (${windows.recent.from} to ${windows.recent.to}), ` +
        `${rising ? 'up' : 'down'} ${formatCount(Math.abs(change) * 100)} % from ${formatMoney(previousRpm)} in the ${TREND_WINDOW_DAYS} days before (n=${recent.length} vs ${previous.length} days). ` +
        (rising
          ? 'Whatever changed (topics, longer videos with mid-roll ads, audience countries) is paying off: keep it up.'
          : 'Check your ad settings (mid-roll ads on videos over 8 minutes) and whether views moved to lower-paying formats or countries.'),
      confidenceScore: comparisonConfidence(test.pGreater, test.rankBiserial),
      facts: {
        recentRpm: round(recentRpm, 2),
        previousRpm: round(previousRpm, 2),
        changePercent: round(change * 100, 1),
        recentDays: recent.length,
        previousDays: previous.length,
        periodEnd: windows.recent.to,
        pValue: round(test.pGreater, 4),
        effectSize: round(test.rankBiserial, 2),
      },
      videoId: null,
    },
  ];
}
