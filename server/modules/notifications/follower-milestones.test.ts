import { describe, expect, it } from 'vitest';
import { FOLLOWER_MILESTONES, milestoneCrossed, milestoneLabel } from './follower-milestones.ts';

describe('follower milestones', () => {
  it('are 100 and the 1-2-5 steps above it, up to a billion', () => {
    expect(FOLLOWER_MILESTONES.slice(0, 7)).toEqual([100, 200, 500, 1_000, 2_000, 5_000, 10_000]);
    expect(FOLLOWER_MILESTONES.at(-1)).toBe(1_000_000_000);
    expect(FOLLOWER_MILESTONES.map(milestoneLabel).slice(0, 13)).toEqual(['100', '200', '500', '1K', '2K', '5K', '10K', '20K', '50K', '100K', '200K', '500K', '1M']);
  });

  it('answers the highest one passed, counting a milestone reached exactly, and none when going down or staying put', () => {
    expect(milestoneCrossed(999, 1_000)).toBe(1_000);
    expect(milestoneCrossed(180, 1_200)).toBe(1_000);
    expect(milestoneCrossed(1_000, 1_999)).toBeNull();
    expect(milestoneCrossed(2_100, 1_900)).toBeNull();
    expect(milestoneCrossed(50, 99)).toBeNull();
    expect(milestoneCrossed(0, 100)).toBe(100);
  });
});
