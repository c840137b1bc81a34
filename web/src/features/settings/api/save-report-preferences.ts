// PUT /api/reports/preferences.
import { mutationOptions } from '@tanstack/react-query';
import type { ReportPreferences, ReportPreferencesRequest } from '#contract/reports.ts';
import { api } from '../../../lib/api-client';

export function saveReportPreferences(body: ReportPreferencesRequest): Promise<ReportPreferences> {
  return api.request('/reports/preferences', { method: 'PUT', body, redirectOnPaymentRequired: false });
}

export function saveReportPreferencesMutationOptions() {
  return mutationOptions({ mutationKey: ['reports', 'preferences', 'save'], mutationFn: saveReportPreferences });
}
