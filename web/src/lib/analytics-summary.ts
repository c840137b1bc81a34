// GET /api/analytics/summary: the Dashboard's and Analytics' headline numbers, one call and one cache entry for
// both (premium: a 402 sends the user to billing).
import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsSummary } from '#contract/analytics.ts';
import { api } from './api-client';

export function getAnalyticsSummary(signal?: AbortSignal): Promise<AnalyticsSummary> {
  return api.get<AnalyticsSummary>('/analytics/summary', { signal });
}

export function analyticsSummaryQueryOptions() {
  return queryOptions({
    queryKey: ['analytics', 'summary'],
    queryFn: ({ signal }) => getAnalyticsSummary(signal),
  });
}
