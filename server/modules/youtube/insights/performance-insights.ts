// Which publishing times and video lengths do better on this channel: each group of videos against all the others, at
// the same age (views 7 days after publishing) where the day-by-day history allows, as a ratio of geometric means with
// its 95 % interval (evidence.ts). The text only words that evidence.
import { buildEvidence, confidenceFromEvidence, type Estimate, excludesNoEffect, ratioOfGeometricMeans } from './evidence.ts';
import { comparisonSentence } from './format.ts';
import { round } from './statistics.ts';
import { viewsAtElapsed } from './views-at-age.ts';
import { DAY_MS, EARLY_WINDOW_DAYS, MIN_GROUP, MIN_RATIO, MIN_VIDEOS, WEEKDAYS, type InsightVideo, type InsightInput, type Facts, type ComputedInsight } from './insight-types.ts';

export interface PerformanceMeasure {
  /** Words for the measure, e.g. "7-day views". */
  label: string;
  key: 'firstWeekViews' | 'viewsPerDay';
  values: Map<string, number>;
}

/**
 * Views 7 days after publishing (from the day-by-day history, read as points in time so videos published at different
 * hours are compared at the same age) where the channel has that for enough videos; otherwise views per day since
 * publishing, for videos at least 7 days old. One measure per run: the two are not comparable with each other.
 */
export function performanceMeasure(videos: readonly InsightVideo[], now: Date): PerformanceMeasure | null {
  const firstWeek = new Map<string, number>();
  for (const video of videos) {
    const atAge = video.publishedAt ? viewsAtElapsed(video.earlyViews, video.publishedAt, EARLY_WINDOW_DAYS) : null;
    if (atAge !== null) firstWeek.set(video.videoId, atAge);
  }
  if (firstWeek.size >= MIN_VIDEOS) return { label: `${EARLY_WINDOW_DAYS}-day views`, key: 'firstWeekViews', values: firstWeek };
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
  inGroup: number;
  rest: number;
  estimate: Estimate;
}

/**
 * Each group against all other videos (groups with at least MIN_GROUP videos on both sides); the group with the
 * strongest evidence of doing better wins, if its interval, Bonferroni-adjusted for the number of groups compared,
 * lies above 1 and the estimate is at least MIN_RATIO.
 */
function bestGroup(entries: readonly { group: string; value: number }[], groupOrder: readonly string[]): GroupComparison | null {
  const sides = groupOrder.flatMap((group) => {
    const inGroup = entries.filter((entry) => entry.group === group).map((entry) => entry.value);
    const rest = entries.filter((entry) => entry.group !== group).map((entry) => entry.value);
    return inGroup.length >= MIN_GROUP && rest.length >= MIN_GROUP ? [{ group, inGroup, rest }] : [];
  });
  if (sides.length < 2) return null;
  const candidates = sides.map(({ group, inGroup, rest }) => ({ group, inGroup: inGroup.length, rest: rest.length, estimate: ratioOfGeometricMeans(inGroup, rest, sides.length) }));
  const best = candidates
    .filter((candidate) => candidate.estimate.estimate > 1)
    .sort((a, b) => a.estimate.pValue - b.estimate.pValue || b.estimate.estimate - a.estimate.estimate)[0];
  if (!best || best.estimate.low <= 1 || best.estimate.estimate < MIN_RATIO) return null;
  return best;
}

const comparisonFacts = (comparison: GroupComparison, measure: PerformanceMeasure): Facts => ({
  measure: measure.label,
  ratio: round(comparison.estimate.estimate, 2),
  sampleSize: comparison.inGroup,
  otherSampleSize: comparison.rest,
  groupsCompared: comparison.estimate.comparisons,
});

/** The insight for a winning group: evidence first, then the words and the confidence derived from it. */
function groupInsight(
  comparison: GroupComparison,
  measure: PerformanceMeasure,
  labels: { group: string; rest: string },
  text: { insightType: string; title: string; advice: string; facts: Facts },
): ComputedInsight | null {
  const evidence = buildEvidence(
    'ratioOfGeometricMeans',
    [
      { label: labels.group, n: comparison.inGroup },
      { label: labels.rest, n: comparison.rest },
    ],
    measure.label,
    comparison.estimate,
  );
  if (!excludesNoEffect(evidence)) return null;
  return {
    insightType: text.insightType,
    title: text.title,
    recommendation: `${comparisonSentence(evidence)} ${text.advice}`,
    confidenceScore: confidenceFromEvidence(evidence),
    facts: { ...text.facts, ...comparisonFacts(comparison, measure) },
    evidence,
    videoId: null,
  };
}

export function publishingTimeInsights({ videos, now }: InsightInput): ComputedInsight[] {
  const dated = videos.filter((video) => video.publishedAt);
  const measure = performanceMeasure(dated, now);
  if (!measure) return [];
  const insights: ComputedInsight[] = [];

  const byWeekday = dated.flatMap((video) => {
    const value = measure.values.get(video.videoId);
    return value === undefined ? [] : [{ group: WEEKDAYS[video.publishedAt!.getUTCDay()]!, value }];
  });
  const weekday = bestGroup(byWeekday, WEEKDAYS);
  const dayInsight =
    weekday &&
    groupInsight(weekday, measure, { group: `videos published on ${weekday.group} (UTC)`, rest: 'those published on other days' }, {
      insightType: 'best_publish_day',
      title: `Best day to publish: ${weekday.group}`,
      advice: `Schedule your most important uploads on ${weekday.group}.`,
      facts: { weekday: weekday.group },
    });
  if (dayInsight) insights.push(dayInsight);

  // Four-hour windows: single hours would split a channel's uploads into groups too small to compare.
  const windows = [0, 4, 8, 12, 16, 20].map((start) => `${String(start).padStart(2, '0')}:00–${String(start + 4).padStart(2, '0')}:00 UTC`);
  const byHour = dated.flatMap((video) => {
    const value = measure.values.get(video.videoId);
    return value === undefined ? [] : [{ group: windows[Math.floor(video.publishedAt!.getUTCHours() / 4)]!, value }];
  });
  const hour = bestGroup(byHour, windows);
  const hourInsight =
    hour &&
    groupInsight(hour, measure, { group: `videos published between ${hour.group.replace('–', ' and ')}`, rest: 'those published at other times' }, {
      insightType: 'best_publish_time',
      title: `Best time to publish: ${hour.group}`,
      advice: 'Publish in this window when you can.',
      facts: { timeWindow: hour.group },
    });
  if (hourInsight) insights.push(hourInsight);
  return insights;
}

const DURATION_BUCKETS = [
  { label: 'under 1 minute', max: 60 },
  { label: '1–4 minutes', max: 240 },
  { label: '4–10 minutes', max: 600 },
  { label: '10–20 minutes', max: 1200 },
  { label: 'over 20 minutes', max: Number.POSITIVE_INFINITY },
] as const;

export function durationInsights({ videos, now }: InsightInput): ComputedInsight[] {
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
  const insight = groupInsight(best, measure, { group: `videos of ${best.group}`, rest: 'your other videos' }, {
    insightType: 'video_length',
    title: `Videos of ${best.group} outperform`,
    advice: 'Favour this length when you plan new videos.',
    facts: { length: best.group },
  });
  return insight ? [insight] : [];
}
