// POST /api/settings/email: a confirmation link goes to the new address; the email changes when it is opened.
import { mutationOptions } from '@tanstack/react-query';
import type { ChangeEmailRequest } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function changeEmail(body: ChangeEmailRequest): Promise<{ message: string; pendingEmail: string }> {
  return api.post('/settings/email', body);
}

export function changeEmailMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'email'], mutationFn: changeEmail });
}
