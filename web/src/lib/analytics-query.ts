// GET /api/analytics?days=&platformId=&metricType=&compare=: the cards' totals and their comparison, and the series,
// breakdown and top content behind the charts.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AnalyticsResponse } from '#contract/analytics.ts';
import { api } from './api-client';
import { type AnalyticsFilters, customComparisonPeriod } from './analytics-filters';

export function getAnalytics(filters: AnalyticsFilters, signal?: AbortSignal): Promise<AnalyticsResponse> {
  const query = new URLSearchParams({ days: String(filters.days) });
  if (filters.platformId !== null) query.set('platformId', String(filters.platformId));
  if (filters.metricType !== null) query.set('metricType', filters.metricType);
  const custom = customComparisonPeriod(filters);
  if (custom) {
    query.set('compareStartDate', custom.startDate);
    query.set('compareEndDate', custom.endDate);
  } else if (filters.compare !== 'previous') query.set('compare', filters.compare);
  return api.get<AnalyticsResponse>(`/analytics?${query.toString()}`, { signal });
}

export function analyticsQueryOptions(filters: AnalyticsFilters) {
  return queryOptions({
    // The key holds the normalised filters only, so "changing" a filter to its current value is the same query
    // (no refetch), and TanStack Query never starts a second fetch of a key while one is running.
    queryKey: ['analytics', 'data', filters.days, filters.platformId, filters.metricType, filters.compare, filters.compareFrom],
    queryFn: ({ signal }) => getAnalytics(filters, signal),
    // Keep showing the previous filter's charts while the new ones load, so the charts do not flash.
    placeholderData: keepPreviousData,
  });
}
