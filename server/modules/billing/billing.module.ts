// Billing: Stripe checkout, the customer portal, webhooks and the subscription's state; its job releases a deleted
// account's Stripe customer, retried.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import { createBillingJobs } from './billing.jobs.ts';
import { createBillingRepository } from './billing.repository.ts';
import { billingRoutes } from './billing.routes.ts';
import { createBillingService } from './billing.service.ts';
import { createStripeClient } from './stripe-client.ts';

export function billingModule({ config, db, clock, logger, boss }: Infrastructure, { onceMailer }: { onceMailer: OnceMailer }) {
  const billing = createBillingService({
    repository: createBillingRepository(db),
    stripe: config.stripe.secretKey ? createStripeClient({ secretKey: config.stripe.secretKey, apiBase: config.stripe.apiBase }) : undefined,
    clock,
    config: {
      priceId: config.stripe.priceId,
      webhookSecret: config.stripe.webhookSecret,
      requireCard: config.stripe.requireCard,
      publicUrl: config.publicUrl,
      sandbox: config.sandbox && !config.isStripeConfigured,
    },
    logger,
    onceMailer,
  });
  const billingJobs = createBillingJobs({ boss, billing, logger });
  return {
    billing,
    billingJobs,
    jobs: billingJobs.definitions,
    routes: (app: FastifyInstance, { requireUser }: RouteContext) => billingRoutes(app, { billing, requireUser }),
  };
}
