// Subscriptions: list, retrieve, update (cancel at period end, pending updates), resume and cancel.
import { z } from 'zod';
import { invalidRequest } from './errors.ts';
import { expandParam, formBoolean, formMetadata, formNullableString, listParams, parseParams } from './params.ts';
import type { ApiRoute, RouteDeps } from './route-kit.ts';

const subscriptionStatus = z.enum(['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid']);
const cancellationFeedback = z.enum(['customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused']);
const cancellationDetails = z.strictObject({
  comment: formNullableString.optional(),
  feedback: z.union([z.literal('').transform(() => null), cancellationFeedback]).optional(),
});

/** The parameters Stripe accepts on an update with payment_behavior=pending_if_incomplete (of those the sandbox has). */
const PENDING_UPDATE_PARAMS: ReadonlySet<string> = new Set(['payment_behavior', 'proration_behavior', 'trial_end', 'expand']);

export function subscriptionRoutes({ engine, renderer, state, paginate, checkFilters, retrieveParams }: RouteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/subscriptions',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({ ...listParams, customer: z.string().optional(), price: z.string().optional(), status: subscriptionStatus.optional(), test_clock: z.string().optional() }),
          params,
        );
        checkFilters(input);
        const matchesStatus = (status: string) => {
          switch (input.status) {
            case undefined:
              return status !== 'canceled'; // Stripe leaves canceled subscriptions out unless asked
            case 'all':
              return true;
            case 'ended':
              return status === 'canceled' || status === 'incomplete_expired';
            default:
              return status === input.status;
          }
        };
        const subscriptions = Object.values(state.subscriptions).filter(
          (sub) =>
            (input.customer === undefined || sub.customer === input.customer) &&
            (input.price === undefined || sub.price === input.price) &&
            (input.test_clock === undefined || state.customers[sub.customer]?.testClock === input.test_clock) &&
            matchesStatus(sub.status),
        );
        return paginate(subscriptions, input, '/v1/subscriptions', renderer.subscription);
      },
    },
    {
      method: 'GET',
      path: '/v1/subscriptions/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.subscription(engine.subscriptionRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'POST',
      path: '/v1/subscriptions/:id',
      handle({ params, path }) {
        const input = parseParams(
          z.strictObject({
            cancel_at_period_end: formBoolean.optional(),
            default_payment_method: formNullableString.optional(),
            metadata: formMetadata.optional(),
            description: formNullableString.optional(),
            cancellation_details: cancellationDetails.optional(),
            trial_end: z.literal('now', { error: 'The Stripe sandbox only supports trial_end=now on update.' }).optional(),
            payment_behavior: z
              .enum(['allow_incomplete', 'pending_if_incomplete'], { error: 'The Stripe sandbox supports payment_behavior allow_incomplete and pending_if_incomplete.' })
              .optional(),
            // With one flat-priced item nothing is prorated; accepted because pending updates may pass it.
            proration_behavior: z.enum(['always_invoice', 'create_prorations', 'none']).optional(),
            expand: expandParam,
          }),
          params,
        );
        if (input.payment_behavior === 'pending_if_incomplete') {
          // Stripe's rule: a pending update may only carry the parameters that make or shape its invoice.
          const unsupported = Object.keys(params).find((key) => !PENDING_UPDATE_PARAMS.has(key));
          if (unsupported !== undefined) {
            throw invalidRequest(`When payment_behavior=pending_if_incomplete, ${unsupported} cannot be updated. Only ${[...PENDING_UPDATE_PARAMS].join(', ')} can be passed.`, {
              param: unsupported,
            });
          }
          if (input.trial_end === undefined) {
            throw invalidRequest('The Stripe sandbox makes pending updates of trial_end=now only: pass trial_end=now.', { param: 'trial_end', code: 'parameter_missing' });
          }
        }
        const sub = engine.updateSubscription(path.id!, {
          cancelAtPeriodEnd: input.cancel_at_period_end,
          defaultPaymentMethod: input.default_payment_method,
          metadata: input.metadata,
          description: input.description,
          cancellationComment: input.cancellation_details?.comment,
          cancellationFeedback: input.cancellation_details?.feedback,
          endTrialNow: input.trial_end === 'now' ? true : undefined,
          paymentBehavior: input.payment_behavior,
        });
        return renderer.expand(renderer.subscription(sub), input.expand ?? []);
      },
    },
    {
      method: 'POST',
      path: '/v1/subscriptions/:id/resume',
      handle({ params, path }) {
        const input = parseParams(
          z.strictObject({
            // Resuming with the anchor unchanged would prorate, which the sandbox does not model.
            billing_cycle_anchor: z.strictObject({ type: z.literal('now', { error: 'The Stripe sandbox resumes with billing_cycle_anchor[type]=now only.' }) }).optional(),
            payment_behavior: z.literal('resume_on_payment_attempt', { error: 'The Stripe sandbox resumes with payment_behavior=resume_on_payment_attempt only.' }).optional(),
            // With the anchor reset to now Stripe makes no prorations, so every value means the same here.
            proration_behavior: z.enum(['always_invoice', 'create_prorations', 'none']).optional(),
            expand: expandParam,
          }),
          params,
        );
        return renderer.expand(renderer.subscription(engine.resumeSubscription(path.id!)), input.expand ?? []);
      },
    },
    {
      method: 'DELETE',
      path: '/v1/subscriptions/:id',
      handle({ params, path }) {
        const input = parseParams(
          z.strictObject({
            cancellation_details: cancellationDetails.optional(),
            // Accepted for compatibility: with one flat-priced item there is nothing to prorate or invoice early.
            invoice_now: formBoolean.optional(),
            prorate: formBoolean.optional(),
            expand: expandParam,
          }),
          params,
        );
        const sub = engine.cancelSubscriptionNow(path.id!, input.cancellation_details ?? {});
        return renderer.expand(renderer.subscription(sub), input.expand ?? []);
      },
    },
  ];

  return routes;
}
