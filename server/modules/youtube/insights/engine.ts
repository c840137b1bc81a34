// The insights engine: statistics over one channel's own numbers, as pure functions of plain data. Each rule computes
// its evidence first (groups, n, effect, 95 % interval: evidence.ts) and words only that; an insight whose interval
// touches "no effect" or whose groups are too small is dropped here, whichever rule made it (decision 025).
import { excludesNoEffect } from './evidence.ts';
import { durationInsights, publishingTimeInsights } from './performance-insights.ts';
import { retentionDropOffInsights } from './retention-insights.ts';
import { rpmTrendInsights, trafficSourceInsights } from './trend-insights.ts';
import { type ComputedInsight, type InsightInput, MIN_GROUP } from './insight-types.ts';

export type { ComputedInsight, Facts, InsightInput, InsightVideo } from './insight-types.ts';
export { performanceMeasure } from './performance-insights.ts';
export { segmentDrops, watchRatioAt } from './retention-insights.ts';

/**
 * Enough evidence to show: the interval excludes no effect and every compared group has at least MIN_GROUP members.
 * One video's standing against the others (its click-through rate, its retention) is not an insight: a group of one
 * says nothing about what works on the channel, however far it stands out (issue 24). The videos table shows those
 * figures per video.
 */
export function hasEnoughEvidence({ evidence }: Pick<ComputedInsight, 'evidence'>): boolean {
  return evidence.groups.every((group) => group.n >= MIN_GROUP) && excludesNoEffect(evidence);
}

export function generateInsights(input: InsightInput): ComputedInsight[] {
  const insights = [
    ...publishingTimeInsights(input),
    ...durationInsights(input),
    ...retentionDropOffInsights(input),
    ...trafficSourceInsights(input),
    ...rpmTrendInsights(input),
  ].filter(hasEnoughEvidence);
  return insights.sort((a, b) => b.confidenceScore - a.confidenceScore || a.insightType.localeCompare(b.insightType));
}
