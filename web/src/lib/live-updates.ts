// Live updates: one server-sent-events stream per tab (mounted once, in the shell). The server says when a sync
// moves on or when new numbers are stored; the open screens refetch what they show through TanStack Query. An
// EventSource cannot send the Authorization header, so each connection starts with a single-use ticket from a
// bearer-authenticated call. The spec's 2-second reload after Sync Data stays as the fallback.
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type EventTicketResponse, LIVE_EVENTS, type SyncEventData } from '#contract/events.ts';
import { ApiError, api } from './api-client';
import { platformConnectionsQueryKey } from './platform-connections';

/** Query keys by prefix; the YouTube screens keep every key under ['youtube'], the analytics ones under ['analytics']. */
const SYNC_KEYS: readonly QueryKey[] = [['sync'], platformConnectionsQueryKey];
const DATA_KEYS: readonly QueryKey[] = [['analytics'], ['youtube'], ['income'], platformConnectionsQueryKey, ['sync']];

/** Waits before reconnecting: 1 s doubling to 30 s, with up to 20 % jitter so tabs do not return in lockstep. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (1 + 0.2 * random()));
}
/** Without premium access there is no stream; look again this much later (after a checkout, say). */
export const NO_ACCESS_RETRY_MS = 60_000;

/** What an event invalidates. Pure, for the tests. */
export function keysToRefresh(event: string, data: unknown): readonly QueryKey[] {
  if (event === LIVE_EVENTS.analyticsChanged) return DATA_KEYS;
  if (event === LIVE_EVENTS.sync) {
    const progress = data as Partial<SyncEventData> | undefined;
    // Every sync finished (some may have failed, which changes no numbers): the screens show their outcome.
    return progress && progress.total !== undefined && progress.finished === progress.total ? DATA_KEYS : SYNC_KEYS;
  }
  return [];
}

function refresh(queryClient: QueryClient, keys: readonly QueryKey[]) {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

export interface LiveUpdatesDependencies {
  requestTicket: () => Promise<EventTicketResponse>;
  openEventSource: (url: string) => EventSource;
  setTimer: (callback: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimer: (timer: ReturnType<typeof setTimeout>) => void;
}

const browserDependencies: LiveUpdatesDependencies = {
  // A 402 is not a reason to leave the page here (the shell also frames /billing).
  requestTicket: () => api.post<EventTicketResponse>('/events/ticket', undefined, { redirectOnPaymentRequired: false }),
  openEventSource: (url) => new EventSource(url),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer),
};

/** Connects, reconnects with backoff, and turns events into query invalidations until `stop()`. */
export function startLiveUpdates(queryClient: QueryClient, dependencies: LiveUpdatesDependencies = browserDependencies): { stop: () => void } {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let connectedBefore = false;
  let stopped = false;

  function retryIn(ms: number) {
    if (stopped) return;
    timer = dependencies.setTimer(() => void connect(), ms);
  }

  async function connect() {
    timer = undefined;
    let ticket: EventTicketResponse;
    try {
      ticket = await dependencies.requestTicket();
    } catch (error) {
      // A 401 has already ended the session (api-client); without access there is nothing to stream yet.
      if (error instanceof ApiError && error.status === 401) return;
      retryIn(error instanceof ApiError && error.status === 402 ? NO_ACCESS_RETRY_MS : reconnectDelay(attempt++));
      return;
    }
    if (stopped) return;
    const opened = dependencies.openEventSource(ticket.streamUrl);
    source = opened;
    opened.addEventListener(LIVE_EVENTS.ready, () => {
      attempt = 0;
      // Events sent while this tab was away are lost: catch up once.
      if (connectedBefore) refresh(queryClient, DATA_KEYS);
      connectedBefore = true;
    });
    for (const event of [LIVE_EVENTS.sync, LIVE_EVENTS.analyticsChanged]) {
      opened.addEventListener(event, (message) => {
        let data: unknown;
        try {
          data = JSON.parse((message as MessageEvent<string>).data);
        } catch {
          data = undefined;
        }
        refresh(queryClient, keysToRefresh(event, data));
      });
    }
    // The session is over (signed out, revoked elsewhere, the account deleted): nothing to come back to. The tab's
    // next call answers 401 if this was not its own doing, and that signs it out.
    opened.addEventListener(LIVE_EVENTS.sessionEnded, () => {
      opened.close();
      if (source === opened) source = undefined;
      stopped = true;
    });
    // The browser's own reconnection would reuse the spent ticket: close, and come back with a new one.
    opened.onerror = () => {
      opened.close();
      if (source === opened) source = undefined;
      retryIn(reconnectDelay(attempt++));
    };
  }

  void connect();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) dependencies.clearTimer(timer);
      source?.close();
    },
  };
}

/** Keeps this tab's stream open while mounted (the shell mounts it once for signed-in users with access). */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const live = startLiveUpdates(queryClient);
    return () => live.stop();
  }, [enabled, queryClient]);
}
