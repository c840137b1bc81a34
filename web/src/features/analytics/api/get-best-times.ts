// GET /api/analytics/best-times?connectionId=&timeZone=: one connection's weekday × hour grid of age-matched ratios.
// The browser's zone goes along every time; the server uses it only when Settings names no zone.
import { queryOptions } from '@tanstack/react-query';
import type { BestTimesResponse } from '#contract/best-times.ts';
import { api } from '../../../lib/api-client';

export function getBestTimes(connectionId: number, timeZone: string, signal?: AbortSignal): Promise<BestTimesResponse> {
  const query = new URLSearchParams({ connectionId: String(connectionId), timeZone });
  return api.get<BestTimesResponse>(`/analytics/best-times?${query.toString()}`, { signal });
}

export function bestTimesQueryOptions(connectionId: number, timeZone: string) {
  return queryOptions({
    queryKey: ['analytics', 'best-times', connectionId, timeZone],
    queryFn: ({ signal }) => getBestTimes(connectionId, timeZone, signal),
    // A post's ratio settles over days: a minute-old grid is as good as a new one.
    staleTime: 5 * 60_000,
  });
}
