// POST /api/stripe/create-portal-session { returnUrl } → { url } of the Stripe billing portal.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function createPortalSession(payload: { returnUrl?: string }): Promise<{ url: string }> {
  return api.post<{ url: string }>('/stripe/create-portal-session', payload);
}

export function createPortalSessionMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'portal'], mutationFn: createPortalSession });
}
