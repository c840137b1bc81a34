import { describe, expect, it } from 'vitest';
import { comparisonNote } from './comparison-note.ts';

const day = (isoDay: string) => `<${isoDay}>`;
const onScreen = { against: 'the previous 30 days', day };

describe('comparisonNote', () => {
  it('says nothing when every figure is compared over the whole periods', () => {
    expect(comparisonNote({ leftOut: [], shortened: [] }, onScreen)).toBeNull();
  });

  it('names a connection left out whole, or only the figures it cannot compare', () => {
    expect(comparisonNote({ leftOut: [{ platform: 'TikTok', account: '@maya', figures: null }], shortened: [] }, onScreen)).toBe(
      'Changes leave out TikTok (@maya), which has no figures for the previous 30 days to compare with.',
    );
    expect(comparisonNote({ leftOut: [{ platform: 'Instagram', account: 'Ivy Chen', figures: ['followers'] }], shortened: [] }, onScreen)).toBe(
      "Changes leave out Instagram (Ivy Chen)'s followers, which have no figures for the previous 30 days to compare with.",
    );
    expect(comparisonNote({ leftOut: [{ platform: 'Patreon', account: null, figures: ['revenue'] }], shortened: [] }, onScreen)).toBe(
      "Changes leave out Patreon's revenue, which has no figures for the previous 30 days to compare with.",
    );
    expect(
      comparisonNote(
        {
          leftOut: [
            { platform: 'TikTok', account: null, figures: null },
            { platform: 'X', account: null, figures: ['views', 'engagement'] },
          ],
          shortened: [],
        },
        { against: null, day },
      ),
    ).toBe("Changes leave out TikTok and X's views and engagement rate: no day with figures in both periods yet.");
  });

  it('says where a history begins and over how many days its figures are compared', () => {
    expect(comparisonNote({ leftOut: [], shortened: [{ platform: 'Instagram', account: null, historyStart: '2026-10-29', days: 1, figures: null }] }, onScreen)).toBe(
      'Instagram: history begins <2026-10-29>, so its change compares the day both periods hold.',
    );
    expect(
      comparisonNote({ leftOut: [], shortened: [{ platform: 'Instagram', account: 'Ivy Chen', historyStart: '2026-10-29', days: 12, figures: ['followers'] }] }, onScreen),
    ).toBe('Instagram (Ivy Chen): follower history begins <2026-10-29>, so that change compares the 12 days both periods hold.');
    expect(
      comparisonNote({ leftOut: [], shortened: [{ platform: 'X', account: null, historyStart: '2026-10-01', days: 3, figures: ['views', 'engagement'] }] }, onScreen),
    ).toBe('X: view and engagement history begins <2026-10-01>, so those changes compare the 3 days both periods hold.');
  });
});
