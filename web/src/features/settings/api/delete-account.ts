// POST /api/settings/account/delete: the account, its data and tokens are gone; the subscription is cancelled.
import { mutationOptions } from '@tanstack/react-query';
import type { DeleteAccountRequest } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function deleteAccount(body: DeleteAccountRequest): Promise<{ message: string }> {
  return api.post('/settings/account/delete', body);
}

export function deleteAccountMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'delete-account'], mutationFn: deleteAccount });
}
