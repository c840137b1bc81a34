// The export's windows: at most one slice of records each (a larger day alone), every day of the range in exactly one window.
import { describe, expect, it } from 'vitest';
import { planWindows } from './exports.repository.ts';

const days = (...counts: number[]) => counts.map((count, index) => ({ date: `2026-11-${String(30 - index).padStart(2, '0')}`, count }));

describe('planWindows', () => {
  it('is one window over the whole range when there are no records', () => {
    expect(planWindows([], 100)).toEqual([{ from: undefined, before: undefined }]);
  });

  it('closes a window before the day that would take it past a slice, and leaves the oldest days to the last, open-ended window', () => {
    expect(planWindows(days(60, 50, 30, 80, 10), 100)).toEqual([
      { from: '2026-11-30', before: undefined },
      { from: '2026-11-28', before: '2026-11-30' },
      { from: undefined, before: '2026-11-28' },
    ]);
    // Exactly a slice fits.
    expect(planWindows(days(40, 60, 1), 100)).toEqual([
      { from: '2026-11-29', before: undefined },
      { from: undefined, before: '2026-11-29' },
    ]);
  });

  it('gives a day larger than a slice a window of its own (read in several slices), never splitting a day', () => {
    expect(planWindows(days(5, 250, 5), 100)).toEqual([
      { from: '2026-11-30', before: undefined },
      { from: '2026-11-29', before: '2026-11-30' },
      { from: undefined, before: '2026-11-29' },
    ]);
  });
});
