import { describe, expect, it } from 'vitest';
import { freshnessSentence, timeAgo } from './freshness';

const now = new Date('2026-11-22T10:00:00Z');

describe('freshness in words', () => {
  it('says how long ago, in words', () => {
    expect(timeAgo('2026-11-22T09:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-11-22T10:00:30Z', now)).toBe('just now');
    expect(timeAgo('2026-11-22T09:55:00Z', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-11-22T08:00:00Z', now)).toBe('2 hours ago');
    expect(timeAgo('2026-11-21T08:00:00Z', now)).toBe('yesterday');
    expect(timeAgo('2026-11-18T10:00:00Z', now)).toBe('4 days ago');
  });

  it('says the last complete day and the last sync of a platform', () => {
    expect(freshnessSentence({ platform: 'YouTube', syncedAt: '2026-11-22T08:00:00Z', completeThrough: '2026-11-21' }, now, 'YouTube revenue')).toBe(
      'YouTube revenue complete through Nov 21, 2026 · synced 2 hours ago',
    );
    expect(freshnessSentence({ platform: 'TikTok', syncedAt: null, completeThrough: null }, now)).toBe('TikTok: no figures yet · not synced yet');
  });
});
