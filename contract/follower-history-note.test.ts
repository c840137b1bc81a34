import { describe, expect, it } from 'vitest';
import { followerHistoryNote } from './analytics.ts';

const day = (value: string) => value;

describe('followerHistoryNote', () => {
  it('says nothing when every history covers the range, or there is one history', () => {
    expect(followerHistoryNote([], '2026-11-01', day)).toBeNull();
    expect(followerHistoryNote([{ platform: 'YouTube', account: null, startDate: '2026-11-01' }, { platform: 'TikTok', account: null, startDate: '2026-11-01' }], '2026-11-01', day)).toBeNull();
    expect(followerHistoryNote([{ platform: 'TikTok', account: '@maya', startDate: '2026-11-09' }], '2026-11-01', day)).toBeNull();
  });

  it('names each history that begins inside the range, earliest first, and the day the total starts', () => {
    const note = followerHistoryNote(
      [
        { platform: 'TikTok', account: '@maya', startDate: '2026-11-10' },
        { platform: 'YouTube', account: null, startDate: '2026-11-01' },
        { platform: 'Instagram', account: '@maya.ig', startDate: '2026-11-03' },
      ],
      '2026-11-01',
      day,
    );
    expect(note).toBe('Follower history begins on 2026-11-03 for Instagram (@maya.ig) and on 2026-11-10 for TikTok (@maya): the total is drawn from 2026-11-10, when every history has begun.');
  });
});
