// The billing feature's job on the server's one queue (server/jobs): `stripe-customer-release` { customerId } deletes
// a deleted account's Stripe customer when the deletion itself could not reach Stripe. Account deletion never waits on
// Stripe for this; the job retries with backoff until Stripe answers, and its outcome (deleted, or kept with a reason)
// is logged by the service. Running it twice is harmless: a customer deleted already counts as deleted.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { BillingService } from './billing.service.ts';

export const CUSTOMER_RELEASE_JOB = 'stripe-customer-release';

export interface CustomerReleaseJobData {
  customerId: string;
}

export function createBillingJobs({ boss, billing, logger }: { boss: PgBoss; billing: Pick<BillingService, 'releaseCustomer'>; logger: FastifyBaseLogger }) {
  const customerRelease: JobDefinition<CustomerReleaseJobData> = {
    name: CUSTOMER_RELEASE_JOB,
    // Ten more attempts over about a day: a minute, doubling (with pg-boss's jitter), the last some 8 hours on.
    queue: { retryLimit: 10, retryDelay: 60, retryBackoff: true, expireInSeconds: 5 * 60 },
    work: { pollingIntervalSeconds: 60 },
    async handle(job) {
      return billing.releaseCustomer(job.data.customerId);
    },
  };

  /** Queues the release of a customer, once per customer however often it is asked for. */
  async function enqueueCustomerRelease(customerId: string): Promise<void> {
    const id = await boss.send(CUSTOMER_RELEASE_JOB, { customerId } satisfies CustomerReleaseJobData, { singletonKey: customerId });
    logger.info({ event: 'billing.customer_release_queued', customerId, queued: id !== null }, 'Stripe customer release queued for retry');
  }

  return { definitions: [customerRelease] as const, enqueueCustomerRelease };
}

export type BillingJobs = ReturnType<typeof createBillingJobs>;
