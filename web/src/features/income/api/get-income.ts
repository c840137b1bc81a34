// GET /api/income?startDate=&endDate=&granularity=: the income view for a range, per day or month.
import { queryOptions } from '@tanstack/react-query';
import type { IncomeGranularity, IncomeResponse } from '#contract/income.ts';
import { api } from '../../../lib/api-client';

export interface IncomeRange {
  startDate: string;
  endDate: string;
  granularity: IncomeGranularity;
}

export function getIncome(range: IncomeRange, signal?: AbortSignal): Promise<IncomeResponse> {
  const query = new URLSearchParams({ startDate: range.startDate, endDate: range.endDate, granularity: range.granularity });
  return api.get<IncomeResponse>(`/income?${query.toString()}`, { signal });
}

export function incomeQueryOptions(range: IncomeRange) {
  return queryOptions({
    queryKey: ['income', range.startDate, range.endDate, range.granularity],
    queryFn: ({ signal }) => getIncome(range, signal),
    staleTime: 60_000,
  });
}
