// GET /api/sync/status: polled after Sync Latest Data until the YouTube connection's sync has finished.
import { queryOptions } from '@tanstack/react-query';
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

/** Poll this often while the sync runs. */
export const SYNC_STATUS_POLL_MS = 1_500;

export function getSyncStatus(signal?: AbortSignal): Promise<ConnectionSyncStatus[]> {
  return api.get<ConnectionSyncStatus[]>('/sync/status', { signal });
}

/** Enable it only while a run is being watched: it polls for as long as it is enabled. */
export function youtubeSyncStatusQueryOptions() {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'sync-status'],
    queryFn: ({ signal }) => getSyncStatus(signal),
    staleTime: 0,
    refetchInterval: SYNC_STATUS_POLL_MS,
  });
}
