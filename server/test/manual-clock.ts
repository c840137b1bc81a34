// A clock that only moves when told to, so tests of expiry, trials, schedules and rate limits never sleep.
import type { Clock } from '../lib/clock.ts';

export function createManualClock(start: Date = new Date()): Clock & { advance(ms: number): void; set(date: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}
