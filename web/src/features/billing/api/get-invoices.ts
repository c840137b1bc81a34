// GET /api/stripe/invoices → { invoices }: newest first, amounts in major units.
import { queryOptions } from '@tanstack/react-query';
import type { Invoice } from '#contract/billing.ts';
import { api } from '../../../lib/api-client';

export function getInvoices(signal?: AbortSignal): Promise<{ invoices: Invoice[] }> {
  return api.get<{ invoices: Invoice[] }>('/stripe/invoices', { signal });
}

export function invoicesQueryOptions() {
  return queryOptions({
    queryKey: ['billing', 'invoices'],
    queryFn: ({ signal }) => getInvoices(signal),
    select: (data) => data.invoices,
  });
}
