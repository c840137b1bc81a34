// Readiness's wait for the database (issue 26): a stalled event loop is not a database that does not answer.
import { describe, expect, it } from 'vitest';
import { answeredWithin } from './client.ts';
import { createTestDatabase } from '../test/databases.ts';

/** Blocks the event loop, as a start-up's first synchronous work does. */
function stallLoop(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else in this process runs
  }
}

describe('answeredWithin', () => {
  it('answers true when the answer arrives during a stall longer than the timeout (the CI race of issue 26)', async () => {
    // The answer is ready at 50 ms, but the loop is blocked from 10 ms to 1,510 ms: a wall-clock timer of 1 s and the
    // answer both wait for the loop, and the timer would run first.
    const answer = new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50));
    setTimeout(() => stallLoop(1_500), 10);
    expect(await answeredWithin(answer, 1_000)).toBe(true);
  });

  it('answers false once a check that never answers has had the timeout', async () => {
    const started = performance.now();
    expect(await answeredWithin(new Promise<boolean>(() => {}), 200)).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('answers false for a check that fails, at once', async () => {
    expect(await answeredWithin(Promise.reject(new Error('connection refused')), 60_000)).toBe(false);
  });

  it('counts a stall as one tick, so a check that never answers still ends', async () => {
    setTimeout(() => stallLoop(500), 10);
    expect(await answeredWithin(new Promise<boolean>(() => {}), 150)).toBe(false);
  });
});

describe('readiness on the test database', () => {
  it('answers true on a migrated database, also while the process is blocked past the timeout', async () => {
    const database = await createTestDatabase();
    try {
      const ready = database.handle.isReady();
      stallLoop(1_200);
      expect(await ready).toBe(true);
    } finally {
      await database.drop();
    }
  });
});
