// The retry backoff of a failed sync: doubling steps, capped, with equal jitter (between half and all of the step).
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, backoffStepMs } from './sync-backoff.ts';

const MINUTE = 60_000;
const policy = { baseMs: 5 * MINUTE, capMs: 6 * 60 * MINUTE };

describe('sync backoff', () => {
  it('doubles from the base step and stops growing at the cap', () => {
    const steps = Array.from({ length: 10 }, (_, index) => backoffStepMs(index + 1, policy) / MINUTE);
    expect(steps).toEqual([5, 10, 20, 40, 80, 160, 320, 360, 360, 360]);
    // Far past the cap the arithmetic stays finite.
    expect(backoffStepMs(10_000, policy)).toBe(policy.capMs);
  });

  it('waits between half and all of the step: the ends of the jitter, and a thousand draws in between', () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(10 * MINUTE);
    expect(backoffDelayMs(3, policy, () => 0.999_999)).toBeLessThanOrEqual(20 * MINUTE);
    expect(backoffDelayMs(3, policy, () => 0.999_999)).toBeGreaterThan(19.99 * MINUTE);
    for (let draw = 0; draw < 1000; draw += 1) {
      const attempt = 1 + (draw % 12);
      const step = backoffStepMs(attempt, policy);
      const delay = backoffDelayMs(attempt, policy);
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    }
  });
});
