// GET /api/youtubeanalytics/performance-summary?days=: the four cards, the connection state and the Revenue panel.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PerformanceSummary } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getPerformanceSummary(days: number, signal?: AbortSignal): Promise<PerformanceSummary> {
  return api.get<PerformanceSummary>(`/youtubeanalytics/performance-summary?days=${days}`, { signal });
}

export function performanceSummaryQueryOptions(days: number) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'performance-summary', days],
    queryFn: ({ signal }) => getPerformanceSummary(days, signal),
    // Switching 7/30/90 keeps the last numbers on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
