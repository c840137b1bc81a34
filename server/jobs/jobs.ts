// Every job the server runs, in one list: the sync of a connection, the sync schedule, the young-post read and its
// schedule, the report scan, the alerts' reconnect scan, housekeeping, the retried release of a deleted account's
// Stripe customer, the ECB rates fetch and the analytics answers computed after a sync. The composition
// root (server/app.ts) builds each feature's definitions and hands this list to the one queue.
import type { JobDefinition } from './job-definition.ts';

export interface JobDefinitionsByFeature {
  /** sync-connection and sync-schedule (server/modules/sync/sync.jobs.ts), young-posts-read and young-posts-schedule (young-posts.jobs.ts). */
  sync: readonly JobDefinition<never>[];
  /** reports-scan (server/modules/reports/reports.job.ts). */
  reports: JobDefinition;
  /** alerts-reconnect-scan (server/modules/notifications/notifications.job.ts). */
  alerts: JobDefinition;
  /** housekeeping (server/jobs/housekeeping.job.ts). */
  housekeeping: JobDefinition;
  /** stripe-customer-release (server/modules/billing/billing.jobs.ts). */
  billing: readonly JobDefinition<never>[];
  /** exchange-rates-fetch (server/modules/income/exchange-rates.ts). */
  income: JobDefinition;
  /** analytics-answer-warming (server/modules/analytics/answer-warming.job.ts). */
  analytics: JobDefinition<never>;
}

export function listJobDefinitions({ sync, reports, alerts, housekeeping, billing, income, analytics }: JobDefinitionsByFeature): JobDefinition[] {
  return [...(sync as readonly JobDefinition[]), reports, alerts, housekeeping, ...(billing as readonly JobDefinition[]), income, analytics as JobDefinition];
}
