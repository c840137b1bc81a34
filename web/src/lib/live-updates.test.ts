import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { EventTicketResponse } from '#contract/events.ts';
import { ApiError } from './api-client';
import { keysToRefresh, type LiveUpdatesDependencies, NO_ACCESS_RETRY_MS, reconnectDelay, startLiveUpdates } from './live-updates';

/** Enough of an EventSource to replay what the server sends. */
class FakeEventSource {
  listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  emit(name: string, data: unknown = {}) {
    for (const listener of this.listeners.get(name) ?? []) listener({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

function harness(tickets: (() => Promise<EventTicketResponse>)[]) {
  const sources: FakeEventSource[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  let issued = 0;
  const dependencies: LiveUpdatesDependencies = {
    requestTicket: () => tickets[Math.min(issued++, tickets.length - 1)]!(),
    openEventSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source as unknown as EventSource;
    },
    setTimer: (callback, ms) => {
      timers.push({ callback, ms });
      return timers.length as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: () => {},
  };
  const queryClient = new QueryClient();
  const invalidated: unknown[] = [];
  vi.spyOn(queryClient, 'invalidateQueries').mockImplementation(async (filters) => {
    invalidated.push(filters?.queryKey);
  });
  return { sources, timers, dependencies, queryClient, invalidated, ticketsIssued: () => issued };
}

const ticket = (n: number) => async (): Promise<EventTicketResponse> => ({ ticket: `t${n}`, expiresAt: '2026-11-02T10:01:00.000Z', streamUrl: `/api/events/stream?ticket=t${n}` });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('keysToRefresh', () => {
  it('refreshes the sync status while syncs run, and every screen once they are all done or data changed', () => {
    expect(keysToRefresh('sync', { connections: [], finished: 1, total: 3 })).toEqual([['sync'], ['platform-connections']]);
    const everything = [['analytics'], ['youtube'], ['income'], ['platform-connections'], ['sync']];
    expect(keysToRefresh('sync', { connections: [], finished: 3, total: 3 })).toEqual(everything);
    expect(keysToRefresh('analytics-changed', {})).toEqual(everything);
    expect(keysToRefresh('ready', {})).toEqual([]);
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s up to 30 s, with at most 20 % jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 0))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(reconnectDelay(0, () => 0.999)).toBe(1_200);
  });
});

describe('startLiveUpdates', () => {
  it('opens the stream with a fresh ticket, invalidates on events, and reconnects with a new ticket after an error', async () => {
    const h = harness([ticket(1), ticket(2)]);
    const live = startLiveUpdates(h.queryClient, h.dependencies);
    await settle();
    expect(h.sources.map((source) => source.url)).toEqual(['/api/events/stream?ticket=t1']);
    const [first] = h.sources;
    first!.emit('ready');
    first!.emit('sync', { connections: [], finished: 0, total: 2 });
    expect(h.invalidated).toEqual([['sync'], ['platform-connections']]);
    h.invalidated.length = 0;
    first!.emit('analytics-changed');
    expect(h.invalidated).toContainEqual(['analytics']);
    expect(h.invalidated).toContainEqual(['youtube']);

    // The connection drops: closed at once (the spent ticket must not be retried), a new ticket after the backoff.
    first!.onerror!();
    expect(first!.closed).toBe(true);
    expect(h.timers).toHaveLength(1);
    expect(h.timers[0]!.ms).toBeGreaterThanOrEqual(1_000);
    h.timers[0]!.callback();
    await settle();
    expect(h.sources[1]!.url).toBe('/api/events/stream?ticket=t2');
    // Back after a gap: the screens catch up on what they missed.
    h.invalidated.length = 0;
    h.sources[1]!.emit('ready');
    expect(h.invalidated).toContainEqual(['analytics']);

    live.stop();
    expect(h.sources[1]!.closed).toBe(true);
  });

  it('stops for good when the server says the session ended: no new ticket, no timer', async () => {
    const h = harness([ticket(1), ticket(2)]);
    startLiveUpdates(h.queryClient, h.dependencies);
    await settle();
    const [first] = h.sources;
    first!.emit('ready');
    first!.emit('session-ended');
    expect(first!.closed).toBe(true);
    expect(h.timers).toEqual([]);
    expect(h.ticketsIssued()).toBe(1);
  });

  it('waits a minute without premium access, and stops for good on 401', async () => {
    const noAccess = harness([async () => Promise.reject(new ApiError(402, 'An active subscription or trial is required', {}))]);
    startLiveUpdates(noAccess.queryClient, noAccess.dependencies);
    await settle();
    expect(noAccess.sources).toEqual([]);
    expect(noAccess.timers.map((timer) => timer.ms)).toEqual([NO_ACCESS_RETRY_MS]);

    const signedOut = harness([async () => Promise.reject(new ApiError(401, 'Authentication required', {}))]);
    startLiveUpdates(signedOut.queryClient, signedOut.dependencies);
    await settle();
    expect(signedOut.timers).toEqual([]);
    expect(signedOut.ticketsIssued()).toBe(1);
  });
});
