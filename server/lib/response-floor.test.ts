// The floor on its own, with a timer the test moves: no real waiting.
import { describe, expect, it } from 'vitest';
import { createResponseFloor, type FloorTimer } from './response-floor.ts';

function fakeTimer() {
  let now = 1_000;
  const waits: number[] = [];
  const timer: FloorTimer = {
    now: () => now,
    wait: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
  return { timer, waits, spend: (ms: number) => (now += ms), elapsedSince: (start: number) => now - start };
}

describe('createResponseFloor', () => {
  it('checklist 4: tops a quick answer up to the configured floor', async () => {
    const clock = fakeTimer();
    const floor = createResponseFloor(500, clock.timer);
    const answer = await floor(async () => {
      clock.spend(120);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(clock.waits).toEqual([380]);
    expect(clock.elapsedSince(1_000)).toBe(500);
  });

  it('checklist 4: adds nothing to work that already took longer than the floor', async () => {
    const clock = fakeTimer();
    const floor = createResponseFloor(500, clock.timer);
    await floor(async () => clock.spend(650));
    expect(clock.waits).toEqual([]);
  });

  it('checklist 4: holds a failure back as long as a success', async () => {
    const clock = fakeTimer();
    const floor = createResponseFloor(500, clock.timer);
    await expect(
      floor(async () => {
        clock.spend(10);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(clock.waits).toEqual([490]);
  });

  it('waits for nothing when configured to 0', async () => {
    const clock = fakeTimer();
    await createResponseFloor(0, clock.timer)(async () => 'x');
    expect(clock.waits).toEqual([]);
  });
});
