// GET /api/analytics/metrics: the metric types present in the user's data, for the metric selector.
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { metricTypesResponse } from '#contract/analytics.ts';
import { api } from '../../../lib/api-client';

export type MetricTypes = z.infer<typeof metricTypesResponse>;

export function getMetricTypes(signal?: AbortSignal): Promise<MetricTypes> {
  return api.get<MetricTypes>('/analytics/metrics', { signal });
}

export function metricTypesQueryOptions() {
  return queryOptions({
    queryKey: ['analytics', 'metric-types'],
    queryFn: ({ signal }) => getMetricTypes(signal),
    // Spec section 4: available metrics are fetched once and cached.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
