// GET and PATCH /api/settings/alerts: which alerts the user wants (every kind on until turned off).
import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { AlertSettings, AlertSettingsRequest } from '#contract/notifications.ts';
import { api } from '../../../lib/api-client';

export const alertSettingsQueryKey = ['settings', 'alerts'] as const;

export function alertSettingsQueryOptions() {
  return queryOptions({ queryKey: alertSettingsQueryKey, queryFn: ({ signal }) => api.get<AlertSettings>('/settings/alerts', { signal }) });
}

export function updateAlertSettings(body: AlertSettingsRequest): Promise<AlertSettings> {
  return api.request('/settings/alerts', { method: 'PATCH', body });
}

export function updateAlertSettingsMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'alerts', 'save'], mutationFn: updateAlertSettings });
}
