// POST /api/stripe/sync { sessionId? }: the server re-reads the subscription from Stripe, so the page does not
// wait for the webhook after Checkout. `sessionId` (from a payment link's return URL) lets a checkout paid
// with the account's email join the account. Answers with the status after the sync.
import { mutationOptions } from '@tanstack/react-query';
import type { SubscriptionStatus } from '#contract/billing.ts';
import { api } from '../../../lib/api-client';

export function syncSubscription({ sessionId }: { sessionId?: string } = {}): Promise<SubscriptionStatus> {
  return api.post<SubscriptionStatus>('/stripe/sync', sessionId ? { sessionId } : {});
}

export function syncSubscriptionMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'sync'], mutationFn: syncSubscription });
}
