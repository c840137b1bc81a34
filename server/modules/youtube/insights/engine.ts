// The insights engine: statistics over one channel's own numbers, as pure functions of plain data. Each rule says
// nothing when the data cannot carry a claim (too few videos, too small an effect, too weak evidence); what it does say
// cites the numbers it rests on, and its confidence follows the formulas in statistics.ts.
import { durationInsights, publishingTimeInsights } from './performance-insights.ts';
import { outlierInsights } from './outlier-insights.ts';
import { retentionDropOffInsights } from './retention-insights.ts';
import { rpmTrendInsights, trafficSourceInsights } from './trend-insights.ts';
import type { ComputedInsight, InsightInput } from './insight-types.ts';

export type { ComputedInsight, Facts, InsightInput, InsightVideo } from './insight-types.ts';
export { performanceMeasure } from './performance-insights.ts';
export { segmentDrops, watchRatioAt } from './retention-insights.ts';

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
