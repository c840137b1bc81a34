// POST /api/auth/resend-confirmation → 202 { message } (the same answer whether or not the address is known).
import { mutationOptions } from '@tanstack/react-query';
import type { ResendConfirmationRequest } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function resendConfirmation(payload: ResendConfirmationRequest): Promise<{ message: string }> {
  return api.post<{ message: string }>('/auth/resend-confirmation', payload);
}

export function resendConfirmationMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'resend-confirmation'], mutationFn: resendConfirmation });
}
