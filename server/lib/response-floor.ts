// A fixed minimum response time for the calls whose duration would otherwise say whether an account exists:
// sign-up (a new address hashes, inserts and queues mail; a known one only hashes) and resend confirmation (an
// unconfirmed address writes a token; the others do nothing). Whatever the path, the answer leaves no sooner than
// the floor, so timing tells no more than the body (docs/decisions/012-sign-up-enumeration-and-sessions.md).

/** Where the floor reads elapsed time and waits: the real monotonic timer, or a test's own. */
export interface FloorTimer {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  wait(ms: number): Promise<void>;
}

export const realFloorTimer: FloorTimer = {
  now: () => performance.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export type ResponseFloor = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs `work` and answers (or throws) no sooner than `minimumMs` after it started; 0 turns the floor off. */
export function createResponseFloor(minimumMs: number, timer: FloorTimer = realFloorTimer): ResponseFloor {
  return async (work) => {
    const started = timer.now();
    try {
      return await work();
    } finally {
      // A refusal (a rate limit, a race lost) waits too: only the body may differ, never the time.
      const remaining = minimumMs - (timer.now() - started);
      if (remaining > 0) await timer.wait(remaining);
    }
  };
}
