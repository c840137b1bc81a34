// GET /api/reports/preferences: premium. Settings is open to everyone, so a 402 here only hides this section.
import { queryOptions } from '@tanstack/react-query';
import type { ReportPreferences } from '#contract/reports.ts';
import { api } from '../../../lib/api-client';

export const reportPreferencesQueryKey = ['reports', 'preferences'] as const;

export function getReportPreferences(signal?: AbortSignal): Promise<ReportPreferences> {
  return api.get<ReportPreferences>('/reports/preferences', { signal, redirectOnPaymentRequired: false });
}

export function reportPreferencesQueryOptions() {
  return queryOptions({ queryKey: reportPreferencesQueryKey, queryFn: ({ signal }) => getReportPreferences(signal), retry: false });
}
