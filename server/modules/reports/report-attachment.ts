// The PDF attached to each emailed report: the exports module's analytics report (the same document as the
// Analytics screen's PDF export) for the report's period.
import type { ExportsService } from '../exports/exports.service.ts';
import type { ReportAttachment } from './reports.service.ts';

export function reportPdfAttachment(exports: Pick<ExportsService, 'analyticsReportPdf'>): ReportAttachment {
  return async ({ userId, period }) => ({
    filename: `analytics-hub-${period.frequency}-report-${period.startDate}.pdf`,
    content: await exports.analyticsReportPdf(userId, { startDate: period.startDate, endDate: period.endDate, metricType: undefined, platformId: undefined }),
    contentType: 'application/pdf',
  });
}
