// GET /api/sync/status → where each connection's sync stands; the dashboard polls it after Sync Data.
import { queryOptions } from '@tanstack/react-query';
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';
import { api } from '../../../lib/api-client';
import { SYNC_STATUS_POLL_MS, syncProgress } from '../utils/sync-progress';

export function getSyncStatus(signal?: AbortSignal): Promise<ConnectionSyncStatus[]> {
  return api.get<ConnectionSyncStatus[]>('/sync/status', { signal });
}

/** Polls every second while any of `connectionIds` is queued or running; stops once all are idle or failed. */
export function syncStatusPollingQueryOptions(connectionIds: readonly number[]) {
  return queryOptions({
    queryKey: ['sync', 'status'],
    queryFn: ({ signal }) => getSyncStatus(signal),
    staleTime: 0,
    refetchInterval: (query) => (syncProgress(query.state.data, connectionIds).done ? false : SYNC_STATUS_POLL_MS),
  });
}
