import { vi } from 'vitest';

/**
 * Waits until `check` passes, on real timers even while a test fakes them (Testing Library's waitFor would wait on
 * the faked ones). Ten seconds before it fails, as for findBy… (web/src/test/setup.ts): a condition, not a time.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}
