// POST /api/youtubeanalytics/sync?days= → 202 with the YouTube connection's sync job.
import { mutationOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { youtubeSyncResponse } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export type YoutubeSyncJob = z.infer<typeof youtubeSyncResponse>;

export function syncYoutube(days: number): Promise<YoutubeSyncJob> {
  return api.post<YoutubeSyncJob>(`/youtubeanalytics/sync?days=${days}`);
}

export function syncYoutubeMutationOptions() {
  return mutationOptions({ mutationKey: [...YOUTUBE_QUERY_ROOT, 'sync'], mutationFn: syncYoutube });
}
