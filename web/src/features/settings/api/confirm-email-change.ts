// POST /api/settings/email/confirm: public; the link's token is the proof (the user may not be signed in here).
import { mutationOptions } from '@tanstack/react-query';
import type { ConfirmEmailChangeRequest } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function confirmEmailChange(body: ConfirmEmailChangeRequest): Promise<{ message: string; email: string }> {
  return api.post('/settings/email/confirm', body, { redirectOnUnauthorized: false });
}

export function confirmEmailChangeMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'email', 'confirm'], mutationFn: confirmEmailChange });
}
