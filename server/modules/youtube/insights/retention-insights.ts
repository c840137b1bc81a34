// Where viewers leave: the retention curves compared on one grid.
import type { RetentionPoint } from '#contract/youtube.ts';
import { formatDuration, formatPercent } from './format.ts';
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
  const drops = curves.map((video) => segmentDrops(video.retention));
  const segments = drops[0]!.length;
  const meanDrops = Array.from({ length: segments }, (_, segment) => drops.reduce((sum, perVideo) => sum + perVideo[segment]!, 0) / drops.length);
  const steepest = meanDrops.reduce((best, value, index) => (value > meanDrops[best]! ? index : best), 0);
  const elsewhere = meanDrops.filter((_, index) => index !== steepest).reduce((sum, value) => sum + value, 0) / (segments - 1);
  const drop = meanDrops[steepest]!;
  if (drop < 0.03 || drop < 1.5 * Math.max(elsewhere, 0)) return [];
  // How consistent it is: in how many videos this segment is one of the three steepest.
  const agreeing = drops.filter((perVideo) => {
    const threshold = [...perVideo].sort((a, b) => b - a)[2]!;
    return perVideo[steepest]! >= threshold;
  }).length;
  const from = GRID[steepest]!;
  const to = GRID[steepest + 1]!;
  const durations = curves.map((video) => video.durationSeconds).filter((value): value is number => value !== null && value > 0);
  const typicalDuration = median(durations);
  const when = typicalDuration
    ? ` (about ${formatDuration(from * typicalDuration)}–${formatDuration(to * typicalDuration)} into a typical ${formatDuration(typicalDuration)} video)`
    : '';
  const advice =
    steepest === 0
      ? 'Viewers decide in the opening seconds: cut long intros and show the promise of the title right away.'
      : `Look at what happens around ${Math.round(from * 100)} % of your videos (a slow stretch, a sponsor read, a change of topic) and tighten it.`;
  const n = curves.length;
  return [
    {
      insightType: 'retention_dropoff',
      title: `Viewers leave most between ${Math.round(from * 100)} % and ${Math.round(to * 100)} % of a video`,
      recommendation:
        `Across ${n} videos with retention data, the steepest drop comes between ${Math.round(from * 100)} % and ${Math.round(to * 100)} % of the video${when}: ` +
        `${formatPercent(drop * 100)} of the audience leaves there on average, against ${formatPercent(Math.max(elsewhere, 0) * 100)} per 5 % stretch elsewhere. ` +
        `It is among the three steepest drops in ${agreeing} of the ${n} videos. ${advice}`,
      // Agreement across videos, discounted when there are few curves: 5 curves weigh 0.5, 20 weigh 0.8.
      confidenceScore: round(Math.min(0.99, (agreeing / n) * (n / (n + 5))), 2),
      facts: {
        segmentStartPercent: Math.round(from * 100),
        segmentEndPercent: Math.round(to * 100),
        averageDropPercent: round(drop * 100, 1),
        otherSegmentsDropPercent: round(Math.max(elsewhere, 0) * 100, 1),
        videosAgreeing: agreeing,
        sampleSize: n,
      },
      videoId: null,
    },
  ];
}

