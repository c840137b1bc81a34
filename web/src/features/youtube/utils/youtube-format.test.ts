import { describe, expect, it } from 'vitest';
import {
  confidenceTone,
  engagementLevel,
  formatConfidence,
  formatWatchTime,
  insightTypeLabel,
  shareOf,
  watchTimeHours,
} from './youtube-format';

describe('formatWatchTime', () => {
  it('shows minutes as hours and minutes', () => {
    expect(formatWatchTime(125)).toBe('2h 5m');
    expect(formatWatchTime(60)).toBe('1h 0m');
    expect(formatWatchTime(59.6)).toBe('1h 0m');
    expect(formatWatchTime(0)).toBe('0h 0m');
    expect(formatWatchTime(45)).toBe('0h 45m');
    expect(formatWatchTime(123_456)).toBe('2,057h 36m');
  });

  it('keeps a missing value missing', () => {
    expect(formatWatchTime(null)).toBeNull();
    expect(formatWatchTime(Number.NaN)).toBeNull();
  });
});

describe('watchTimeHours', () => {
  it('rounds minutes to whole hours', () => {
    expect(watchTimeHours(740_000)).toBe(12_333);
    expect(watchTimeHours(29)).toBe(0);
    expect(watchTimeHours(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('engagementLevel', () => {
  it('is green at 8 % or more, yellow at 5 % or more, else red', () => {
    expect(engagementLevel(8)).toBe('good');
    expect(engagementLevel(12.5)).toBe('good');
    expect(engagementLevel(7.99)).toBe('fair');
    expect(engagementLevel(5)).toBe('fair');
    expect(engagementLevel(4.99)).toBe('poor');
    expect(engagementLevel(0)).toBe('poor');
  });
});

describe('confidence badge', () => {
  it('is green at 0.8 or more, yellow at 0.6 or more, else grey', () => {
    expect(confidenceTone(0.8)).toBe('green');
    expect(confidenceTone(0.95)).toBe('green');
    expect(confidenceTone(0.79)).toBe('amber');
    expect(confidenceTone(0.6)).toBe('amber');
    expect(confidenceTone(0.59)).toBe('gray');
  });

  it('shows the score as a whole percent', () => {
    expect(formatConfidence(0.834)).toBe('83%');
    expect(formatConfidence(1)).toBe('100%');
    expect(formatConfidence(1.4)).toBe('100%');
    expect(formatConfidence(-1)).toBe('0%');
  });
});

describe('insightTypeLabel', () => {
  it('turns a type key into words', () => {
    expect(insightTypeLabel('bestPublishingTime')).toBe('Best publishing time');
    expect(insightTypeLabel('best_publishing_time')).toBe('Best publishing time');
    expect(insightTypeLabel('retention-drop-off')).toBe('Retention drop off');
    expect(insightTypeLabel('ctrAboveMedian')).toBe('CTR above median');
    expect(insightTypeLabel('rpmTrend')).toBe('RPM trend');
    expect(insightTypeLabel('')).toBe('Insight');
  });
});

describe('shareOf', () => {
  it('is a percentage of a positive whole', () => {
    expect(shareOf(25, 200)).toBe(12.5);
    expect(shareOf(25, 0)).toBeNull();
    expect(shareOf(null, 10)).toBeNull();
  });
});
