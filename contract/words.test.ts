import { describe, expect, it } from 'vitest';
import { dayInWords, wordList } from './words.ts';

describe('words', () => {
  it('lists items as a sentence does', () => {
    expect([wordList([]), wordList(['a']), wordList(['a', 'b']), wordList(['a', 'b', 'c'])]).toEqual(['', 'a', 'a and b', 'a, b and c']);
  });

  it('writes a calendar day as the screens do, in no zone (issue 25: a note read "history begins on 2026-10-30")', () => {
    expect(dayInWords('2026-10-30')).toBe('Oct 30, 2026');
    expect(dayInWords('2027-01-01')).toBe('Jan 1, 2027');
    expect(dayInWords('not a day')).toBe('not a day');
  });
});
