// What the insights rules read and say, and the evidence thresholds they share.
import type { InsightEvidence } from '#contract/insight-evidence.ts';
import type { RetentionPoint, RevenueAccess } from '#contract/youtube.ts';

export interface InsightVideo {
  videoId: string;
  title: string;
  publishedAt: Date | null;
  durationSeconds: number | null;
  views: number;
  likes: number | null;
  comments: number | null;
  /** Percent. */
  clickThroughRate: number | null;
  /** Percent 0–100. */
  averageViewPercentage: number | null;
  /** Views per day since publishing (index 0 = the publishing day). */
  earlyViews: number[] | null;
  retention: RetentionPoint[];
}

export interface InsightInput {
  now: Date;
  revenueAccess: RevenueAccess;
  videos: InsightVideo[];
  /** Channel views per day and traffic source. */
  channelTraffic: { date: string; sourceType: string; views: number }[];
  /** Channel views and revenue per day (revenue null where not reported). */
  daily: { date: string; views: number | null; revenue: number | null }[];
}

export type Facts = Record<string, number | string>;

export interface ComputedInsight {
  insightType: string;
  title: string;
  recommendation: string;
  /** Derived from `evidence` (confidenceFromEvidence), never set by hand. */
  confidenceScore: number;
  facts: Facts;
  /** The statistics the recommendation words: groups and n, the effect and its 95 % interval. */
  evidence: InsightEvidence;
  /** YouTube's videoId when the insight is about one video. */
  videoId: string | null;
}

/** Fewer videos than this cannot say anything about publishing times or lengths. */
export const MIN_VIDEOS = 15;
/** Each compared group needs at least this many videos. */
export const MIN_GROUP = 5;
/** Retention drop-off needs this many curves. */
export const MIN_RETENTION_CURVES = 5;
export const EARLY_WINDOW_DAYS = 7;
export const TREND_WINDOW_DAYS = 28;

// A claim is made only when its 95 % interval excludes no effect (decision 025) and the estimate is a difference a
// creator would care about: at least 15 % for a group of videos, 20 % for a traffic source, 10 % for RPM.
export const MIN_RATIO = 1.15;

export const DAY_MS = 86_400_000;
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
