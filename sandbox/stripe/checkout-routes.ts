// Checkout Sessions (create, list, retrieve, expire) and Billing Portal sessions.
import { z } from 'zod';
import { applyMetadata } from './billing-records.ts';
import type { CheckoutSessionInput } from './checkout-sessions.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import { expandParam, formBoolean, formInteger, formMetadata, listParams, parseParams } from './params.ts';
import type { ApiRoute, RouteDeps } from './route-kit.ts';

export function checkoutRoutes({ engine, renderer, state, paginate, checkFilters, retrieveParams }: RouteDeps): ApiRoute[] {
  const checkoutSessionCreateParams = z.strictObject({
    mode: z.enum(['payment', 'setup', 'subscription']),
    customer: z.string().optional(),
    customer_email: z.string().max(800).optional(),
    client_reference_id: z.string().max(200).optional(),
    line_items: z.array(z.strictObject({ price: z.string(), quantity: formInteger.pipe(z.number().int().min(1)).optional() })).optional(),
    success_url: z.string().max(5000).optional(),
    cancel_url: z.string().max(5000).optional(),
    payment_method_collection: z.enum(['always', 'if_required']).optional(),
    allow_promotion_codes: formBoolean.optional(),
    expires_at: formInteger.optional(),
    locale: z.string().optional(),
    metadata: formMetadata.optional(),
    subscription_data: z
      .strictObject({
        trial_period_days: formInteger.pipe(z.number().int().min(1, 'must be at least 1').max(730, 'must be at most 730')).optional(),
        trial_end: formInteger.optional(),
        trial_settings: z
          .strictObject({ end_behavior: z.strictObject({ missing_payment_method: z.enum(['cancel', 'create_invoice', 'pause']) }) })
          .optional(),
        metadata: formMetadata.optional(),
        description: z.string().max(500).optional(),
      })
      .optional(),
    expand: expandParam,
  });

  const checkoutRoutes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/checkout/sessions',
      handle({ params }) {
        const input = parseParams(checkoutSessionCreateParams, params);
        if (input.mode !== 'subscription') {
          throw invalidRequest(`The Stripe sandbox only supports mode=subscription, not mode=${input.mode}.`, { param: 'mode' });
        }
        if (input.customer && input.customer_email) {
          throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', { param: 'customer_email', code: 'parameters_exclusive' });
        }
        const [lineItem, ...otherItems] = input.line_items ?? [];
        if (!lineItem) throw invalidRequest('Missing required param: line_items.', { param: 'line_items', code: 'parameter_missing' });
        if (otherItems.length > 0) throw invalidRequest('The Stripe sandbox sells one plan: pass exactly one line item.', { param: 'line_items[1]' });
        const trial = input.subscription_data;
        if (trial?.trial_period_days !== undefined && trial.trial_end !== undefined) {
          throw invalidRequest('You may only specify one of these parameters: subscription_data[trial_end], subscription_data[trial_period_days].', {
            param: 'subscription_data[trial_end]',
            code: 'parameters_exclusive',
          });
        }
        const sessionInput: CheckoutSessionInput = {
          customer: input.customer ?? null,
          customerEmail: input.customer_email ?? null,
          clientReferenceId: input.client_reference_id ?? null,
          price: lineItem.price,
          quantity: lineItem.quantity ?? 1,
          successUrl: input.success_url ?? null,
          cancelUrl: input.cancel_url ?? null,
          trialPeriodDays: trial?.trial_period_days ?? null,
          trialEnd: trial?.trial_end ?? null,
          // Stripe's default when a trial ends without a card: bill anyway (the invoice then fails).
          trialEndBehavior: trial?.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice',
          paymentMethodCollection: input.payment_method_collection ?? 'always',
          allowPromotionCodes: input.allow_promotion_codes ?? null,
          metadata: input.metadata === undefined ? {} : applyMetadata({}, input.metadata),
          subscriptionMetadata: trial?.metadata === undefined ? {} : applyMetadata({}, trial.metadata),
          subscriptionDescription: trial?.description ?? null,
          expiresAt: input.expires_at ?? null,
          locale: input.locale ?? null,
          paymentLink: null,
        };
        const session = engine.createCheckoutSession(sessionInput);
        return renderer.expand(renderer.checkoutSession(session), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/checkout/sessions',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({ ...listParams, customer: z.string().optional(), status: z.enum(['open', 'complete', 'expired']).optional(), subscription: z.string().optional() }),
          params,
        );
        checkFilters(input);
        const sessions = Object.values(state.checkoutSessions).filter(
          (session) =>
            (input.customer === undefined || session.customer === input.customer) &&
            (input.status === undefined || session.status === input.status) &&
            (input.subscription === undefined || session.subscription === input.subscription),
        );
        return paginate(sessions, input, '/v1/checkout/sessions', renderer.checkoutSession);
      },
    },
    {
      method: 'GET',
      path: '/v1/checkout/sessions/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.checkoutSession(engine.checkoutSessionRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'POST',
      path: '/v1/checkout/sessions/:id/expire',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.checkoutSession(engine.expireCheckoutSession(path.id!)), expand ?? []);
      },
    },
  ];

  const portalRoutes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/billing_portal/sessions',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({
            customer: z.string(),
            return_url: z.string().max(5000).optional(),
            configuration: z.string().optional(),
            locale: z.string().optional(),
            expand: expandParam,
          }),
          params,
        );
        if (input.configuration !== undefined && input.configuration !== state.catalog.portalConfigurationId) {
          throw resourceMissing('billing_portal.configuration', input.configuration, 'configuration');
        }
        const session = engine.createPortalSession(input.customer, input.return_url ?? null, input.locale ?? null);
        return renderer.expand(renderer.portalSession(session), input.expand ?? []);
      },
    },
  ];

  return [...checkoutRoutes, ...portalRoutes];
}
