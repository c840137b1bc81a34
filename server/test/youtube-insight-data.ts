// Constructed channels for the insights and viral-potential tests: deterministic formulas (no random numbers), so each
// test knows the answer it must find.
import type { RetentionPoint } from '#contract/youtube.ts';
import type { InsightInput, InsightVideo } from '../modules/youtube/insights/engine.ts';

export const NOW = new Date('2026-11-02T10:00:00Z');
const DAY_MS = 86_400_000;

/** A spread of ±25 % around 1 that does not line up with weekdays (11 is prime to 7) or hour windows. */
export const wobble = (index: number) => 1 + (0.25 * (((index * 37) % 11) - 5)) / 5;

/** Daily views for 14 days whose first 7 add up to `firstWeek`. */
export function earlyViewsFor(firstWeek: number): number[] {
  const shape = [0.3, 0.2, 0.15, 0.12, 0.1, 0.08, 0.05];
  return [...shape.map((share) => Math.round(firstWeek * share)), ...shape.map((share) => Math.round(firstWeek * share * 0.1))];
}

export function testVideo(index: number, overrides: Partial<InsightVideo> = {}): InsightVideo {
  const firstWeek = Math.round(8000 * wobble(index));
  const early = earlyViewsFor(firstWeek);
  return {
    videoId: `v${String(index).padStart(10, '0')}`,
    title: `Video ${index}`,
    // One video a day, going back from 10 days ago, at 15:00 UTC.
    publishedAt: new Date(Date.UTC(2026, 9, 23 - index, 15)),
    durationSeconds: 480,
    views: early.reduce((sum, value) => sum + value, 0) * 3,
    likes: Math.round(firstWeek * 0.04),
    comments: Math.round(firstWeek * 0.005),
    clickThroughRate: round1(4.5 * wobble(index + 3)),
    averageViewPercentage: round1(42 * wobble(index + 5)),
    earlyViews: early,
    retention: [],
    ...overrides,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** A retention curve falling gently from 1.0 to 0.4, with an extra drop of `extraDrop` between `dropAt` and +5 %. */
export function retentionCurve(dropAt: number, extraDrop: number, variant = 0): RetentionPoint[] {
  return Array.from({ length: 100 }, (_, index) => {
    const t = (index + 1) / 100;
    const gentle = 1 - 0.4 * t * (1 + 0.05 * Math.sin(variant + index));
    const extra = t <= dropAt ? 0 : t >= dropAt + 0.05 ? extraDrop : (extraDrop * (t - dropAt)) / 0.05;
    return { timeRatio: t, watchRatio: Math.round((gentle - extra) * 1000) / 1000, relativePerformance: 0.5 };
  });
}

export function emptyInput(videos: InsightVideo[], overrides: Partial<InsightInput> = {}): InsightInput {
  return { now: NOW, revenueAccess: 'available', videos, channelTraffic: [], daily: [], ...overrides };
}

export const dayBefore = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString().slice(0, 10);
