// GET /api/youtubeanalytics/demographics?days=: the audience by age and gender and by country.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Demographic } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getDemographics(days: number, signal?: AbortSignal): Promise<Demographic[]> {
  return api.get<Demographic[]>(`/youtubeanalytics/demographics?days=${days}`, { signal });
}

export function demographicsQueryOptions(days: number) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'demographics', days],
    queryFn: ({ signal }) => getDemographics(days, signal),
    placeholderData: keepPreviousData,
  });
}
