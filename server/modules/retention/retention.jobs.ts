// The data-retention job on the server's one queue: once a day, what the retention rules say must go goes
// (retention.service.ts). pg-boss fires each cron tick once across all processes that work jobs, and the singleton
// queue runs one at a time; the steps re-read what is due, so a retried or overlapping run deletes nothing twice and
// the notice, claimed in sent_mails, goes out once.
import type { FastifyBaseLogger } from 'fastify';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { RetentionService } from './retention.service.ts';

export const DATA_RETENTION_JOB = 'data-retention';
/** Every day at 03:41 UTC, a quiet hour for most creators. */
const DAILY = '41 3 * * *';

export function dataRetentionJob(retention: RetentionService, logger: FastifyBaseLogger): JobDefinition {
  return {
    name: DATA_RETENTION_JOB,
    // A failed run is tried again within the hour; the next day's run would catch up anyway.
    queue: { policy: 'singleton', retryLimit: 3, retryDelay: 15 * 60, expireInSeconds: 30 * 60 },
    schedule: DAILY,
    work: { pollingIntervalSeconds: 60 },
    async handle() {
      const done = await retention.run();
      logger.info({ event: 'retention.ran', ...done }, 'data retention applied');
    },
  };
}
