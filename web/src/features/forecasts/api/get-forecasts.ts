// GET /api/forecasts: month-end income, followers per platform and the next milestones, with 80 % intervals and
// their track records (decision 024). Shared by the Analytics screen's Forecasts card and YouTube's Monthly Projection.
import { queryOptions } from '@tanstack/react-query';
import type { ForecastsResponse } from '#contract/forecasts.ts';
import { api } from '../../../lib/api-client';

export function getForecasts(signal?: AbortSignal): Promise<ForecastsResponse> {
  return api.get<ForecastsResponse>('/forecasts', { signal });
}

export function forecastsQueryOptions() {
  return queryOptions({
    // Under 'analytics': a finished sync refreshes every analytics answer (web/src/lib/live-updates.ts), these too.
    queryKey: ['analytics', 'forecasts'],
    queryFn: ({ signal }) => getForecasts(signal),
    // Forecasts start from yesterday: they change once a day, and after a sync.
    staleTime: 10 * 60_000,
  });
}
