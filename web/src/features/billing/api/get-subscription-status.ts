// GET /api/stripe/subscription-status: the plan, trial and access verdict. The guard reads it too.
import { queryOptions } from '@tanstack/react-query';
import type { SubscriptionStatus } from '#contract/billing.ts';
import { api } from '../../../lib/api-client';

export const subscriptionStatusQueryKey = ['billing', 'subscription-status'] as const;

export function getSubscriptionStatus(signal?: AbortSignal): Promise<SubscriptionStatus> {
  return api.get<SubscriptionStatus>('/stripe/subscription-status', { signal });
}

export function subscriptionStatusQueryOptions() {
  return queryOptions({
    queryKey: subscriptionStatusQueryKey,
    queryFn: ({ signal }) => getSubscriptionStatus(signal),
  });
}
