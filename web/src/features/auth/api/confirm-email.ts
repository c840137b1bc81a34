// POST /api/auth/confirm-email { userId: integer, token } → { message, alreadyConfirmed }. The token confirms once;
// opened again, the same link answers that the address is already confirmed.
import { mutationOptions } from '@tanstack/react-query';
import type { ConfirmEmailRequest, ConfirmEmailResponse } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function confirmEmail(payload: ConfirmEmailRequest): Promise<ConfirmEmailResponse> {
  return api.post<ConfirmEmailResponse>('/auth/confirm-email', payload);
}

export function confirmEmailMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'confirm-email'], mutationFn: confirmEmail });
}
