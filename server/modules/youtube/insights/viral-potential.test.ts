// Viral potential on constructed channels: a video far above its channel's baseline, one on par, one below, and
// channels too small to have a baseline.
import { describe, expect, it } from 'vitest';
import { NOW, testVideo } from '../../../test/youtube-insight-data.ts';
import type { InsightVideo } from './engine.ts';
import { median } from './statistics.ts';
import { analyzeViralPotential, engagementRateOf, factorScore } from './viral-potential.ts';
import { viewsAtAge } from './views-at-age.ts';

const channel = Array.from({ length: 30 }, (_, index) => testVideo(index + 1));
const baselineAt = (days: number) => median(channel.map((video) => viewsAtAge(video.earlyViews, days)!))!;
const medianOf = (pick: (video: InsightVideo) => number | null) => median(channel.map(pick).filter((value): value is number => value !== null))!;

/** A video published 2.5 days ago, with numbers `factor` × the channel's medians. */
function youngVideo(factor: number, overrides: Partial<InsightVideo> = {}): InsightVideo {
  const threeDays = baselineAt(2.5) * factor;
  const views = threeDays;
  const engagement = medianOf(engagementRateOf) * factor;
  return {
    videoId: 'vNEWVIDEO01',
    title: 'New video',
    publishedAt: new Date(NOW.getTime() - 2.5 * 86_400_000),
    durationSeconds: 480,
    views,
    likes: (engagement / 100) * views,
    comments: 0,
    clickThroughRate: medianOf((video) => video.clickThroughRate) * factor,
    averageViewPercentage: medianOf((video) => video.averageViewPercentage) * factor,
    earlyViews: [threeDays * 0.5, threeDays * 0.3, threeDays * 0.2],
    retention: [],
    ...overrides,
  };
}

describe('viral potential', () => {
  it('reads views at a fractional age from the daily history', () => {
    expect(viewsAtAge([100, 50, 20], 0.25)).toBe(25);
    expect(viewsAtAge([100, 50, 20], 2)).toBe(150);
    expect(viewsAtAge([100, 50, 20], 2.5)).toBe(160);
    expect(viewsAtAge([100, 50], 2.5)).toBeNull();
    expect(viewsAtAge(null, 1)).toBeNull();
  });

  it('compares a video a few hours old with the channel at the same number of hours, and not its engagement yet', () => {
    const fresh = { ...youngVideo(1), publishedAt: new Date(NOW.getTime() - 6 * 3_600_000), views: 40, likes: 0, comments: 0, earlyViews: null };
    const analysis = analyzeViralPotential(fresh, [...channel, fresh], NOW)!;
    const [velocity, engagement] = analysis.reasons;
    expect(velocity!.baseline).toBeCloseTo(baselineAt(0.25), 1);
    expect(velocity!.description).toContain('40 views after 6 hours');
    expect(engagement).toMatchObject({ value: null, ratio: null, description: 'Too few views yet (40) to judge engagement.' });
  });

  it('scores the factor curve as documented', () => {
    expect(factorScore(1)).toBe(50);
    expect(factorScore(2)).toBeCloseTo(88.08, 2);
    expect(factorScore(0.5)).toBeCloseTo(11.92, 2);
    expect(factorScore(0)).toBe(0);
  });

  it('rates a video far above its channel at the same age as exceptional, with every reason', () => {
    const video = youngVideo(2);
    const analysis = analyzeViralPotential(video, [...channel, video], NOW)!;
    expect(analysis.score).toBe(88);
    expect(analysis.level).toBe('exceptional');
    expect(analysis.baselineSampleSize).toBe(30);
    const velocity = analysis.reasons.find((reason) => reason.factor === 'viewVelocity')!;
    // Compared with the other videos after 2.5 days, not their lifetime views.
    expect(velocity.baseline).toBeCloseTo(baselineAt(2.5), 1);
    expect(velocity.ratio).toBeCloseTo(2, 2);
    expect(velocity.description).toContain('views after 2.5 days');
    expect(analysis.reasons.map((reason) => [reason.factor, reason.ratio])).toEqual([
      ['viewVelocity', 2],
      ['engagementRate', 2],
      ['retention', 2],
      ['clickThroughRate', 2],
    ]);
    expect(analysis.recommendation).toMatch(/^Viral potential 88\/100 \(exceptional\)\. Strongest: /);
  });

  it('rates a video on par with the channel as moderate and one below as low, naming the weakest factor', () => {
    const onPar = youngVideo(1);
    expect(analyzeViralPotential(onPar, [...channel, onPar], NOW)).toMatchObject({ score: 50, level: 'moderate' });
    const behind = youngVideo(1, { clickThroughRate: medianOf((video) => video.clickThroughRate) * 0.25, averageViewPercentage: 20 });
    const analysis = analyzeViralPotential(behind, [...channel, behind], NOW)!;
    expect(analysis.level).toBe('low');
    expect(analysis.recommendation).toContain('The weakest factor is click-through rate (0.3× your median)');
  });

  it('leaves out factors without data and scores the rest', () => {
    const noReach = channel.map((video) => ({ ...video, clickThroughRate: null }));
    const video = youngVideo(2, { clickThroughRate: null });
    const analysis = analyzeViralPotential(video, [...noReach, video], NOW)!;
    const ctr = analysis.reasons.find((reason) => reason.factor === 'clickThroughRate')!;
    expect(ctr).toMatchObject({ value: null, baseline: null, ratio: null });
    expect(analysis.score).toBe(88);
  });

  it('falls back to views per day since publishing for a video without daily history', () => {
    const old = { ...testVideo(40), earlyViews: null };
    const withoutHistory = channel.map((video) => ({ ...video, earlyViews: null }));
    const analysis = analyzeViralPotential(old, [...withoutHistory, old], NOW)!;
    expect(analysis.reasons[0]!.description).toContain('views per day since publishing');
  });

  it('has nothing to say about a channel with fewer than 3 other videos', () => {
    const video = youngVideo(2);
    expect(analyzeViralPotential(video, [channel[0]!, channel[1]!, video], NOW)).toBeNull();
  });

  it('is deterministic', () => {
    const video = youngVideo(1.4);
    expect(analyzeViralPotential(video, [...channel, video], NOW)).toEqual(analyzeViralPotential(video, [...channel, video], NOW));
  });
});
