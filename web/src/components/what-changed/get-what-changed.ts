// GET /api/analytics/what-changed: the change of views or revenue between two periods, split into parts that sum.
// Shared by the Analytics and YouTube screens (both open the panel from a card's change figure).
import { queryOptions } from '@tanstack/react-query';
import type { WhatChangedMetric, WhatChangedResponse } from '#contract/what-changed.ts';
import { api } from '../../lib/api-client';

export interface WhatChangedRequest {
  metric: WhatChangedMetric;
  startDate: string;
  endDate: string;
  compareStartDate: string;
  compareEndDate: string;
  /** Lowercase platform key, e.g. 'youtube'; all platforms when absent. */
  platform?: string | undefined;
}

export function getWhatChanged(request: WhatChangedRequest, signal?: AbortSignal): Promise<WhatChangedResponse> {
  const query = new URLSearchParams({
    startDate: request.startDate,
    endDate: request.endDate,
    compareStartDate: request.compareStartDate,
    compareEndDate: request.compareEndDate,
    metric: request.metric,
    ...(request.platform ? { platform: request.platform } : {}),
  });
  return api.get<WhatChangedResponse>(`/analytics/what-changed?${query.toString()}`, { signal });
}

export function whatChangedQueryOptions(request: WhatChangedRequest) {
  return queryOptions({
    queryKey: ['analytics', 'what-changed', request],
    queryFn: ({ signal }) => getWhatChanged(request, signal),
    staleTime: 5 * 60_000,
  });
}
