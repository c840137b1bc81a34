// The /v1 endpoints the product calls (plus the test helpers), each validating its parameters the way Stripe does
// and answering with rendered Stripe objects, expanded on request.
import { z } from 'zod';
import type { BillingEngine } from './billing-engine.ts';
import { applyMetadata } from './billing-records.ts';
import type { CheckoutSessionInput } from './checkout-sessions.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import type { FormObject } from './form-encoding.ts';
import { listObject, type JsonObject, type Renderer } from './objects.ts';
import { toJson } from './wire.ts';
import { expandParam, formBoolean, formInteger, formMetadata, formNullableString, listParams, parseParams } from './params.ts';
import type { SandboxState } from './state.ts';

export interface ApiRequest {
  /** The decoded form body (POST) or query string (GET, DELETE). */
  params: FormObject;
  /** Named segments of the path, e.g. `id` in `/v1/customers/:id`. */
  path: Record<string, string>;
}

export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  handle(request: ApiRequest): JsonObject;
}

interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  expand?: string[];
}

const subscriptionStatus = z.enum(['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid']);
const cancellationFeedback = z.enum(['customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused']);
const cancellationDetails = z.strictObject({
  comment: formNullableString.optional(),
  feedback: z.union([z.literal('').transform(() => null), cancellationFeedback]).optional(),
});

/** The parameters Stripe accepts on an update with payment_behavior=pending_if_incomplete (of those the sandbox has). */
const PENDING_UPDATE_PARAMS: ReadonlySet<string> = new Set(['payment_behavior', 'proration_behavior', 'trial_end', 'expand']);

export function createApiRoutes({ engine, renderer, state }: { engine: BillingEngine; renderer: Renderer; state: SandboxState }): ApiRoute[] {
  /**
   * Stripe's list semantics: newest first (ties keep creation order, newest first), a page of `limit` (default 10)
   * after `starting_after` or before `ending_before`, and `has_more`.
   */
  function paginate<R extends { id: string; created: number }>(
    records: R[],
    params: ListParams,
    url: string,
    render: (record: R) => object,
  ): JsonObject {
    const ordered = records.map((record, index) => ({ record, index })).sort((a, b) => b.record.created - a.record.created || b.index - a.index);
    const ids = ordered.map(({ record }) => record.id);
    const limit = params.limit ?? 10;
    let page: typeof ordered;
    let hasMore: boolean;
    if (params.ending_before !== undefined) {
      const end = cursorIndex(ids, params.ending_before, 'ending_before');
      page = ordered.slice(Math.max(0, end - limit), end);
      hasMore = end - limit > 0;
    } else {
      const start = params.starting_after === undefined ? 0 : cursorIndex(ids, params.starting_after, 'starting_after') + 1;
      page = ordered.slice(start, start + limit);
      hasMore = start + limit < ordered.length;
    }
    const list = listObject(page.map(({ record }) => render(record)), url, hasMore);
    return renderer.expand(list, params.expand ?? []);
  }

  function cursorIndex(ids: string[], cursor: string, param: string): number {
    const index = ids.indexOf(cursor);
    if (index === -1) throw invalidRequest(`Invalid ${param}: no object with id '${cursor}' in this list.`, { param });
    return index;
  }

  /**
   * Like Stripe, a list filtered by an unknown customer or subscription is an error, not an empty list. A deleted
   * customer is known: its invoices and subscriptions stay listable (Stripe keeps deleted customers' history).
   */
  function checkFilters(filters: { customer?: string; subscription?: string }): void {
    if (filters.customer !== undefined && !state.customers[filters.customer]) throw resourceMissing('customer', filters.customer, 'customer');
    if (filters.subscription !== undefined && !state.subscriptions[filters.subscription]) {
      throw resourceMissing('subscription', filters.subscription, 'subscription');
    }
  }

  const found = <R>(record: R | undefined, noun: string, id: string): R => {
    if (!record) throw resourceMissing(noun, id);
    return record;
  };

  const retrieveParams = z.strictObject({ expand: expandParam });

  const customerRoutes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/customers',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({
            email: z.string().max(512).optional(),
            name: z.string().max(256).optional(),
            description: z.string().optional(),
            phone: z.string().max(20).optional(),
            metadata: formMetadata.optional(),
            test_clock: z.string().optional(),
            expand: expandParam,
          }),
          params,
        );
        const customer = engine.createCustomer({
          email: input.email || null,
          name: input.name || null,
          description: input.description || null,
          phone: input.phone || null,
          metadata: input.metadata === undefined ? {} : applyMetadata({}, input.metadata),
          testClock: input.test_clock ?? null,
        });
        return renderer.expand(renderer.customer(customer), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, email: z.string().max(512).optional(), test_clock: z.string().optional() }), params);
        // Stripe's email filter is exact and case-sensitive; deleted customers are not listed.
        const customers = Object.values(state.customers).filter(
          (customer) =>
            !customer.deleted && (input.email === undefined || customer.email === input.email) && (input.test_clock === undefined || customer.testClock === input.test_clock),
        );
        return paginate(customers, input, '/v1/customers', renderer.customer);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        // "Unlike other objects, deleted customers can still be retrieved": as { id, object, deleted: true }.
        const record = state.customers[path.id!];
        if (record?.deleted) return toJson(renderer.deletedCustomer(record));
        return renderer.expand(renderer.customer(engine.customerRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'DELETE',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        // Stripe's delete takes no parameters; a second delete finds no such customer.
        parseParams(z.strictObject({}), params);
        return toJson(renderer.deletedCustomer(engine.deleteCustomer(path.id!)));
      },
    },
    {
      method: 'POST',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        const input = parseParams(
          z.strictObject({
            email: formNullableString.optional(),
            name: formNullableString.optional(),
            description: formNullableString.optional(),
            phone: formNullableString.optional(),
            metadata: formMetadata.optional(),
            invoice_settings: z.strictObject({ default_payment_method: formNullableString.optional() }).optional(),
            expand: expandParam,
          }),
          params,
        );
        const customer = engine.updateCustomer(path.id!, {
          email: input.email,
          name: input.name,
          description: input.description,
          phone: input.phone,
          metadata: input.metadata,
          defaultPaymentMethod: input.invoice_settings?.default_payment_method,
        });
        return renderer.expand(renderer.customer(customer), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers/:id/payment_methods',
      handle({ params, path }) {
        const input = parseParams(z.strictObject({ ...listParams, type: z.string().optional() }), params);
        const customer = engine.customerRecord(path.id!);
        const cards = Object.values(state.paymentMethods).filter((pm) => pm.customer === customer.id && (input.type === undefined || (pm.type ?? 'card') === input.type));
        return paginate(cards, input, `/v1/customers/${customer.id}/payment_methods`, renderer.paymentMethod);
      },
    },
  ];

  const paymentMethodRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/payment_methods',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, customer: z.string().optional(), type: z.string().optional() }), params);
        checkFilters(input);
        const cards = Object.values(state.paymentMethods).filter(
          (pm) => (input.customer === undefined || pm.customer === input.customer) && (input.type === undefined || (pm.type ?? 'card') === input.type),
        );
        return paginate(cards, input, '/v1/payment_methods', renderer.paymentMethod);
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_methods/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        const paymentMethod = found(state.paymentMethods[path.id!], 'PaymentMethod', path.id!);
        return renderer.expand(renderer.paymentMethod(paymentMethod), expand ?? []);
      },
    },
  ];

  const catalogRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/prices/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        if (path.id !== state.catalog.priceId) throw resourceMissing('price', path.id!);
        return renderer.expand(renderer.price(), expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/products/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        if (path.id !== state.catalog.productId) throw resourceMissing('product', path.id!);
        return renderer.expand(renderer.product(), expand ?? []);
      },
    },
  ];

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

  const subscriptionRoutes: ApiRoute[] = [
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

  const invoiceRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/invoices',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({
            ...listParams,
            customer: z.string().optional(),
            subscription: z.string().optional(),
            status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
          }),
          params,
        );
        checkFilters(input);
        const invoices = Object.values(state.invoices).filter(
          (invoice) =>
            (input.customer === undefined || invoice.customer === input.customer) &&
            (input.subscription === undefined || invoice.subscription === input.subscription) &&
            (input.status === undefined || invoice.status === input.status),
        );
        return paginate(invoices, input, '/v1/invoices', renderer.invoice);
      },
    },
    {
      method: 'GET',
      path: '/v1/invoices/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.invoice(found(state.invoices[path.id!], 'invoice', path.id!)), expand ?? []);
      },
    },
  ];

  const eventRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/events',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, type: z.string().optional(), types: z.array(z.string()).optional() }), params);
        // `type` may end in a wildcard, as in Stripe: `invoice.*`.
        const matchesType = (type: string) =>
          (input.type === undefined || (input.type.endsWith('*') ? type.startsWith(input.type.slice(0, -1)) : type === input.type)) &&
          (input.types === undefined || input.types.includes(type));
        const events = Object.values(state.events).filter((event) => matchesType(event.type));
        return paginate(events, input, '/v1/events', (event) => event);
      },
    },
    {
      method: 'GET',
      path: '/v1/events/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(found(state.events[path.id!], 'event', path.id!), expand ?? []);
      },
    },
  ];

  const frozenTimeParams = z.strictObject({ frozen_time: formInteger, expand: expandParam });

  const testHelperRoutes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/test_helpers/test_clocks',
      handle({ params }) {
        const input = parseParams(z.strictObject({ frozen_time: formInteger, name: z.string().max(300).optional(), expand: expandParam }), params);
        return renderer.expand(renderer.testClock(engine.createTestClock(input.frozen_time, input.name ?? null)), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/test_helpers/test_clocks',
      handle({ params }) {
        const input = parseParams(z.strictObject(listParams), params);
        return paginate(Object.values(state.testClocks), input, '/v1/test_helpers/test_clocks', renderer.testClock);
      },
    },
    {
      method: 'GET',
      path: '/v1/test_helpers/test_clocks/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.testClock(engine.testClockRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/test_clocks/:id/advance',
      handle({ params, path }) {
        const input = parseParams(frozenTimeParams, params);
        return renderer.expand(renderer.testClock(engine.advanceTestClock(path.id!, input.frozen_time)), input.expand ?? []);
      },
    },
    {
      // Sandbox extension: advances the customer's own clock (or its test clock) and answers with the customer.
      method: 'POST',
      path: '/v1/test_helpers/customers/:id/advance_clock',
      handle({ params, path }) {
        const input = parseParams(frozenTimeParams, params);
        engine.advanceCustomerClock(path.id!, input.frozen_time);
        return renderer.expand(renderer.customer(engine.customerRecord(path.id!)), input.expand ?? []);
      },
    },
  ];

  return [
    ...customerRoutes,
    ...paymentMethodRoutes,
    ...catalogRoutes,
    ...checkoutRoutes,
    ...portalRoutes,
    ...subscriptionRoutes,
    ...invoiceRoutes,
    ...eventRoutes,
    ...testHelperRoutes,
  ];
}
