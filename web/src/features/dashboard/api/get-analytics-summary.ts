// GET /api/analytics/summary: the dashboard's three numbers (premium: a 402 sends the user to billing).
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
