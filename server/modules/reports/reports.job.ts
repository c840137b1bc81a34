// The report scan as a job on the server's one queue (server/jobs): a cron tick every minute. pg-boss sends each
// tick once whatever the number of processes, and the ledger in report_deliveries makes even overlapping scans safe.
import type { FastifyBaseLogger } from 'fastify';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { ReportsService } from './reports.service.ts';

export const REPORTS_SCAN_JOB = 'reports-scan';
/** Every minute: report times are whole hours, so a report leaves within a minute or so of its local time. */
const SCAN_CRON = '* * * * *';

export function reportsScanJob(reports: Pick<ReportsService, 'runDue'>, logger: FastifyBaseLogger): JobDefinition {
  return {
    name: REPORTS_SCAN_JOB,
    queue: { policy: 'singleton', expireInSeconds: 15 * 60 },
    schedule: SCAN_CRON,
    work: { pollingIntervalSeconds: 15 },
    async handle() {
      const result = await reports.runDue();
      if (result.sent + result.failed > 0) logger.info({ ...result }, 'report scan finished');
    },
  };
}
