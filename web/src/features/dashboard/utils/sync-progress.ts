// Where a Sync Data run stands, read from GET /api/sync/status. Pure, so the polling rule is tested on its own.
import type { ConnectionSyncStatus } from '../../../../../contract/analytics';

/** Poll the status this often while a sync is queued or running. */
export const SYNC_STATUS_POLL_MS = 1_000;

export interface SyncFailure {
  connectionId: number;
  platformName: string;
  message: string;
}

export interface SyncProgress {
  /** Every watched connection is idle or failed (a connection missing from the list counts as done: it is gone). */
  done: boolean;
  failures: SyncFailure[];
}

export function syncProgress(statuses: readonly ConnectionSyncStatus[] | undefined, connectionIds: readonly number[]): SyncProgress {
  if (!statuses) return { done: false, failures: [] };
  const watched = statuses.filter((status) => connectionIds.includes(status.connectionId));
  return {
    done: watched.every((status) => status.status === 'idle' || status.status === 'failed'),
    failures: watched
      .filter((status) => status.status === 'failed')
      .map((status) => ({
        connectionId: status.connectionId,
        platformName: status.platformName,
        message: status.message?.trim() || 'The sync failed.',
      })),
  };
}
