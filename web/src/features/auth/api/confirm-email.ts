// POST /api/auth/confirm-email { userId: integer, token } → { message }. The token works once.
import { mutationOptions } from '@tanstack/react-query';
import type { ConfirmEmailRequest } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function confirmEmail(payload: ConfirmEmailRequest): Promise<{ message: string }> {
  return api.post<{ message: string }>('/auth/confirm-email', payload);
}

export function confirmEmailMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'confirm-email'], mutationFn: confirmEmail });
}
