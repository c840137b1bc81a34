// The follower counts every platform's metrics share: whole, consistent with the daily changes the reports give,
// near the growth curve, and swinging from month to month as a real account's do (a smooth curve's differences were
// forecastable to a follower, so a forecast's track record measured the sandbox).
import { describe, expect, it } from 'vitest';
import { PERSONAS } from './demo-accounts.ts';
import { ANCHOR_DAY, CONTENT_END_DAY, CONTENT_START_DAY, followerCountAt, grownCount, netFollowers } from './metrics-data.ts';

const [large, medium, small] = PERSONAS;
const accounts = [
  { persona: large!, anchor: 150_000, growth: 0.45 },
  { persona: medium!, anchor: 20_000, growth: 0.6 },
  { persona: small!, anchor: 1_000, growth: 1.2 },
];

describe('follower counts', () => {
  it('are the anchor count on the anchor day, and each day the count of the day before plus its net change', () => {
    for (const { persona, anchor, growth } of accounts) {
      expect(followerCountAt('youtube', persona, anchor, growth, ANCHOR_DAY)).toBe(anchor);
      for (let day = CONTENT_START_DAY; day < CONTENT_END_DAY; day += 1) {
        const change = netFollowers('youtube', persona, anchor, growth, day);
        const next = followerCountAt('youtube', persona, anchor, growth, day + 1);
        expect(next - followerCountAt('youtube', persona, anchor, growth, day)).toBe(change.net);
        expect(Number.isInteger(next)).toBe(true);
        expect(change.lost).toBeGreaterThanOrEqual(0);
        expect(change.gained).toBeGreaterThanOrEqual(0);
        expect(change.gained - change.lost).toBe(change.net);
      }
    }
  });

  it('stay near the growth curve over four years, and swing around it from month to month', () => {
    for (const { persona, anchor, growth } of accounts) {
      const count = (day: number) => followerCountAt('youtube', persona, anchor, growth, day);
      let largestGap = 0;
      for (let day = CONTENT_START_DAY; day <= CONTENT_END_DAY; day += 1) largestGap = Math.max(largestGap, Math.abs(count(day) / grownCount(anchor, growth, day) - 1));
      expect(largestGap, persona.key).toBeLessThan(0.1);
      // Thirty-day changes relative to the curve's: spread by about a fifth (the curve's own differences: none).
      const relative: number[] = [];
      for (let day = CONTENT_START_DAY; day + 30 <= CONTENT_END_DAY; day += 30) {
        relative.push((count(day + 30) - count(day)) / (grownCount(anchor, growth, day + 30) - grownCount(anchor, growth, day)));
      }
      const mean = relative.reduce((sum, value) => sum + value, 0) / relative.length;
      const spread = Math.sqrt(relative.reduce((sum, value) => sum + (value - mean) ** 2, 0) / relative.length);
      expect(mean, persona.key).toBeCloseTo(1, 1);
      expect(spread, persona.key).toBeGreaterThan(0.1);
      expect(spread, persona.key).toBeLessThan(0.4);
    }
  });

  it('are the same on every call and differ between platforms of the same persona', () => {
    const { persona, anchor, growth } = accounts[0]!;
    const days = Array.from({ length: 60 }, (_, i) => ANCHOR_DAY - 400 + i);
    const youtube = days.map((day) => netFollowers('youtube', persona, anchor, growth, day).net);
    expect(days.map((day) => netFollowers('youtube', persona, anchor, growth, day).net)).toEqual(youtube);
    expect(days.map((day) => netFollowers('instagram', persona, anchor, growth, day).net)).not.toEqual(youtube);
  });
});
