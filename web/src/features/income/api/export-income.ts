// GET /api/income/export?format=&startDate=&endDate=&granularity=: the income view as a file (CSV, JSON or PDF).
import type { ExportFormat } from '#contract/exports.ts';
import { api, type DownloadedFile } from '../../../lib/api-client';
import type { IncomeRange } from './get-income';

export function exportIncome(range: IncomeRange, format: ExportFormat): Promise<DownloadedFile> {
  const query = new URLSearchParams({ format, startDate: range.startDate, endDate: range.endDate, granularity: range.granularity });
  return api.download(`/income/export?${query.toString()}`);
}
