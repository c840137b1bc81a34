// Sync Latest Data: queue the YouTube sync, watch GET /api/sync/status until it has finished (at most
// SYNC_WAIT_LIMIT_MS), then refetch every YouTube query. A live sync event may refresh the page sooner; both only
// invalidate, so nothing is fetched twice at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { logError } from '../../../lib/log';
import { platformConnectionsQueryKey } from '../../../lib/platform-connections';
import { youtubeSyncStatusQueryOptions } from '../api/get-sync-status';
import { syncYoutubeMutationOptions } from '../api/sync-youtube';
import { YOUTUBE_QUERY_ROOT } from '../api/youtube-query-keys';
import { SYNC_WAIT_LIMIT_MS, syncRunState } from '../utils/sync-run';

type SyncResult = { kind: 'done' } | { kind: 'failed'; message: string } | { kind: 'timedOut' } | { kind: 'statusUnknown' };

interface SyncRun {
  connectionId: number;
  startedAt: number;
  /** null while the sync runs. */
  result: SyncResult | null;
}

export type SyncMessageTone = 'muted' | 'success' | 'warning';

export interface YoutubeSync {
  start: () => void;
  busy: boolean;
  message: string;
  tone: SyncMessageTone;
}

export function useYoutubeSync(days: number): YoutubeSync {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<SyncRun | null>(null);
  const mutation = useMutation({
    ...syncYoutubeMutationOptions(),
    onSuccess: (job) => setRun({ connectionId: job.connectionId, startedAt: Date.now(), result: null }),
    onError: (error) => logError('Starting the YouTube sync failed', error),
  });
  const watching = run !== null && run.result === null;
  const status = useQuery({ ...youtubeSyncStatusQueryOptions(), enabled: watching });
  // Only an answer fetched after the sync was queued says anything about this run.
  const fresh = run && status.dataUpdatedAt >= run.startedAt ? status.data : undefined;
  const state = run ? syncRunState(fresh, run.connectionId) : null;
  const ended = watching && (state?.kind !== 'running' || (status.isError && status.errorUpdatedAt >= run.startedAt));

  function refreshYoutubeData() {
    void queryClient.invalidateQueries({ queryKey: YOUTUBE_QUERY_ROOT });
    // The channel's subscriber count on the dashboard and platforms screens changes with a sync too.
    void queryClient.invalidateQueries({ queryKey: platformConnectionsQueryKey });
  }

  useEffect(() => {
    if (!ended || !state) return;
    let result: SyncResult;
    if (state.kind === 'running') {
      logError('Reading the sync status failed', status.error);
      result = { kind: 'statusUnknown' };
    } else {
      if (state.kind === 'failed') logError('The YouTube sync failed', state.message);
      result = state;
    }
    setRun((current) => (current && current.result === null ? { ...current, result } : current));
    refreshYoutubeData();
    // Runs once when the run ends; the state is read as it is at that moment.
  }, [ended]);

  // The upper bound: a sync that never reports back must not leave the button busy forever.
  useEffect(() => {
    if (!watching) return;
    const timer = setTimeout(() => {
      setRun((current) => (current && current.result === null ? { ...current, result: { kind: 'timedOut' } } : current));
      refreshYoutubeData();
    }, SYNC_WAIT_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [watching, run?.startedAt]);

  const busy = mutation.isPending || watching;
  let message = '';
  let tone: SyncMessageTone = 'muted';
  if (busy) message = 'Syncing your YouTube channel. The page updates when the sync finishes.';
  else if (mutation.isError) {
    const reason = mutation.error instanceof ApiError && mutation.error.status < 500 ? ` ${mutation.error.message}` : ' Try again in a moment.';
    message = `Couldn't start a sync.${reason}`;
    tone = 'warning';
  } else if (run?.result) {
    switch (run.result.kind) {
      case 'done':
        message = 'Sync finished. Your YouTube analytics are up to date.';
        tone = 'success';
        break;
      case 'failed':
        message = `The sync failed: ${run.result.message}`;
        tone = 'warning';
        break;
      case 'timedOut':
        message = 'The sync is taking longer than usual. The numbers update when it finishes.';
        break;
      case 'statusUnknown':
        message = "Sync started, but we couldn't check on it. The numbers update when it finishes.";
        break;
    }
  }

  return { start: () => mutation.mutate(days), busy, message, tone };
}
