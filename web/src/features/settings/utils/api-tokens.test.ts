import { describe, expect, it } from 'vitest';
import { describeTokenLastUsed } from './api-tokens';
import { formatSessionTime } from './sessions';

describe('describeTokenLastUsed', () => {
  const now = new Date('2026-11-02T10:00:00Z');
  it('says a token never used is never used', () => {
    expect(describeTokenLastUsed(null, now)).toBe('Never used');
  });
  it('says a use under a minute ago as such (the server writes it at most once a minute), and the time otherwise', () => {
    expect(describeTokenLastUsed('2026-11-02T09:59:30Z', now)).toBe('Within the last minute');
    expect(describeTokenLastUsed('2026-11-01T08:00:00Z', now)).toBe(formatSessionTime('2026-11-01T08:00:00Z'));
  });
  it('answers nothing for an unreadable date', () => {
    expect(describeTokenLastUsed('not a date', now)).toBe('');
  });
});
