// GET /api/youtubeanalytics/insights/{id}/viral-potential: a video scored against the channel's own baseline.
import { queryOptions } from '@tanstack/react-query';
import type { ViralAnalysis } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getViralPotential(id: number | string, signal?: AbortSignal): Promise<ViralAnalysis> {
  return api.get<ViralAnalysis>(`/youtubeanalytics/insights/${encodeURIComponent(String(id))}/viral-potential`, { signal });
}

export function viralPotentialQueryOptions(id: number | string) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'viral-potential', String(id)],
    queryFn: ({ signal }) => getViralPotential(id, signal),
  });
}
