// GET /api/youtubeanalytics/videos/{id}/traffic-sources: where a video's views came from, for the detail modal.
import { queryOptions } from '@tanstack/react-query';
import type { TrafficSource } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getVideoTrafficSources(id: number | string, signal?: AbortSignal): Promise<TrafficSource[]> {
  return api.get<TrafficSource[]>(`/youtubeanalytics/videos/${encodeURIComponent(String(id))}/traffic-sources`, { signal });
}

export function videoTrafficSourcesQueryOptions(id: number | string) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'video', String(id), 'traffic-sources'],
    queryFn: ({ signal }) => getVideoTrafficSources(id, signal),
  });
}
