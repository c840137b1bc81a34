// Videos that beat the channel's median click-through rate or retention: the best video's value against the median of
// the channel's other videos, with the order-statistic interval of that median (evidence.ts).
import { buildEvidence, confidenceFromEvidence, excludesNoEffect, ratioToMedian } from './evidence.ts';
import { formatEffect, formatInterval, formatPercent, formatSampleSizes } from './format.ts';
import { median, robustSpread, round } from './statistics.ts';
import { MIN_OUTLIER_SAMPLE, type InsightVideo, type InsightInput, type ComputedInsight } from './insight-types.ts';

/** A video must stand this far out (robust z, MAD-based) to be called an outlier at all. */
const MIN_ROBUST_Z = 2;

export function outlierInsights({ videos }: InsightInput): ComputedInsight[] {
  const rules = [
    {
      insightType: 'click_through_rate',
      pick: (video: InsightVideo) => video.clickThroughRate,
      title: 'A thumbnail and title that win clicks',
      measure: 'click-through rate',
      describe: (video: InsightVideo, value: number) => `"${video.title}" has a click-through rate of ${formatPercent(value)}`,
      advice: 'Reuse what its title and thumbnail promise in upcoming videos.',
    },
    {
      insightType: 'retention',
      pick: (video: InsightVideo) => video.averageViewPercentage,
      title: 'A video that holds its audience',
      measure: 'average percentage viewed',
      describe: (video: InsightVideo, value: number) => `"${video.title}" is watched for ${formatPercent(value)} of its length on average`,
      advice: 'Study its pacing and structure and repeat them.',
    },
  ];
  const insights: ComputedInsight[] = [];
  for (const rule of rules) {
    const measured = videos.flatMap((video) => {
      const value = rule.pick(video);
      return value !== null && Number.isFinite(value) ? [{ video, value }] : [];
    });
    if (measured.length < MIN_OUTLIER_SAMPLE + 1) continue;
    const values = measured.map((entry) => entry.value);
    const spread = robustSpread(values)!;
    if (!(median(values)! > 0) || !(spread > 0)) continue;
    const best = [...measured].sort((a, b) => b.value - a.value || a.video.videoId.localeCompare(b.video.videoId))[0]!;
    const others = measured.filter((entry) => entry !== best).map((entry) => entry.value);
    const estimate = ratioToMedian(best.value, others);
    if (!estimate) continue;
    const centre = median(others)!;
    const robustZ = (best.value - centre) / spread;
    if (robustZ < MIN_ROBUST_Z) continue;
    const evidence = buildEvidence(
      'ratioToMedian',
      [
        { label: 'this video', n: 1 },
        { label: 'your other videos (median)', n: others.length },
      ],
      rule.measure,
      estimate,
    );
    if (!excludesNoEffect(evidence)) continue;
    insights.push({
      insightType: rule.insightType,
      title: rule.title,
      recommendation:
        `${rule.describe(best.video, best.value)}, ${formatEffect(evidence)} the median of your other videos (${formatPercent(centre)}), ` +
        `${formatInterval(evidence)}, ${formatSampleSizes(evidence)}. ${rule.advice}`,
      confidenceScore: confidenceFromEvidence(evidence),
      facts: {
        videoTitle: best.video.title,
        value: round(best.value, 2),
        channelMedian: round(centre, 2),
        ratio: round(estimate.estimate, 2),
        robustZ: round(robustZ, 2),
        sampleSize: others.length,
      },
      evidence,
      videoId: best.video.videoId,
    });
  }
  return insights;
}
