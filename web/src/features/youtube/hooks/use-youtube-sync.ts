// Sync Latest Data: queue the YouTube sync, watch it (web/src/lib/use-sync-watch.ts) until it has finished (at most
// SYNC_WAIT_LIMIT_MS), then refetch every YouTube query. A live sync event may refresh the page sooner; both only
// invalidate, so nothing is fetched twice at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { logError } from '../../../lib/log';
import { platformConnectionsQueryKey } from '../../../lib/platform-connections';
import { useSyncWatch } from '../../../lib/use-sync-watch';
import { syncYoutubeMutationOptions } from '../api/sync-youtube';
import { YOUTUBE_QUERY_ROOT } from '../api/youtube-query-keys';

/** Stop waiting for a sync after this long; the page then refreshes with whatever has arrived. */
export const SYNC_WAIT_LIMIT_MS = 3 * 60_000;

export type SyncMessageTone = 'muted' | 'success' | 'warning';

export interface YoutubeSync {
  start: () => void;
  busy: boolean;
  message: string;
  tone: SyncMessageTone;
}

export function useYoutubeSync(days: number): YoutubeSync {
  const queryClient = useQueryClient();
  const watch = useSyncWatch({
    limitMs: SYNC_WAIT_LIMIT_MS,
    onEnd: (end, progress) => {
      if (end === 'finished' && progress.failures[0]) logError('The YouTube sync failed', progress.failures[0].message);
      void queryClient.invalidateQueries({ queryKey: YOUTUBE_QUERY_ROOT });
      // The channel's subscriber count on the dashboard and platforms screens changes with a sync too.
      void queryClient.invalidateQueries({ queryKey: platformConnectionsQueryKey });
    },
  });
  const mutation = useMutation({
    ...syncYoutubeMutationOptions(),
    onSuccess: (job) => watch.watch([job.connectionId]),
    onError: (error) => logError('Starting the YouTube sync failed', error),
  });

  const busy = mutation.isPending || watch.watching;
  const failure = watch.progress.failures[0];
  let message = '';
  let tone: SyncMessageTone = 'muted';
  if (busy) message = 'Syncing your YouTube channel. The page updates when the sync finishes.';
  else if (mutation.isError) {
    const reason = mutation.error instanceof ApiError && mutation.error.status < 500 ? ` ${mutation.error.message}` : ' Try again in a moment.';
    message = `Couldn't start a sync.${reason}`;
    tone = 'warning';
  } else if (watch.run?.end === 'finished' && failure) {
    message = `The sync failed: ${failure.message}`;
    tone = 'warning';
  } else if (watch.run?.end === 'finished') {
    message = 'Sync finished. Your YouTube analytics are up to date.';
    tone = 'success';
  } else if (watch.run?.end === 'timedOut') {
    message = 'The sync is taking longer than usual. The numbers update when it finishes.';
  } else if (watch.run?.end === 'statusUnknown') {
    message = "Sync started, but we couldn't check on it. The numbers update when it finishes.";
  }

  return { start: () => mutation.mutate(days), busy, message, tone };
}
