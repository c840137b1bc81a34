// GET /api/youtubeanalytics/videos/{id}: one video with its audience retention curve, for the detail modal.
import { queryOptions } from '@tanstack/react-query';
import { normalizeRetentionData, type YoutubeVideoDetail } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export async function getVideo(id: number | string, signal?: AbortSignal): Promise<YoutubeVideoDetail> {
  const video = await api.get<YoutubeVideoDetail>(`/youtubeanalytics/videos/${encodeURIComponent(String(id))}`, { signal });
  // The server answers one shape; normalising again costs nothing and keeps the chart safe from older answers.
  return { ...video, retentionData: normalizeRetentionData(video.retentionData) };
}

export function videoQueryOptions(id: number | string) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'video', String(id)],
    queryFn: ({ signal }) => getVideo(id, signal),
  });
}
