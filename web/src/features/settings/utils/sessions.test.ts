import { describe, expect, it } from 'vitest';
import { describeLastActive, formatSessionTime } from './sessions';

describe('session times', () => {
  it('formats a time with the date', () => {
    const local = new Date(2026, 10, 2, 10, 5);
    expect(formatSessionTime(local.toISOString())).toBe('Nov 2, 2026, 10:05 AM');
    expect(formatSessionTime('not a date')).toBe('');
  });

  it('says "Within the last hour" for a use the server may not have written down yet', () => {
    const now = new Date(2026, 10, 2, 12, 0);
    expect(describeLastActive(new Date(2026, 10, 2, 11, 1).toISOString(), now)).toBe('Within the last hour');
    expect(describeLastActive(new Date(2026, 10, 2, 10, 59).toISOString(), now)).toBe('Nov 2, 2026, 10:59 AM');
  });
});
