// Videos that beat the channel's median click-through rate or retention.
import { formatPercent, formatRatio } from './format.ts';
import { median, outlierConfidence, robustSpread, round } from './statistics.ts';
import { MIN_OUTLIER_SAMPLE, type InsightVideo, type InsightInput, type ComputedInsight } from './insight-types.ts';

export function outlierInsights({ videos }: InsightInput): ComputedInsight[] {
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

