// Every job the server runs, in one list: the sync of a connection, the sync schedule, the report scan and housekeeping. The
// composition root (server/app.ts) builds each feature's definitions and hands this list to the one queue.
import type { JobDefinition } from './job-definition.ts';

export interface JobDefinitionsByFeature {
  /** sync-connection and sync-schedule (server/modules/sync/sync.jobs.ts). */
  sync: readonly JobDefinition<never>[];
  /** reports-scan (server/modules/reports/reports.job.ts). */
  reports: JobDefinition;
  /** housekeeping (server/jobs/housekeeping.job.ts). */
  housekeeping: JobDefinition;
}

export function listJobDefinitions({ sync, reports, housekeeping }: JobDefinitionsByFeature): JobDefinition[] {
  return [...(sync as readonly JobDefinition[]), reports, housekeeping];
}
