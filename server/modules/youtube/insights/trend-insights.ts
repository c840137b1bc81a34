// Trends over the last 28 days against the 28 before: traffic sources and RPM.
import { addDays } from '../../../lib/dates.ts';
import { trafficSourceName } from '../traffic-source-names.ts';
import { formatCount, formatMoney, formatPercent } from './format.ts';
import { comparisonConfidence, mannWhitney, round } from './statistics.ts';
import { MAX_P_ADJUSTED, MIN_EFFECT, TREND_WINDOW_DAYS, type InsightInput, type ComputedInsight } from './insight-types.ts';

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

export function trafficSourceInsights({ channelTraffic }: InsightInput): ComputedInsight[] {
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

export function rpmTrendInsights({ daily, revenueAccess }: InsightInput): ComputedInsight[] {
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

