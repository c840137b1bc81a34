// Where a Sync Latest Data run stands, read from GET /api/sync/status. Pure, so the polling rule is tested alone.
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';

/** Stop waiting for a sync after this long; the page then refreshes with whatever has arrived. */
export const SYNC_WAIT_LIMIT_MS = 3 * 60_000;

export type SyncRunState = { kind: 'running' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * `statuses` must have been fetched after the sync was queued. The run is over when the connection is idle or
 * failed, or gone from the list (disconnected meanwhile).
 */
export function syncRunState(statuses: readonly ConnectionSyncStatus[] | undefined, connectionId: number): SyncRunState {
  if (!statuses) return { kind: 'running' };
  const entry = statuses.find((status) => status.connectionId === connectionId);
  if (!entry || entry.status === 'idle') return { kind: 'done' };
  if (entry.status === 'failed') return { kind: 'failed', message: entry.message?.trim() || 'The sync failed.' };
  return { kind: 'running' };
}
