// The alerts' reconnect scan as a job on the server's one queue (server/jobs): a cron tick every 5 minutes, the sync
// scheduler's own cadence, so a connection marked for reconnection outside a sync is announced within a sync cycle.
// pg-boss sends each tick once whatever the number of processes; the notices' unique key makes overlaps harmless.
import type { FastifyBaseLogger } from 'fastify';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { NotificationsService } from './notifications.service.ts';

export const RECONNECT_SCAN_JOB = 'alerts-reconnect-scan';
const SCAN_CRON = '*/5 * * * *';

export function reconnectScanJob(notifications: Pick<NotificationsService, 'scanReconnects'>, logger: FastifyBaseLogger): JobDefinition {
  return {
    name: RECONNECT_SCAN_JOB,
    queue: { policy: 'singleton', expireInSeconds: 15 * 60 },
    schedule: SCAN_CRON,
    work: { pollingIntervalSeconds: 30 },
    async handle() {
      const alerted = await notifications.scanReconnects();
      if (alerted > 0) logger.info({ event: 'alert.reconnect_scan', alerted }, 'reconnect scan alerted');
    },
  };
}
