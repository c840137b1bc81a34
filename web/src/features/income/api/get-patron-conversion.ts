// GET /api/income/patron-conversion?startDate&endDate: each upload of the period with the new patrons in the 7 days
// after it above the creator's usual join rate (estimated, correlational; decision 022).
import { queryOptions } from '@tanstack/react-query';
import type { PatronConversionResponse } from '#contract/patron-conversion.ts';
import { api } from '../../../lib/api-client';

export function getPatronConversion(startDate: string, endDate: string, signal?: AbortSignal): Promise<PatronConversionResponse> {
  const query = new URLSearchParams({ startDate, endDate });
  return api.get<PatronConversionResponse>(`/income/patron-conversion?${query.toString()}`, { signal });
}

export function patronConversionQueryOptions(startDate: string, endDate: string) {
  return queryOptions({
    queryKey: ['income', 'patron-conversion', startDate, endDate],
    queryFn: ({ signal }) => getPatronConversion(startDate, endDate, signal),
    // Joins are written by the sync (a few times a day): a few minutes old is as good as new.
    staleTime: 5 * 60_000,
  });
}
