// Which publishing times and video lengths do better on this channel: video performance made comparable across ages,
// compared group against group.
import { formatCount, formatRatio } from './format.ts';
import { comparisonConfidence, type MannWhitneyResult, mannWhitney, median, round } from './statistics.ts';
import { DAY_MS, EARLY_WINDOW_DAYS, MAX_P_ADJUSTED, MIN_EFFECT, MIN_GROUP, MIN_RATIO, MIN_VIDEOS, WEEKDAYS, type InsightVideo, type InsightInput, type Facts, type ComputedInsight } from './insight-types.ts';

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

