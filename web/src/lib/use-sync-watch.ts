// Watches the syncs a button asked for until they end: polls GET /api/sync/status (sync-status.ts) from the moment
// the syncs were queued, ends when every watched connection is idle or failed, when the status cannot be read, or
// after `limitMs`, and tells the screen once through `onEnd`. Dashboard's Sync Data and YouTube's Sync Latest Data
// both use it; what each refreshes and says is theirs.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { logError } from './log';
import { type SyncProgress, syncProgress } from './sync-progress';
import { syncStatusPollingQueryOptions } from './sync-status';

/** How a watched run ended: every sync finished (or failed), the wait ran out, or the status could not be read. */
export type SyncWatchEnd = 'finished' | 'timedOut' | 'statusUnknown';

export interface SyncWatchRun {
  connectionIds: number[];
  startedAt: number;
  /** null while watching. */
  end: SyncWatchEnd | null;
}

export function useSyncWatch({ limitMs, onEnd }: { limitMs: number; onEnd: (end: SyncWatchEnd, progress: SyncProgress) => void }) {
  const [run, setRun] = useState<SyncWatchRun | null>(null);
  const watching = run !== null && run.end === null;
  const status = useQuery({ ...syncStatusPollingQueryOptions(run?.connectionIds ?? [], run?.startedAt, limitMs), enabled: watching });
  // Only an answer fetched after the syncs were queued says anything about this run.
  const fresh = run && status.dataUpdatedAt >= run.startedAt ? status.data : undefined;
  const progress = syncProgress(fresh, run?.connectionIds ?? []);
  const unreadable = watching && status.isError && status.errorUpdatedAt >= run.startedAt;
  const ended = watching && (progress.done || unreadable);

  const finish = (startedAt: number, end: SyncWatchEnd) => {
    setRun((current) => (current && current.startedAt === startedAt && current.end === null ? { ...current, end } : current));
    onEnd(end, progress);
  };

  useEffect(() => {
    if (!ended || !run) return;
    if (!progress.done) logError('Reading the sync status failed', status.error);
    finish(run.startedAt, progress.done ? 'finished' : 'statusUnknown');
    // Runs once when the run ends; the progress and error are read as they are at that moment.
  }, [ended]);

  // The upper bound: a sync that never reports back must not leave the screen waiting forever.
  const watchedSince = watching ? run.startedAt : null;
  useEffect(() => {
    if (watchedSince === null) return;
    const timer = setTimeout(() => finish(watchedSince, 'timedOut'), limitMs);
    return () => clearTimeout(timer);
    // One timer per run.
  }, [watchedSince]);

  return {
    /** Starts watching these connections' syncs (queued just now). */
    watch: (connectionIds: number[]) => setRun({ connectionIds, startedAt: Date.now(), end: null }),
    run,
    watching,
    progress,
    /** Whether `progress` comes from a status read since the syncs were queued. */
    progressKnown: fresh !== undefined,
  };
}
