// POST /api/auth/password-reset { email } → 202 { message } (the same answer whether or not the address is known), and
// POST /api/auth/password-reset/confirm { userId, token, password } → { message }. The emailed token works once.
import { mutationOptions } from '@tanstack/react-query';
import type { PasswordResetConfirmRequest, PasswordResetRequest } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function requestPasswordReset(payload: PasswordResetRequest): Promise<{ message: string }> {
  return api.post<{ message: string }>('/auth/password-reset', payload);
}

export function requestPasswordResetMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'password-reset'], mutationFn: requestPasswordReset });
}

export function confirmPasswordReset(payload: PasswordResetConfirmRequest): Promise<{ message: string }> {
  return api.post<{ message: string }>('/auth/password-reset/confirm', payload);
}

export function confirmPasswordResetMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'password-reset', 'confirm'], mutationFn: confirmPasswordReset });
}
