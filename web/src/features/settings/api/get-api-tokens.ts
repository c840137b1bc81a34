// GET /api/settings/api-tokens: the account's live personal API tokens, newest first (never the tokens themselves).
import { queryOptions } from '@tanstack/react-query';
import type { ApiTokens } from '#contract/api-tokens.ts';
import { api } from '../../../lib/api-client';

export const apiTokensQueryKey = ['settings', 'api-tokens'] as const;

export function getApiTokens(signal?: AbortSignal): Promise<ApiTokens> {
  return api.get<ApiTokens>('/settings/api-tokens', { signal });
}

export function apiTokensQueryOptions() {
  return queryOptions({ queryKey: apiTokensQueryKey, queryFn: ({ signal }) => getApiTokens(signal) });
}
