// E-mailed reports: each account's daily or weekly summary with its PDF, sent when due (the scan job, every minute),
// and the one-click unsubscribe the alerts share.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import type { AnalyticsRepository } from '../analytics/analytics.repository.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { ExportsService } from '../exports/exports.service.ts';
import { reportPdfAttachment } from './report-attachment.ts';
import { reportsScanJob } from './reports.job.ts';
import { createReportsRepository } from './reports.repository.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportsService } from './reports.service.ts';

export interface ReportsModuleDeps {
  /** The cards' queries (the analytics feature's), so a report's figures are the screens'. */
  analyticsRepository: AnalyticsRepository;
  exportsService: Pick<ExportsService, 'analyticsReportPdf'>;
  hasPremiumAccess: (userId: number) => Promise<boolean>;
  /** The same rule in SQL (billing): the scan takes only accounts with valid access. */
  ownerHasAccess: OwnerHasAccess;
}

export function reportsModule({ config, db, clock, logger, mailer }: Infrastructure, { analyticsRepository, exportsService, hasPremiumAccess, ownerHasAccess }: ReportsModuleDeps) {
  const reports = createReportsService({
    repository: createReportsRepository(db, ownerHasAccess),
    analytics: analyticsRepository,
    mailer,
    clock,
    hasPremiumAccess,
    publicUrl: config.publicUrl,
    logger,
    attachment: reportPdfAttachment(exportsService),
  });
  return { reports, jobs: [reportsScanJob(reports, logger)], routes: (app: FastifyInstance) => reportsRoutes(app, { reports }) };
}
