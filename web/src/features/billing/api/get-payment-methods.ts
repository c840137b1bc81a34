// GET /api/stripe/payment-methods → { paymentMethods }: the cards on the customer, default marked.
import { queryOptions } from '@tanstack/react-query';
import type { PaymentMethod } from '#contract/billing.ts';
import { api } from '../../../lib/api-client';

export function getPaymentMethods(signal?: AbortSignal): Promise<{ paymentMethods: PaymentMethod[] }> {
  return api.get<{ paymentMethods: PaymentMethod[] }>('/stripe/payment-methods', { signal });
}

export function paymentMethodsQueryOptions() {
  return queryOptions({
    queryKey: ['billing', 'payment-methods'],
    queryFn: ({ signal }) => getPaymentMethods(signal),
    select: (data) => data.paymentMethods,
  });
}
