// GET /api/notifications: the newest notices and the unread count (decision 015). Open to every signed-in user.
import { queryOptions } from '@tanstack/react-query';
import type { NotificationsResponse } from '#contract/notifications.ts';
import { api } from '../../../lib/api-client';

export const notificationsQueryKey = ['notifications'] as const;
/** Alerts come from syncs in the background; a minute is within the sync cycle the issue allows. */
const REFRESH_MS = 60_000;

export function getNotifications(signal?: AbortSignal): Promise<NotificationsResponse> {
  return api.get<NotificationsResponse>('/notifications', { signal });
}

export function notificationsQueryOptions() {
  return queryOptions({ queryKey: notificationsQueryKey, queryFn: ({ signal }) => getNotifications(signal), refetchInterval: REFRESH_MS });
}
