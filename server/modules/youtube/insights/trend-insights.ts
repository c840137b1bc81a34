// Trends over the last 28 days against the 28 before: traffic sources and RPM, each as a ratio of daily means with its
// 95 % interval (evidence.ts). Days within a window are treated as independent; decision 025 says what that costs.
import { addDays } from '../../../lib/dates.ts';
import { trafficSourceName } from '../traffic-source-names.ts';
import { buildEvidence, confidenceFromEvidence, excludesNoEffect, ratioOfMeans } from './evidence.ts';
import { comparisonSentence, formatMoney, formatPercent } from './format.ts';
import { mean, round } from './statistics.ts';
import { TREND_WINDOW_DAYS, type InsightInput, type ComputedInsight } from './insight-types.ts';

const windowLabels = { recent: `the last ${TREND_WINDOW_DAYS} days`, previous: `the ${TREND_WINDOW_DAYS} days before` };
/** A change this small is not worth a recommendation even when it is certain. */
const MIN_SOURCE_CHANGE = 0.2;
const MIN_RPM_CHANGE = 0.1;

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
  const series = sources.flatMap((sourceType) => {
    // A day without a row for a source is a day it brought no views (reports leave such rows out).
    const recent = daysOf(windows.recent.from).map((day) => byDay.get(`${sourceType}|${day}`) ?? 0);
    const previous = daysOf(windows.previous.from).map((day) => byDay.get(`${sourceType}|${day}`) ?? 0);
    const recentSum = recent.reduce((sum, value) => sum + value, 0);
    const previousSum = previous.reduce((sum, value) => sum + value, 0);
    // Sources too small to matter are left out (and do not count against the others in the correction).
    if (recentSum + previousSum < 200 || Math.max(recentSum / recentTotal, previousSum / previousTotal) < 0.03 || previousSum <= 0) return [];
    return [{ sourceType, recent, previous, recentSum, previousSum, share: recentSum / recentTotal }];
  });
  const tested = series.length;
  const candidates = series.flatMap((source) => {
    const estimate = ratioOfMeans(source.recent, source.previous, tested);
    return estimate ? [{ ...source, estimate }] : [];
  });
  const insights: ComputedInsight[] = [];
  for (const direction of ['growth', 'decline'] as const) {
    const best = candidates
      .filter(({ estimate }) => (direction === 'growth' ? estimate.low > 1 && estimate.estimate >= 1 + MIN_SOURCE_CHANGE : estimate.high < 1 && estimate.estimate <= 1 - MIN_SOURCE_CHANGE))
      .sort((a, b) => a.estimate.pValue - b.estimate.pValue || Math.abs(Math.log(b.estimate.estimate)) - Math.abs(Math.log(a.estimate.estimate)))[0];
    if (!best) continue;
    const name = trafficSourceName(best.sourceType);
    const evidence = buildEvidence(
      'ratioOfMeans',
      [
        { label: windowLabels.recent, n: TREND_WINDOW_DAYS },
        { label: windowLabels.previous, n: TREND_WINDOW_DAYS },
      ],
      `daily views from ${name}`,
      best.estimate,
    );
    if (!excludesNoEffect(evidence)) continue;
    const advice = SOURCE_ADVICE[best.sourceType]?.[direction === 'growth' ? 'up' : 'down'] ??
      (direction === 'growth' ? 'Find out what is driving it and do more of it.' : 'Find out what changed for this source.');
    insights.push({
      insightType: direction === 'growth' ? 'traffic_source_growth' : 'traffic_source_decline',
      title: direction === 'growth' ? `${name} is growing` : `${name} is shrinking`,
      recommendation:
        `${comparisonSentence(evidence, 'brought')} ` +
        `${name} now brings ${formatPercent(best.share * 100)} of your views (${windows.recent.from} to ${windows.recent.to}). ${advice}`,
      confidenceScore: confidenceFromEvidence(evidence),
      facts: {
        source: name,
        sourceType: best.sourceType,
        recentViews: round(best.recentSum, 0),
        previousViews: round(best.previousSum, 0),
        changePercent: round((best.estimate.estimate - 1) * 100, 1),
        shareOfViewsPercent: round(best.share * 100, 1),
        windowDays: TREND_WINDOW_DAYS,
        periodEnd: windows.recent.to,
        sourcesCompared: tested,
      },
      evidence,
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
  // Each day's RPM, averaged: the daily series the interval is about (a day's revenue per 1,000 of its views).
  const dailyRpm = (rows: typeof earning) => rows.map((row) => (row.revenue! / row.views!) * 1000);
  const estimate = ratioOfMeans(dailyRpm(recent), dailyRpm(previous));
  if (!estimate || Math.abs(estimate.estimate - 1) < MIN_RPM_CHANGE) return [];
  const evidence = buildEvidence(
    'ratioOfMeans',
    [
      { label: windowLabels.recent, n: recent.length },
      { label: windowLabels.previous, n: previous.length },
    ],
    'average daily RPM',
    estimate,
  );
  if (!excludesNoEffect(evidence)) return [];
  const rising = estimate.estimate > 1;
  const recentRpm = mean(dailyRpm(recent));
  const previousRpm = mean(dailyRpm(previous));
  return [
    {
      insightType: 'rpm_trend',
      title: rising ? 'Your RPM is rising' : 'Your RPM is falling',
      recommendation:
        `${comparisonSentence(evidence, 'had')} ` +
        `Your RPM averaged ${formatMoney(recentRpm)} per 1,000 views a day from ${windows.recent.from} to ${windows.recent.to}, against ${formatMoney(previousRpm)} before. ` +
        (rising
          ? 'Whatever changed (topics, longer videos with mid-roll ads, audience countries) is paying off: keep it up.'
          : 'Check your ad settings (mid-roll ads on videos over 8 minutes) and whether views moved to lower-paying formats or countries.'),
      confidenceScore: confidenceFromEvidence(evidence),
      facts: {
        recentRpm: round(recentRpm, 2),
        previousRpm: round(previousRpm, 2),
        changePercent: round((estimate.estimate - 1) * 100, 1),
        recentDays: recent.length,
        previousDays: previous.length,
        periodEnd: windows.recent.to,
      },
      evidence,
      videoId: null,
    },
  ];
}
