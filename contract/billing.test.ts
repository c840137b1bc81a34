import { describe, expect, it } from 'vitest';
import { hasValidAccess } from './billing.ts';

const now = new Date('2026-11-25T12:00:00Z');
const inTrial = '2026-11-28T12:00:00.000Z';
const trialOver = '2026-11-20T12:00:00.000Z';

describe('hasValidAccess (checklist 18: the 402 gate policy)', () => {
  it.each([
    ['trialing', inTrial, null, true],
    ['active', null, null, true],
    ['past_due', trialOver, '2026-11-27T00:00:00.000Z', true],
    ['past_due', trialOver, '2026-11-24T00:00:00.000Z', false],
    ['unpaid', trialOver, null, false],
    ['paused', trialOver, null, false],
    ['none', null, null, false],
    // Canceled during the trial, or never paid: the trial end still ahead grants nothing.
    ['canceled', inTrial, null, false],
    ['incomplete_expired', inTrial, null, false],
    ['canceled', trialOver, null, false],
  ] as const)('%s with trial end %s and grace %s: %s', (status, trialEnd, graceUntil, expected) => {
    expect(hasValidAccess({ status, trialEnd, graceUntil }, now)).toBe(expected);
  });
});
