// Where a watched sync run stands, read from GET /api/sync/status (Dashboard's Sync Data, YouTube's Sync Latest
// Data). Pure, so the rules are tested on their own.
import type { ConnectionSyncStatus } from '#contract/analytics.ts';

/** Poll the status this often while a sync is queued or running. */
export const SYNC_STATUS_POLL_MS = 1_000;
/**
 * Stop watching this long after a sync was asked for even if it is still queued or running: a platform's rate limit
 * can put a sync off for many minutes, and a forgotten tab must not poll forever. The screen refreshes once more
 * then, and the live updates (web/src/lib/live-updates.ts) refresh it whenever the sync does finish.
 */
export const SYNC_STATUS_POLL_LIMIT_MS = 2 * 60_000;

/** Whether a run started at `startedAt` may still poll at `now`. */
export const mayPoll = (startedAt: number, now: number, limitMs = SYNC_STATUS_POLL_LIMIT_MS) => now - startedAt < limitMs;

/**
 * The connection's sync is under way: running, or queued for its first attempt (a queued retry after a failed
 * attempt, or one waiting out a platform's Retry-After, is not: the row says why it waits instead).
 */
export const syncUnderWay = (status: ConnectionSyncStatus | undefined): boolean =>
  status !== undefined && (status.status === 'running' || (status.status === 'queued' && status.attempts === 0 && !status.message));

export interface SyncFailure {
  connectionId: number;
  platformName: string;
  message: string;
}

/**
 * The watched attempt is over: the sync is idle (stored), failed (stopped until the user acts), or queued again after
 * a failed attempt (it retries later, after its backoff: that is no reason to keep a button spinning).
 */
const attemptFailed = (status: ConnectionSyncStatus) => status.status === 'failed' || (status.status === 'queued' && status.attempts > 0);
// Paused (the subscription ended): nothing runs until the user subscribes again, so nothing is left to wait for.
const attemptOver = (status: ConnectionSyncStatus) => status.status === 'idle' || status.status === 'paused' || attemptFailed(status);

export interface SyncProgress {
  /**
   * Every watched connection's attempt is over: idle, failed, or waiting to retry after a failed attempt (a
   * connection missing from the list counts as done: it is gone).
   */
  done: boolean;
  /** Watched connections whose attempt is over, out of `total` (the ones the status lists). */
  finished: number;
  total: number;
  failures: SyncFailure[];
}

export function syncProgress(statuses: readonly ConnectionSyncStatus[] | undefined, connectionIds: readonly number[]): SyncProgress {
  if (!statuses) return { done: false, finished: 0, total: connectionIds.length, failures: [] };
  const watched = statuses.filter((status) => connectionIds.includes(status.connectionId));
  const finished = watched.filter(attemptOver).length;
  return {
    done: finished === watched.length,
    finished,
    total: watched.length,
    failures: watched
      .filter(attemptFailed)
      .map((status) => ({
        connectionId: status.connectionId,
        platformName: status.platformName,
        message: status.message?.trim() || 'The sync failed.',
      })),
  };
}

/** The Sync Data button while syncing: 'Syncing...', with how many accounts are done once the status is known. */
export function syncingLabel(progress: SyncProgress | undefined): string {
  return progress && progress.total > 1 ? `Syncing... ${progress.finished}/${progress.total}` : 'Syncing...';
}

export type SyncRunState = { kind: 'running' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * One connection's run. `statuses` must have been fetched after the sync was queued. The run is over when the
 * connection is idle, failed or waiting to retry a failed attempt, or gone from the list (disconnected meanwhile).
 */
export function syncRunState(statuses: readonly ConnectionSyncStatus[] | undefined, connectionId: number): SyncRunState {
  const progress = syncProgress(statuses, [connectionId]);
  if (!progress.done) return { kind: 'running' };
  const failure = progress.failures[0];
  return failure ? { kind: 'failed', message: failure.message } : { kind: 'done' };
}
