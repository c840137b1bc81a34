// The insights engine: statistics over one channel's own numbers, as pure functions of plain data. Each rule computes
// its evidence first (groups, n, effect, 95 % interval: evidence.ts) and words only that; an insight whose interval
// touches "no effect" or whose groups are too small is dropped here, whichever rule made it (decision 025).
import { excludesNoEffect } from './evidence.ts';
import { durationInsights, publishingTimeInsights } from './performance-insights.ts';
import { outlierInsights } from './outlier-insights.ts';
import { retentionDropOffInsights } from './retention-insights.ts';
import { rpmTrendInsights, trafficSourceInsights } from './trend-insights.ts';
import { type ComputedInsight, type InsightInput, MIN_GROUP } from './insight-types.ts';

export type { ComputedInsight, Facts, InsightInput, InsightVideo } from './insight-types.ts';
export { performanceMeasure } from './performance-insights.ts';
export { segmentDrops, watchRatioAt } from './retention-insights.ts';

/**
 * Enough evidence to show: the interval excludes no effect and every compared group has at least MIN_GROUP members —
 * except the one video an outlier insight is about, which is measured, not sampled.
 */
export function hasEnoughEvidence({ evidence }: Pick<ComputedInsight, 'evidence'>): boolean {
  const groupsLargeEnough = evidence.groups.every((group, index) => group.n >= MIN_GROUP || (evidence.effect === 'ratioToMedian' && index === 0));
  return groupsLargeEnough && excludesNoEffect(evidence);
}

export function generateInsights(input: InsightInput): ComputedInsight[] {
  const insights = [
    ...publishingTimeInsights(input),
    ...durationInsights(input),
    ...outlierInsights(input),
    ...retentionDropOffInsights(input),
    ...trafficSourceInsights(input),
    ...rpmTrendInsights(input),
  ].filter(hasEnoughEvidence);
  return insights.sort((a, b) => b.confidenceScore - a.confidenceScore || a.insightType.localeCompare(b.insightType));
}
