// The PDF attached to each emailed report: the exports module's analytics report (the same document as the
// Analytics screen's PDF export) for the report's period.
import { renderAnalyticsReportPdfBuffer } from '../exports/analytics-report-pdf.ts';
import type { ExportsService } from '../exports/exports.service.ts';
import type { ReportAttachment } from './reports.service.ts';

export function reportPdfAttachment(exports: Pick<ExportsService, 'analyticsReport'>): ReportAttachment {
  return async ({ userId, period }) => ({
    filename: `analytics-hub-${period.frequency}-report-${period.startDate}.pdf`,
    content: await renderAnalyticsReportPdfBuffer(await exports.analyticsReport(userId, { startDate: period.startDate, endDate: period.endDate, metricType: undefined, platformId: undefined })),
    contentType: 'application/pdf',
  });
}
