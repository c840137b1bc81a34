import { describe, expect, it } from 'vitest';
import { followerLabel, formatFollowerCount } from './follower-count';

describe('followerLabel', () => {
  it('counts subscribers on YouTube, patrons on Patreon and followers elsewhere', () => {
    expect(followerLabel('YouTube')).toBe('subscribers');
    expect(followerLabel('Patreon')).toBe('patrons');
    for (const name of ['Instagram', 'TikTok', 'Twitter', 'LinkedIn', 'Something new']) {
      expect(followerLabel(name)).toBe('followers');
    }
  });

  it('ignores case and surrounding spaces', () => {
    expect(followerLabel('youtube')).toBe('subscribers');
    expect(followerLabel(' PATREON ')).toBe('patrons');
  });
});

describe('formatFollowerCount', () => {
  it('writes the count compactly with the platform label', () => {
    expect(formatFollowerCount(12_345, 'YouTube')).toBe('12.3K subscribers');
    expect(formatFollowerCount(87, 'Patreon')).toBe('87 patrons');
    expect(formatFollowerCount(2_500_000, 'TikTok')).toBe('2.5M followers');
    expect(formatFollowerCount(0, 'Twitter')).toBe('0 followers');
  });

  it('says so when the platform does not share the count', () => {
    expect(formatFollowerCount(null, 'YouTube')).toBe('Subscribers not available');
    expect(formatFollowerCount(undefined, 'Instagram')).toBe('Followers not available');
    expect(formatFollowerCount(Number.NaN, 'Patreon')).toBe('Patrons not available');
  });
});
