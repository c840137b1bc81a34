// POST /api/stripe/cancel-subscription { cancelAtPeriodEnd: true }: access continues to the period's end.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function cancelSubscription(): Promise<unknown> {
  return api.post('/stripe/cancel-subscription', { cancelAtPeriodEnd: true });
}

export function cancelSubscriptionMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'cancel'], mutationFn: cancelSubscription });
}
