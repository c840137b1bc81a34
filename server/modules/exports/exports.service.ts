// Exports of the Analytics screen's data with its filters: CSV and JSON stream every record in the range from the
// database, a slice at a time; the PDF is a bounded report with the charts (analytics-report-pdf.ts).
import type { Readable } from 'node:stream';
import { type AnalyticsQuery, DEFAULT_ANALYTICS_DAYS } from '#contract/analytics.ts';
import { type AnalyticsExportQuery, CSV_EXPORT_COLUMNS, EXPORT_CONTENT_TYPES, type ExportFormat, type ExportRecord, PDF_RECORD_LIMIT } from '#contract/exports.ts';
import { PLATFORM_CATALOGUE, type PlatformName, platformDisplayName, platformById } from '#contract/platforms.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayOf } from '../../lib/dates.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { type AnalyticsReport, renderAnalyticsReportPdfBuffer } from './analytics-report-pdf.ts';
import { CSV_BOM, csvLine, csvNumber, csvText } from './csv.ts';
import { type ExportCursor, type ExportFilter, type ExportRow, type ExportsRepository, planWindows } from './exports.repository.ts';
import { jsonDocumentChunks, textStream } from './text-stream.ts';

/**
 * Records read per database round trip. Small enough that a slice (and the text made from it) is a few hundred
 * kilobytes, large enough that a 100k-record export is 50 queries.
 */
export const EXPORT_SLICE_SIZE = 2_000;

type ExportFilters = Omit<AnalyticsExportQuery, 'format'>;

/** Lowercase letters, digits and dashes only: safe in a Content-Disposition header and on every file system. */
const fileNamePart = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);

/**
 * analytics-hub[-platform][-metric]-<range>-<export day>.<ext>, e.g. analytics-hub-youtube-last-30-days-2026-11-02.csv
 * or analytics-hub-2026-10-01-to-2026-10-31-2026-11-02.pdf when the dates were chosen.
 */
export function exportFileName(
  filters: Pick<ExportFilters, 'days' | 'startDate' | 'endDate' | 'metricType'>,
  range: { startDate: string; endDate: string },
  platform: PlatformName | undefined,
  today: string,
  format: ExportFormat,
): string {
  const rangeLabel = filters.startDate || filters.endDate ? `${range.startDate}-to-${range.endDate}` : `last-${filters.days ?? DEFAULT_ANALYTICS_DAYS}-days`;
  const parts = ['analytics-hub', platform ?? '', filters.metricType ? fileNamePart(filters.metricType) : '', rangeLabel, today].filter((part) => part !== '');
  return `${parts.join('-')}.${format}`;
}

const toExportRecord = (row: ExportRow): ExportRecord => ({
  date: row.date,
  platformName: platformDisplayName(row.platform),
  metricType: row.metric_type,
  // JSON has no NaN or Infinity; PostgreSQL doubles can hold them.
  value: Number.isFinite(Number(row.value)) ? Number(row.value) : null,
  contentTitle: row.content_title,
  derivation: row.derivation,
});

const csvRecord = (record: ExportRecord) =>
  csvLine([csvText(record.date), csvText(record.platformName), csvText(record.metricType), csvNumber(record.value), csvText(record.contentTitle), csvText(record.derivation)]);

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Readable | Buffer;
}

export function createExportsService({ repository, analytics, clock }: { repository: ExportsRepository; analytics: AnalyticsService; clock: Clock }) {
  /** Every record of the filter, newest first, one slice per database query; nothing is read ahead of the reader. */
  async function* recordSlices(filter: ExportFilter): AsyncGenerator<ExportRecord[]> {
    for (const window of planWindows(await repository.recordCountsByDate(filter), EXPORT_SLICE_SIZE)) {
      // Keyset paging inside the window: rows that arrive while the export runs cannot shift a page.
      let after: ExportCursor | undefined;
      for (;;) {
        const rows = await repository.recordsAfter(filter, window, after, EXPORT_SLICE_SIZE);
        if (rows.length > 0) yield rows.map(toExportRecord);
        if (rows.length < EXPORT_SLICE_SIZE) break;
        const last = rows.at(-1)!;
        after = { date: last.date, source: Number(last.source), id: Number(last.id) };
      }
    }
  }

  async function* csvChunks(filter: ExportFilter): AsyncGenerator<string> {
    yield CSV_BOM + csvLine(CSV_EXPORT_COLUMNS.map((column) => csvText(column)));
    for await (const slice of recordSlices(filter)) yield slice.map(csvRecord).join('');
  }

  function jsonChunks(filter: ExportFilter, filters: { startDate: string; endDate: string; platform: string | null; metricType: string | null }) {
    // The document is valid JSON once complete; records come last so they can be streamed.
    const head = `{"exportedAt":${JSON.stringify(clock.now().toISOString())},"filters":${JSON.stringify(filters)},"records":[`;
    return jsonDocumentChunks(head, recordSlices(filter), (record) => record);
  }

  function resolveFilters(userId: number, filters: ExportFilters) {
    const platform = filters.platformId !== undefined ? platformById(filters.platformId) : undefined;
    // The same range rules (and the same 400s) as GET /api/analytics.
    const range = analytics.range(filters);
    const filter: ExportFilter = { userId, ...range, platform, metricType: filters.metricType };
    return { platform, range, filter };
  }

  /**
   * The report the PDF shows: the Analytics screen's numbers and series for the filters, and the newest records.
   * Also used by the e-mailed reports (pass startDate and endDate for their period).
   */
  async function analyticsReport(userId: number, filters: ExportFilters): Promise<AnalyticsReport> {
    const { platform, range } = resolveFilters(userId, filters);
    const query: AnalyticsQuery = { ...filters, page: 1, pageSize: PDF_RECORD_LIMIT };
    // The cards of the same period and platform as the rest of the report: the period the reader chose, not the
    // Dashboard's last 30 days (issue 24, one answer per period).
    const data = await analytics.analytics(userId, query, platform);
    return {
      generatedAt: clock.now(),
      startDate: range.startDate,
      endDate: range.endDate,
      platform: platform ? PLATFORM_CATALOGUE[platform].name : null,
      metricType: filters.metricType ?? null,
      summary: data.totals,
      followersOverTime: data.followersOverTime,
      followerHistoryStarts: data.followerHistoryStarts,
      engagementOverTime: data.engagementOverTime,
      platformBreakdown: data.platformBreakdown,
      topContent: data.topContent,
      derivedSeries: data.derivedSeries,
      records: data.allMetrics.map((record) => ({
        date: record.date,
        platformName: record.platformName,
        metricType: record.metricType,
        value: record.value,
        contentTitle: record.contentTitle,
      })),
      totalRecords: data.paging.total,
    };
  }

  /** The file for GET /api/analytics/export. Bad filters throw (400) before anything is read. */
  async function analyticsExport(userId: number, query: AnalyticsExportQuery): Promise<ExportFile> {
    const { format, ...filters } = query;
    const { platform, range, filter } = resolveFilters(userId, filters);
    const fileName = exportFileName(filters, range, platform, dayOf(clock.now()), format);
    const contentType = EXPORT_CONTENT_TYPES[format];
    if (format === 'pdf') {
      // The report is a few pages whatever the data: made in memory, so a failure is still a clean error response.
      return { fileName, contentType, body: await analyticsReportPdf(userId, filters) };
    }
    if (format === 'json') {
      const described = { ...range, platform: platform ? PLATFORM_CATALOGUE[platform].name : null, metricType: filters.metricType ?? null };
      return { fileName, contentType, body: textStream(jsonChunks(filter, described)) };
    }
    return { fileName, contentType, body: textStream(csvChunks(filter)) };
  }

  /** The analytics report as a PDF (the Analytics screen's export, and the emailed reports' attachment). */
  const analyticsReportPdf = async (userId: number, filters: ExportFilters): Promise<Buffer> => renderAnalyticsReportPdfBuffer(await analyticsReport(userId, filters));

  return { analyticsExport, analyticsReport, analyticsReportPdf };
}

export type ExportsService = ReturnType<typeof createExportsService>;
