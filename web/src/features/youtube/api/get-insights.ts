// GET /api/youtubeanalytics/insights: the insights generated so far, newest first.
import { queryOptions } from '@tanstack/react-query';
import type { Insight } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export const insightsQueryKey = [...YOUTUBE_QUERY_ROOT, 'insights'] as const;

export function getInsights(signal?: AbortSignal): Promise<Insight[]> {
  return api.get<Insight[]>('/youtubeanalytics/insights', { signal });
}

export function insightsQueryOptions() {
  return queryOptions({ queryKey: insightsQueryKey, queryFn: ({ signal }) => getInsights(signal) });
}
