// The report scan as a pg-boss cron job on the app's one queue instance (the sync queue's). pg-boss sends each cron
// tick once whatever the number of processes, and the ledger in report_deliveries makes even overlapping scans safe.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { ReportsService } from './reports.service.ts';

const REPORTS_SCAN_JOB = 'reports-scan';
/** Every minute: report times are whole hours, so a report leaves within a minute or so of its local time. */
const SCAN_CRON = '* * * * *';

export async function startReportSchedule(boss: PgBoss, reports: ReportsService, logger: FastifyBaseLogger) {
  await boss.createQueue(REPORTS_SCAN_JOB, { name: REPORTS_SCAN_JOB, policy: 'singleton', expireInSeconds: 15 * 60 });
  await boss.schedule(REPORTS_SCAN_JOB, SCAN_CRON);
  await boss.work(REPORTS_SCAN_JOB, { pollingIntervalSeconds: 15 }, async () => {
    const result = await reports.runDue();
    if (result.sent + result.failed > 0) logger.info({ ...result }, 'report scan finished');
  });
}
