// GET /api/analytics/export: the records the Analytics screen shows, with its filters, as a file (issue 7).
// Premium like every /api/analytics call.
import { z } from 'zod';
import { analyticsQuery } from './analytics.ts';
import { youtubeVideosQuery } from './youtube.ts';

export const EXPORT_FORMATS = ['csv', 'json', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

/** The PDF lists this many records (newest first); the CSV and JSON exports hold every record in the range. */
export const PDF_RECORD_LIMIT = 50;

/**
 * The filters of GET /api/analytics (days, metricType, startDate, endDate, platformId) plus the format. Paging is
 * not accepted: an export holds every record in the range; nor is a comparison: an export holds records, not changes.
 */
export const analyticsExportQuery = analyticsQuery.omit({ page: true, pageSize: true, compare: true, compareStartDate: true, compareEndDate: true }).extend({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }),
});
export type AnalyticsExportQuery = z.infer<typeof analyticsExportQuery>;

/** The header row of the CSV export, in column order. */
/** "Derived" says how we made a value the platform does not report per day (empty: the platform's own figure). */
export const CSV_EXPORT_COLUMNS = ['Date', 'Platform', 'Metric', 'Value', 'Content title', 'Derived'] as const;

/** One record of the JSON export (the same fields as the CSV, named as in the analytics API). */
export const exportRecord = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  platformName: z.string(),
  metricType: z.string(),
  value: z.number().nullable(),
  contentTitle: z.string().nullable(),
  /** How we derived the value (one of DERIVATION_METHODS, e.g. "from daily follows minus unfollows"); null for the platform's own figure. */
  derivation: z.string().nullable(),
});
export type ExportRecord = z.infer<typeof exportRecord>;

/** The JSON export's document (written as a stream, records last). */
export const analyticsJsonExport = z.object({
  exportedAt: z.iso.datetime(),
  filters: z.object({
    startDate: z.string(),
    endDate: z.string(),
    /** Display name, e.g. "YouTube"; null for all platforms. */
    platform: z.string().nullable(),
    metricType: z.string().nullable(),
  }),
  records: z.array(exportRecord),
});
export type AnalyticsJsonExport = z.infer<typeof analyticsJsonExport>;

/**
 * GET /api/youtubeanalytics/export: the Video Performance table (every page) with its sort, order and search, plus
 * `days` with the meaning it has in GET /api/youtubeanalytics/videos (only videos published in the last `days` days).
 * The PDF adds the channel's numbers over the last `days` (default 30) days.
 */
export const youtubeVideosExportQuery = youtubeVideosQuery.omit({ page: true, pageSize: true }).extend({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }),
});
export type YoutubeVideosExportQuery = z.infer<typeof youtubeVideosExportQuery>;

/** The header row of the YouTube videos CSV, in column order. Money in USD; percentages as numbers (6.4 = 6.4 %). */
export const YOUTUBE_VIDEO_CSV_COLUMNS = [
  'Video ID',
  'Title',
  'Published',
  'URL',
  'Views',
  'Watch time (minutes)',
  'Likes',
  'Comments',
  'Engagement rate (%)',
  'Estimated revenue (USD)',
  'Estimated ad revenue (USD)',
  'CPM (USD)',
  'Impressions',
  'Click-through rate (%)',
  'Average percentage viewed (%)',
  'Estimated fields',
] as const;
