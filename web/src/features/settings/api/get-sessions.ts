// GET /api/settings/sessions: where the account is signed in, this session first.
import { queryOptions } from '@tanstack/react-query';
import type { AccountSessions } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export const sessionsQueryKey = ['settings', 'sessions'] as const;

export function getSessions(signal?: AbortSignal): Promise<AccountSessions> {
  return api.get<AccountSessions>('/settings/sessions', { signal });
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: sessionsQueryKey, queryFn: ({ signal }) => getSessions(signal) });
}
