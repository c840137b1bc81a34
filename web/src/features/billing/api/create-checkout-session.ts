// POST /api/stripe/create-checkout-session → { url, sessionId }; the browser then goes to Stripe Checkout.
import { mutationOptions } from '@tanstack/react-query';
import type { CreateCheckoutSessionRequest } from '#contract/billing.ts';
import { api } from '../../../lib/api-client';

export function createCheckoutSession(payload: CreateCheckoutSessionRequest): Promise<{ url: string; sessionId: string }> {
  return api.post<{ url: string; sessionId: string }>('/stripe/create-checkout-session', payload);
}

export function createCheckoutSessionMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'checkout'], mutationFn: createCheckoutSession });
}
