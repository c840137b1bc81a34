// How long a failed sync waits before its next attempt: exponential backoff with "equal jitter" (half the step fixed,
// half random), capped. The attempt count lives in sync_states, so the wait keeps growing across jobs, scheduler
// ticks and restarts, and resets only on a success or when the user acts.

export interface BackoffPolicy {
  /** The first retry's step (the wait is between half of it and all of it). */
  baseMs: number;
  /** No step is longer than this. */
  capMs: number;
}

/** The step after the `attempt`-th failure (1-based): base·2^(attempt−1), capped. */
export function backoffStepMs(attempt: number, { baseMs, capMs }: BackoffPolicy): number {
  // 2^40 already passes any cap; the bound keeps the arithmetic finite.
  return Math.min(capMs, baseMs * 2 ** Math.min(40, Math.max(0, attempt - 1)));
}

/** The wait after the `attempt`-th failure: between half of its step and all of it. `random` is in [0, 1). */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = backoffStepMs(attempt, policy);
  return Math.round(step / 2 + (step / 2) * random());
}
