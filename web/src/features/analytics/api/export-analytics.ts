// GET /api/analytics/export?format=&days=&platformId=&metricType=: the records behind the screen, with its filters, as
// a file. A download through the api client, because the call needs the bearer token (a plain link cannot send it).
// The comparison is not part of it: an export holds records, not changes.
import type { ExportFormat } from '#contract/exports.ts';
import { api, type DownloadedFile } from '../../../lib/api-client';
import type { AnalyticsFilters } from '../../../lib/analytics-filters';

export function exportAnalytics(filters: Pick<AnalyticsFilters, 'days' | 'platformId' | 'metricType'>, format: ExportFormat): Promise<DownloadedFile> {
  const query = new URLSearchParams({ format, days: String(filters.days) });
  if (filters.platformId !== null) query.set('platformId', String(filters.platformId));
  if (filters.metricType !== null) query.set('metricType', filters.metricType);
  return api.download(`/analytics/export?${query.toString()}`);
}
