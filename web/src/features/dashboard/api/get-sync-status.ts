// GET /api/sync/status → where each connection's sync stands; the dashboard polls it after Sync Data.
import { queryOptions } from '@tanstack/react-query';
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';
import { api } from '../../../lib/api-client';
import { mayPoll, SYNC_STATUS_POLL_MS, syncProgress } from '../utils/sync-progress';

export function getSyncStatus(signal?: AbortSignal): Promise<ConnectionSyncStatus[]> {
  return api.get<ConnectionSyncStatus[]>('/sync/status', { signal });
}

/**
 * Polls every second while any of `connectionIds` is queued or running; stops once all are idle or failed, or when
 * the run started at `startedAt` has polled for SYNC_STATUS_POLL_LIMIT_MS. Live updates refetch it at once when a
 * sync moves on (web/src/lib/live-updates.ts); the polling is the fallback when the event stream is down.
 */
export function syncStatusPollingQueryOptions(connectionIds: readonly number[], startedAt = Date.now()) {
  return queryOptions({
    queryKey: ['sync', 'status'],
    queryFn: ({ signal }) => getSyncStatus(signal),
    staleTime: 0,
    refetchInterval: (query) => (syncProgress(query.state.data, connectionIds).done || !mayPoll(startedAt, Date.now()) ? false : SYNC_STATUS_POLL_MS),
  });
}
