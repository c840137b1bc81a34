// GET /api/platforms: the six platforms with fixed ids 1 to 6, whether this server can connect each one and
// whether a public profile can be tracked without OAuth.
import { queryOptions } from '@tanstack/react-query';
import type { Platform } from '#contract/platforms.ts';
import { api } from '../../../lib/api-client';

export function getPlatforms(signal?: AbortSignal): Promise<Platform[]> {
  return api.get<Platform[]>('/platforms', { signal });
}

export function platformsQueryOptions() {
  return queryOptions({
    queryKey: ['platforms'],
    queryFn: ({ signal }) => getPlatforms(signal),
    // The list only changes when the server is redeployed with other credentials.
    staleTime: 10 * 60_000,
  });
}
