// GET /api/sync/status: where each of the user's connections' syncs stands. One call and one cache entry for every
// screen that shows it (Dashboard, YouTube, Platforms).
import { queryOptions } from '@tanstack/react-query';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { api } from './api-client';
import { mayPoll, SYNC_STATUS_POLL_MS, syncProgress } from './sync-progress';

export const syncStatusQueryKey = ['sync', 'status'] as const;

export function getSyncStatus(signal?: AbortSignal): Promise<ConnectionSyncStatus[]> {
  return api.get<ConnectionSyncStatus[]>('/sync/status', { signal });
}

export function syncStatusQueryOptions() {
  return queryOptions({ queryKey: syncStatusQueryKey, queryFn: ({ signal }) => getSyncStatus(signal) });
}

/**
 * Polls every second while any of `connectionIds` is queued or running; stops once all are idle or failed, or when
 * the run started at `startedAt` has polled for `limitMs`. Live updates refetch it at once when a sync moves on
 * (web/src/lib/live-updates.ts); the polling is the fallback when the event stream is down.
 */
export function syncStatusPollingQueryOptions(connectionIds: readonly number[], startedAt = Date.now(), limitMs?: number) {
  return queryOptions({
    ...syncStatusQueryOptions(),
    staleTime: 0,
    refetchInterval: (query) => (syncProgress(query.state.data, connectionIds).done || !mayPoll(startedAt, Date.now(), limitMs) ? false : SYNC_STATUS_POLL_MS),
  });
}
