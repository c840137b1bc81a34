// POST /api/settings/password: other sessions are signed out; this one stays.
import { mutationOptions } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function changePassword(body: ChangePasswordRequest): Promise<{ message: string; signedOutSessions: number }> {
  return api.post('/settings/password', body);
}

export function changePasswordMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'password'], mutationFn: changePassword });
}
