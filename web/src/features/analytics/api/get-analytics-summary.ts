// GET /api/analytics/summary: the four metric cards. Same call and key as the dashboard's numbers, so the two
// screens share one cache entry (features do not import each other, hence this small twin).
import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsSummary } from '../../../../../contract/analytics';
import { api } from '../../../lib/api-client';

export function getAnalyticsSummary(signal?: AbortSignal): Promise<AnalyticsSummary> {
  return api.get<AnalyticsSummary>('/analytics/summary', { signal });
}

export function analyticsSummaryQueryOptions() {
  return queryOptions({
    queryKey: ['analytics', 'summary'],
    queryFn: ({ signal }) => getAnalyticsSummary(signal),
  });
}
