// Where viewers leave: the retention curves compared on one grid. The evidence is paired: in each video, the share of
// the audience lost in the steepest stretch minus the average lost per other 5 % stretch, with a one-sample t interval
// adjusted for having picked the steepest of 18 stretches (evidence.ts). The opening 5 % is left out: nearly every
// video on YouTube loses the most viewers there, so "viewers leave in the first 5 %" is context, not an insight (issue
// 24); a stretch later in the video where this creator's viewers leave is one they can act on.
import type { RetentionPoint } from '#contract/youtube.ts';
import { buildEvidence, confidenceFromEvidence, excludesNoEffect, meanDifference } from './evidence.ts';
import { formatDuration, formatEffect, formatInterval, formatSampleSizes } from './format.ts';
import { median, round } from './statistics.ts';
import { MIN_RETENTION_CURVES, type InsightInput, type ComputedInsight } from './insight-types.ts';

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

export function retentionDropOffInsights({ videos }: InsightInput): ComputedInsight[] {
  const curves = videos.filter((video) => video.retention.length >= 10);
  if (curves.length < MIN_RETENTION_CURVES) return [];
  // Every stretch but the opening one (index 0 of segmentDrops): a drop there is every video's.
  const drops = curves.map((video) => segmentDrops(video.retention).slice(1));
  const segments = drops[0]!.length;
  const meanDrops = Array.from({ length: segments }, (_, segment) => drops.reduce((sum, perVideo) => sum + perVideo[segment]!, 0) / drops.length);
  const steepest = meanDrops.reduce((best, value, index) => (value > meanDrops[best]! ? index : best), 0);
  const elsewhere = meanDrops.filter((_, index) => index !== steepest).reduce((sum, value) => sum + value, 0) / (segments - 1);
  const drop = meanDrops[steepest]!;
  if (drop < 0.03 || drop < 1.5 * Math.max(elsewhere, 0)) return [];
  // Per video: points lost in this stretch minus the average points lost per other stretch.
  const differences = drops.map((perVideo) => 100 * (perVideo[steepest]! - perVideo.filter((_, index) => index !== steepest).reduce((sum, value) => sum + value, 0) / (segments - 1)));
  const from = GRID[steepest + 1]!;
  const to = GRID[steepest + 2]!;
  const n = curves.length;
  const stretch = `the ${Math.round(from * 100)}–${Math.round(to * 100)} % stretch`;
  const evidence = buildEvidence(
    'meanDifference',
    [
      { label: stretch, n },
      { label: 'the other 5 % stretches after the opening one', n },
    ],
    'more of the audience lost than in an average other 5 % stretch after the opening',
    meanDifference(differences, segments),
  );
  if (!excludesNoEffect(evidence) || evidence.estimate <= 0) return [];
  const durations = curves.map((video) => video.durationSeconds).filter((value): value is number => value !== null && value > 0);
  const typicalDuration = median(durations);
  const when = typicalDuration
    ? ` (about ${formatDuration(from * typicalDuration)}–${formatDuration(to * typicalDuration)} into a typical ${formatDuration(typicalDuration)} video)`
    : '';
  const advice = `Look at what happens around ${Math.round(from * 100)} % of your videos (a slow stretch, a sponsor read, a change of topic) and tighten it.`;
  return [
    {
      insightType: 'retention_dropoff',
      title: `Viewers leave most between ${Math.round(from * 100)} % and ${Math.round(to * 100)} % of a video`,
      recommendation:
        `Across your videos with retention data, ${stretch}${when} loses ${formatEffect(evidence)} more of the audience than an average other 5 % stretch after the opening, ` +
        `${formatInterval(evidence)}, ${formatSampleSizes(evidence)}. ${advice}`,
      confidenceScore: confidenceFromEvidence(evidence),
      facts: {
        segmentStartPercent: Math.round(from * 100),
        segmentEndPercent: Math.round(to * 100),
        averageDropPercent: round(drop * 100, 1),
        otherSegmentsDropPercent: round(Math.max(elsewhere, 0) * 100, 1),
        sampleSize: n,
      },
      evidence,
      videoId: null,
    },
  ];
}
