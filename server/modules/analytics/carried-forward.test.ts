// The follower line's sum over connections (analytics.repository.ts carriedForwardTotals), by hand.
import { describe, expect, it } from 'vitest';
import { carriedForwardTotals } from './analytics.repository.ts';

const row = (connection_id: number, date: string, value: number) => ({ connection_id, date, value });

describe('carriedForwardTotals', () => {
  it('starts on the day every connection has begun and carries a missing day forward', () => {
    const rows = [
      row(1, '2026-11-01', 100),
      row(1, '2026-11-02', 110),
      // Connection 2 begins on the 3rd: the line starts there, not with a jump.
      row(1, '2026-11-03', 120),
      row(2, '2026-11-03', 50),
      // Connection 1 has no figure on the 4th (a lagging report): its 120 counts.
      row(2, '2026-11-04', 55),
      row(1, '2026-11-05', 130),
      row(2, '2026-11-05', 60),
    ];
    expect(carriedForwardTotals(rows)).toEqual([
      { date: '2026-11-03', value: 170 },
      { date: '2026-11-04', value: 175 },
      { date: '2026-11-05', value: 190 },
    ]);
  });

  it('is empty without rows and one connection is its own line', () => {
    expect(carriedForwardTotals([])).toEqual([]);
    expect(carriedForwardTotals([row(7, '2026-01-01', 3), row(7, '2026-01-03', 4)])).toEqual([
      { date: '2026-01-01', value: 3 },
      { date: '2026-01-03', value: 4 },
    ]);
  });
});
