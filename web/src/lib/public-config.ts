// GET /api/config/public: what the anonymous app needs to know about the deployment.
import { queryOptions } from '@tanstack/react-query';
import type { PublicConfig } from '#contract/public-config.ts';
import { api } from './api-client';

export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return api.get<PublicConfig>('/config/public', { signal });
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config', 'public'],
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Infinity,
    retry: 1,
  });
}
