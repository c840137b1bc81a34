// POST /api/notifications/{id}/read.
import { mutationOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { markReadResponse } from '#contract/notifications.ts';
import { api } from '../../../lib/api-client';

export function markNotificationRead(id: number): Promise<z.infer<typeof markReadResponse>> {
  return api.request(`/notifications/${id}/read`, { method: 'POST' });
}

export function markNotificationReadMutationOptions() {
  return mutationOptions({ mutationKey: ['notifications', 'read'], mutationFn: markNotificationRead });
}
