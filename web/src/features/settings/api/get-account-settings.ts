// GET /api/settings/account: the user and any email change waiting for confirmation.
import { queryOptions } from '@tanstack/react-query';
import type { AccountSettings } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export const accountSettingsQueryKey = ['settings', 'account'] as const;

export function getAccountSettings(signal?: AbortSignal): Promise<AccountSettings> {
  return api.get<AccountSettings>('/settings/account', { signal });
}

export function accountSettingsQueryOptions() {
  return queryOptions({ queryKey: accountSettingsQueryKey, queryFn: ({ signal }) => getAccountSettings(signal) });
}
