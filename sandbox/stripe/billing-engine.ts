// What Stripe Billing does to the records: checkout creates a subscription, and as a customer's clock moves,
// trials end, periods renew, charges succeed or fail, failed invoices are retried and finally give up.
// Every change emits the events Stripe would emit, stamped with the customer's clock.
//
// Clocks. Each customer has a clock. A customer created with `test_clock` shares that Stripe test clock (frozen
// until advanced, like Stripe's). Every other customer runs on its own clock: the wall clock plus an offset that
// only `advanceCustomerClock` grows, so advancing one customer never moves another. Work that falls due is done
// lazily, in time order, whenever the sandbox settles (before each request, and on a timer).
import type Stripe from 'stripe';
import { PLAN } from '#contract/billing.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import { API_VERSION, type Renderer } from './objects.ts';
import {
  newId,
  randomAlphanumeric,
  type CheckoutSessionRecord,
  type CustomerRecord,
  type InvoiceRecord,
  type PaymentMethodRecord,
  type PortalSessionRecord,
  type SandboxStore,
  type SubscriptionRecord,
  type TestClockRecord,
  type TrialEndBehavior,
} from './state.ts';
import type { CardDetails } from './test-cards.ts';

const DAY = 86_400;
/** Stripe sends `customer.subscription.trial_will_end` three days before the trial ends. */
const TRIAL_WILL_END_NOTICE = 3 * DAY;
/** An unpaid first invoice leaves the subscription `incomplete` for 23 hours, then it expires. */
const INCOMPLETE_EXPIRY = 23 * 3600;
/** Checkout sessions expire after 24 hours unless told otherwise. */
const CHECKOUT_SESSION_LIFETIME = DAY;
/**
 * Retries of a failed renewal, in days after the first failure (a custom retry schedule in Stripe's settings).
 * When the last one fails, the subscription is canceled and the invoice marked uncollectible: Stripe's default
 * "cancel the subscription if all retries fail".
 */
const RETRY_SCHEDULE_DAYS = [3, 5, 7];

type EventType = Stripe.Event['type'];
type EventOf<T extends EventType> = Extract<Stripe.Event, { type: T }>;
type EventObject<T extends EventType> = EventOf<T>['data']['object'];

export interface RequestOrigin {
  id: string;
  idempotencyKey: string | null;
}

export interface CustomerInput {
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
}

export interface CustomerChanges {
  email?: string | null;
  name?: string | null;
  description?: string | null;
  phone?: string | null;
  metadata?: MetadataUpdate;
  defaultPaymentMethod?: string | null;
}

/** Stripe's metadata update: keys merge, an empty value removes its key, an empty string clears everything. */
export type MetadataUpdate = Record<string, string> | '';

/** What a create call decides about a session: the stored record's own fields, and an optional expiry. */
export type CheckoutSessionInput = Pick<
  CheckoutSessionRecord,
  'customer'
  | 'customerEmail'
  | 'clientReferenceId'
  | 'price'
  | 'quantity'
  | 'successUrl'
  | 'cancelUrl'
  | 'trialPeriodDays'
  | 'trialEnd'
  | 'trialEndBehavior'
  | 'paymentMethodCollection'
  | 'allowPromotionCodes'
  | 'metadata'
  | 'subscriptionMetadata'
  | 'subscriptionDescription'
  | 'locale'
  | 'paymentLink'
> & { expiresAt: number | null };

export interface SubscriptionChanges {
  cancelAtPeriodEnd?: boolean;
  defaultPaymentMethod?: string | null;
  metadata?: MetadataUpdate;
  description?: string | null;
  cancellationComment?: string | null;
  cancellationFeedback?: Stripe.Subscription.CancellationDetails.Feedback | null;
  endTrialNow?: boolean;
}

export interface BillingEngineOptions {
  store: SandboxStore;
  renderer: Renderer;
  wallClock: () => Date;
  /** Called with each new event (already stored) to deliver it; ordered per customer. */
  publish(event: Stripe.Event, orderingKey: string): void;
}

export type BillingEngine = ReturnType<typeof createBillingEngine>;

export function createBillingEngine({ store, renderer, wallClock, publish }: BillingEngineOptions) {
  const { state } = store;
  let origin: RequestOrigin | null = null;

  const wallNow = () => Math.floor(wallClock().getTime() / 1000);

  // ---- lookups ---------------------------------------------------------------------------------------------

  function customerRecord(id: string, param?: string): CustomerRecord {
    const record = state.customers[id];
    if (!record) throw resourceMissing('customer', id, param);
    return record;
  }

  function subscriptionRecord(id: string): SubscriptionRecord {
    const record = state.subscriptions[id];
    if (!record) throw resourceMissing('subscription', id);
    return record;
  }

  function testClockRecord(id: string, param?: string): TestClockRecord {
    const record = state.testClocks[id];
    if (!record) throw resourceMissing('test_helpers.test_clock', id, param);
    return record;
  }

  function attachedPaymentMethod(customerId: string, paymentMethodId: string, param: string): PaymentMethodRecord {
    const record = state.paymentMethods[paymentMethodId];
    if (!record) throw resourceMissing('PaymentMethod', paymentMethodId, param);
    if (record.customer !== customerId) {
      throw invalidRequest(`The PaymentMethod ${paymentMethodId} is not attached to customer ${customerId}.`, { param });
    }
    return record;
  }

  const subscriptionsOf = (customerId: string) => Object.values(state.subscriptions).filter((sub) => sub.customer === customerId);
  const openInvoicesOf = (subscriptionId: string) =>
    Object.values(state.invoices).filter((invoice) => invoice.subscription === subscriptionId && invoice.status === 'open');

  /** The customer's clock, in unix seconds. */
  function customerNow(customerId: string): number {
    const customer = customerRecord(customerId);
    return customer.testClock ? testClockRecord(customer.testClock).frozenTime : wallNow() + customer.clockOffset;
  }

  // ---- events ----------------------------------------------------------------------------------------------

  function emit<T extends EventType>(type: T, object: EventObject<T>, orderingKey: string, at: number, previousAttributes?: object): void {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: at,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: origin?.id ?? null, idempotency_key: origin?.idempotencyKey ?? null },
      type,
      // One cast: TypeScript cannot narrow the `Stripe.Event` union by a generic `type`; `emit`'s signature
      // already ties `object` to the event type.
    } as EventOf<T>;
    state.events[event.id] = event;
    store.markChanged();
    publish(event, orderingKey);
  }

  /** The fields of `before` that differ in `after`: Stripe's `previous_attributes`. */
  function previousAttributes<T extends object>(before: T, after: T): Partial<T> {
    const beforeJson = JSON.parse(JSON.stringify(before)) as Record<string, unknown>;
    const afterJson = JSON.parse(JSON.stringify(after)) as Record<string, unknown>;
    const changed = Object.keys(beforeJson).filter((key) => JSON.stringify(beforeJson[key]) !== JSON.stringify(afterJson[key]));
    return Object.fromEntries(changed.map((key) => [key, beforeJson[key]])) as Partial<T>;
  }

  /** Applies `mutate` and emits `customer.subscription.updated` if anything visible changed. */
  function changeSubscription(sub: SubscriptionRecord, at: number, mutate: () => void): void {
    const before = renderer.subscription(sub);
    mutate();
    store.markChanged();
    const after = renderer.subscription(sub);
    const previous = previousAttributes(before, after);
    if (Object.keys(previous).length > 0) emit('customer.subscription.updated', after, sub.customer, at, previous);
  }

  function changeCustomer(customer: CustomerRecord, at: number, mutate: () => void): void {
    const before = renderer.customer(customer);
    mutate();
    store.markChanged();
    const after = renderer.customer(customer);
    const previous = previousAttributes(before, after);
    if (Object.keys(previous).length > 0) emit('customer.updated', after, customer.id, at, previous);
  }

  // ---- customers and clocks --------------------------------------------------------------------------------

  function createCustomer(input: CustomerInput): CustomerRecord {
    const clock = input.testClock ? testClockRecord(input.testClock, 'test_clock') : null;
    const created = clock ? clock.frozenTime : wallNow();
    const customer: CustomerRecord = {
      id: newId('cus', 14),
      created,
      email: input.email,
      name: input.name,
      description: input.description,
      phone: input.phone,
      metadata: input.metadata,
      testClock: clock?.id ?? null,
      clockOffset: 0,
      defaultPaymentMethod: null,
      invoicePrefix: randomAlphanumeric(8).toUpperCase(),
      nextInvoiceSequence: 1,
    };
    state.customers[customer.id] = customer;
    store.markChanged();
    emit('customer.created', renderer.customer(customer), customer.id, created);
    return customer;
  }

  function updateCustomer(id: string, changes: CustomerChanges): CustomerRecord {
    const customer = customerRecord(id);
    if (changes.defaultPaymentMethod) attachedPaymentMethod(id, changes.defaultPaymentMethod, 'invoice_settings[default_payment_method]');
    changeCustomer(customer, customerNow(id), () => {
      if (changes.email !== undefined) customer.email = changes.email;
      if (changes.name !== undefined) customer.name = changes.name;
      if (changes.description !== undefined) customer.description = changes.description;
      if (changes.phone !== undefined) customer.phone = changes.phone;
      if (changes.metadata !== undefined) customer.metadata = applyMetadata(customer.metadata, changes.metadata);
      if (changes.defaultPaymentMethod !== undefined) customer.defaultPaymentMethod = changes.defaultPaymentMethod;
    });
    return customer;
  }

  function createTestClock(frozenTime: number, name: string | null): TestClockRecord {
    const clock: TestClockRecord = { id: newId('clock'), created: wallNow(), name, frozenTime };
    state.testClocks[clock.id] = clock;
    store.markChanged();
    return clock;
  }

  function advanceTestClock(id: string, frozenTime: number): TestClockRecord {
    const clock = testClockRecord(id);
    if (frozenTime <= clock.frozenTime) {
      throw invalidRequest('The test clock can only be advanced to a time after its current frozen_time.', { param: 'frozen_time' });
    }
    clock.frozenTime = frozenTime;
    store.markChanged();
    for (const customer of Object.values(state.customers)) {
      if (customer.testClock === id) settleCustomer(customer.id);
    }
    return clock;
  }

  /** Moves one customer's clock forward to `to` (unix seconds) and does everything that fell due meanwhile. */
  function advanceCustomerClock(customerId: string, to: number): void {
    const customer = customerRecord(customerId);
    if (customer.testClock) {
      advanceTestClock(customer.testClock, to);
      return;
    }
    if (to <= customerNow(customerId)) {
      throw invalidRequest("The customer's clock can only be advanced to a time after its current time.", { param: 'frozen_time' });
    }
    customer.clockOffset = to - wallNow();
    store.markChanged();
    settleCustomer(customerId);
  }

  // ---- payment methods -------------------------------------------------------------------------------------

  function attachCard(customer: CustomerRecord, card: CardDetails, at: number): PaymentMethodRecord {
    const paymentMethod: PaymentMethodRecord = {
      id: newId('pm'),
      created: at,
      customer: customer.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      fingerprint: card.fingerprint,
      chargesFail: card.chargesFail,
      billingEmail: customer.email,
    };
    state.paymentMethods[paymentMethod.id] = paymentMethod;
    store.markChanged();
    emit('payment_method.attached', renderer.paymentMethod(paymentMethod), customer.id, at);
    return paymentMethod;
  }

  /** The card a subscription charges: its own default, else the customer's. */
  function paymentMethodFor(sub: SubscriptionRecord): PaymentMethodRecord | null {
    const customer = customerRecord(sub.customer);
    for (const id of [sub.defaultPaymentMethod, customer.defaultPaymentMethod]) {
      const paymentMethod = id ? state.paymentMethods[id] : undefined;
      if (paymentMethod?.customer === customer.id) return paymentMethod;
    }
    return null;
  }

  /**
   * The portal's "replace card": the new card becomes the default of the customer and of its live subscriptions,
   * the cards it replaces are detached, and open invoices of past-due subscriptions are retried with it.
   */
  function replaceDefaultCard(customerId: string, card: CardDetails): void {
    const customer = customerRecord(customerId);
    const at = customerNow(customerId);
    const liveSubscriptions = subscriptionsOf(customerId).filter((sub) => !isEnded(sub));
    const replaced = new Set([customer.defaultPaymentMethod, ...liveSubscriptions.map((sub) => sub.defaultPaymentMethod)]);
    const paymentMethod = attachCard(customer, card, at);
    changeCustomer(customer, at, () => {
      customer.defaultPaymentMethod = paymentMethod.id;
    });
    for (const sub of liveSubscriptions) {
      if (sub.defaultPaymentMethod) {
        changeSubscription(sub, at, () => {
          sub.defaultPaymentMethod = paymentMethod.id;
        });
      }
    }
    for (const id of replaced) {
      const old = id ? state.paymentMethods[id] : undefined;
      if (old?.customer !== customerId) continue;
      old.customer = null;
      emit('payment_method.detached', renderer.paymentMethod(old), customerId, at, { customer: customerId });
    }
    for (const sub of liveSubscriptions) {
      if (sub.status === 'past_due') for (const invoice of openInvoicesOf(sub.id)) payInvoice(invoice.id);
    }
  }

  // ---- checkout and portal ---------------------------------------------------------------------------------

  function createCheckoutSession(input: CheckoutSessionInput): CheckoutSessionRecord {
    if (input.customer) customerRecord(input.customer, 'customer');
    if (input.price !== state.catalog.priceId) throw resourceMissing('price', input.price, 'line_items[0][price]');
    const created = input.customer ? customerNow(input.customer) : wallNow();
    if (input.trialEnd !== null && input.trialEnd < created + 2 * DAY) {
      throw invalidRequest('subscription_data[trial_end] must be at least 48 hours in the future.', { param: 'subscription_data[trial_end]' });
    }
    if (input.expiresAt !== null && (input.expiresAt < created + 1800 || input.expiresAt > created + DAY)) {
      throw invalidRequest('expires_at must be between 30 minutes and 24 hours from the session creation.', { param: 'expires_at' });
    }
    const session: CheckoutSessionRecord = {
      id: newId('cs_test', 58),
      created,
      expiresAt: input.expiresAt ?? created + CHECKOUT_SESSION_LIFETIME,
      status: 'open',
      paymentStatus: 'unpaid',
      customer: input.customer,
      customerCreation: input.customer ? null : 'always',
      customerEmail: input.customerEmail,
      clientReferenceId: input.clientReferenceId,
      price: input.price,
      quantity: input.quantity,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      trialPeriodDays: input.trialPeriodDays,
      trialEnd: input.trialEnd,
      trialEndBehavior: input.trialEndBehavior,
      paymentMethodCollection: input.paymentMethodCollection,
      allowPromotionCodes: input.allowPromotionCodes,
      metadata: input.metadata,
      subscriptionMetadata: input.subscriptionMetadata,
      subscriptionDescription: input.subscriptionDescription,
      subscription: null,
      paymentLink: input.paymentLink,
      locale: input.locale,
    };
    state.checkoutSessions[session.id] = session;
    store.markChanged();
    return session;
  }

  function checkoutSessionRecord(id: string): CheckoutSessionRecord {
    const record = state.checkoutSessions[id];
    if (!record) throw resourceMissing('checkout.session', id);
    return record;
  }

  /** Whether the session's subscription starts with a trial (then a card is optional with `if_required`). */
  const sessionHasTrial = (session: CheckoutSessionRecord) => session.trialPeriodDays !== null || session.trialEnd !== null;

  /**
   * What the hosted checkout page's Subscribe does: creates the customer if needed, attaches the card, starts the
   * subscription (trialing, or charged at once), and completes the session.
   */
  function completeCheckout(sessionId: string, payer: { email: string | null; card: CardDetails | null }): CheckoutSessionRecord {
    const session = checkoutSessionRecord(sessionId);
    if (session.status !== 'open') throw invalidRequest(`This Checkout Session is ${session.status}.`);
    const customer = session.customer
      ? customerRecord(session.customer)
      : createCustomer({ email: payer.email ?? session.customerEmail, name: null, description: null, phone: null, metadata: {}, testClock: null });
    const at = customerNow(customer.id);

    // Like Stripe Checkout, the card becomes the subscription's default_payment_method only: the customer's
    // invoice_settings.default_payment_method stays as it was.
    const paymentMethod = payer.card ? attachCard(customer, payer.card, at) : null;

    const trialEnd = session.trialEnd ?? (session.trialPeriodDays ? at + session.trialPeriodDays * DAY : null);
    const periodEnd = trialEnd ?? addMonths(at, 1);
    const sub: SubscriptionRecord = {
      id: newId('sub'),
      itemId: newId('si', 14),
      itemCreated: at,
      customer: customer.id,
      price: session.price,
      quantity: session.quantity,
      created: at,
      status: trialEnd ? 'trialing' : 'incomplete',
      billingCycleAnchor: trialEnd ?? at,
      currentPeriodStart: at,
      currentPeriodEnd: periodEnd,
      trialStart: trialEnd ? at : null,
      trialEnd,
      trialEndBehavior: session.trialEndBehavior,
      trialWillEndSent: false,
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      cancellationReason: null,
      cancellationComment: null,
      cancellationFeedback: null,
      defaultPaymentMethod: paymentMethod?.id ?? null,
      latestInvoice: null,
      description: session.subscriptionDescription,
      metadata: { ...session.subscriptionMetadata },
    };
    state.subscriptions[sub.id] = sub;
    store.markChanged();

    const invoice = draftInvoice(sub, 'subscription_create', at, { start: at, end: periodEnd, isTrial: trialEnd !== null });
    sub.latestInvoice = invoice.id;
    emit('customer.subscription.created', renderer.subscription(sub), customer.id, at);
    issueInvoice(invoice, at);
    const paid = attemptPayment(invoice, at, { scheduleRetries: false });
    if (!trialEnd && paid) {
      changeSubscription(sub, at, () => {
        sub.status = 'active';
      });
    }

    session.status = 'complete';
    session.customer = customer.id;
    session.subscription = sub.id;
    session.paymentStatus = trialEnd ? 'no_payment_required' : paid ? 'paid' : 'unpaid';
    store.markChanged();
    emit('checkout.session.completed', renderer.checkoutSession(session), customer.id, at);
    settleCustomer(customer.id);
    return session;
  }

  function expireCheckoutSession(id: string): CheckoutSessionRecord {
    const session = checkoutSessionRecord(id);
    if (session.status !== 'open') {
      throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`);
    }
    expireSession(session, session.customer ? customerNow(session.customer) : wallNow());
    return session;
  }

  function expireSession(session: CheckoutSessionRecord, at: number): void {
    session.status = 'expired';
    store.markChanged();
    emit('checkout.session.expired', renderer.checkoutSession(session), session.customer ?? session.id, at);
  }

  function createPortalSession(customerId: string, returnUrl: string | null, locale: PortalSessionRecord['locale']): PortalSessionRecord {
    customerRecord(customerId, 'customer');
    const session: PortalSessionRecord = { id: newId('bps'), created: customerNow(customerId), customer: customerId, returnUrl, locale };
    state.portalSessions[session.id] = session;
    store.markChanged();
    return session;
  }

  // ---- invoices and charges --------------------------------------------------------------------------------

  /** A new draft invoice for the subscription's next line; `issueInvoice` announces and finalizes it. */
  function draftInvoice(
    sub: SubscriptionRecord,
    billingReason: InvoiceRecord['billingReason'],
    at: number,
    line: { start: number; end: number; isTrial: boolean },
  ): InvoiceRecord {
    const customer = customerRecord(sub.customer);
    const invoice: InvoiceRecord = {
      id: newId('in'),
      lineItemId: newId('il'),
      customer: customer.id,
      customerEmail: customer.email,
      customerName: customer.name,
      subscription: sub.id,
      subscriptionItem: sub.itemId,
      subscriptionMetadata: { ...sub.metadata },
      price: sub.price,
      quantity: sub.quantity,
      billingReason,
      isTrial: line.isTrial,
      created: at,
      linePeriodStart: line.start,
      linePeriodEnd: line.end,
      number: null,
      status: 'draft',
      amountDue: line.isTrial ? 0 : PLAN.priceCents * sub.quantity,
      amountPaid: 0,
      attemptCount: 0,
      nextPaymentAttempt: null,
      firstFailedAt: null,
      finalizedAt: null,
      paidAt: null,
      voidedAt: null,
      markedUncollectibleAt: null,
      paymentMethod: null,
    };
    state.invoices[invoice.id] = invoice;
    store.markChanged();
    return invoice;
  }

  /**
   * `invoice.created`, then numbers the invoice and opens it for payment (`invoice.finalized`). Stripe waits about
   * an hour between the two for renewals; the sandbox does not.
   */
  function issueInvoice(invoice: InvoiceRecord, at: number): void {
    const customer = customerRecord(invoice.customer);
    emit('invoice.created', renderer.invoice(invoice), customer.id, at);
    invoice.number = `${customer.invoicePrefix}-${String(customer.nextInvoiceSequence).padStart(4, '0')}`;
    customer.nextInvoiceSequence += 1;
    invoice.status = 'open';
    invoice.finalizedAt = at;
    store.markChanged();
    emit('invoice.finalized', renderer.invoice(invoice), customer.id, at);
  }

  /**
   * Charges an open invoice with the subscription's card. A $0 invoice is simply paid. `scheduleRetries` says
   * whether a failure books the next automatic retry (renewals do; a first invoice or a manual attempt does not).
   */
  function attemptPayment(invoice: InvoiceRecord, at: number, { scheduleRetries }: { scheduleRetries: boolean }): boolean {
    const sub = subscriptionRecord(invoice.subscription);
    const paymentMethod = invoice.amountDue > 0 ? paymentMethodFor(sub) : null;
    const succeeds = invoice.amountDue === 0 || (paymentMethod !== null && !paymentMethod.chargesFail);
    if (invoice.amountDue > 0) invoice.attemptCount += 1;
    store.markChanged();
    if (succeeds) {
      invoice.status = 'paid';
      invoice.amountPaid = invoice.amountDue;
      invoice.paidAt = at;
      invoice.nextPaymentAttempt = null;
      invoice.paymentMethod = paymentMethod?.id ?? null;
      emit('invoice.paid', renderer.invoice(invoice), invoice.customer, at);
      emit('invoice.payment_succeeded', renderer.invoice(invoice), invoice.customer, at);
      return true;
    }
    if (scheduleRetries) {
      const firstFailedAt = (invoice.firstFailedAt ??= at);
      // The next slot of the schedule still ahead, so manual attempts in between do not shift it.
      invoice.nextPaymentAttempt = RETRY_SCHEDULE_DAYS.map((days) => firstFailedAt + days * DAY).find((time) => time > at) ?? null;
    }
    emit('invoice.payment_failed', renderer.invoice(invoice), invoice.customer, at);
    return false;
  }

  /** The portal's "Pay" on an open invoice: one attempt now; a paid invoice brings its subscription back to active. */
  function payInvoice(invoiceId: string): boolean {
    const invoice = state.invoices[invoiceId];
    if (!invoice) throw resourceMissing('invoice', invoiceId);
    if (invoice.status !== 'open') throw invalidRequest('Invoice is already paid or no longer payable.');
    const at = customerNow(invoice.customer);
    const paid = attemptPayment(invoice, at, { scheduleRetries: false });
    const sub = subscriptionRecord(invoice.subscription);
    const recoverable = sub.status === 'past_due' || sub.status === 'incomplete';
    if (paid && recoverable && openInvoicesOf(sub.id).length === 0) {
      changeSubscription(sub, at, () => {
        sub.status = 'active';
      });
    }
    return paid;
  }

  // ---- subscription changes --------------------------------------------------------------------------------

  function updateSubscription(id: string, changes: SubscriptionChanges): SubscriptionRecord {
    const sub = subscriptionRecord(id);
    const touchesBilling =
      changes.cancelAtPeriodEnd !== undefined || changes.defaultPaymentMethod !== undefined || changes.endTrialNow !== undefined;
    if (isEnded(sub) && touchesBilling) {
      throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
    }
    if (changes.defaultPaymentMethod) attachedPaymentMethod(sub.customer, changes.defaultPaymentMethod, 'default_payment_method');
    if (changes.endTrialNow && sub.status !== 'trialing') {
      throw invalidRequest('trial_end can only be set to now on a subscription that is trialing.', { param: 'trial_end' });
    }
    const at = customerNow(sub.customer);
    changeSubscription(sub, at, () => {
      if (changes.cancelAtPeriodEnd === true) {
        sub.cancelAtPeriodEnd = true;
        sub.cancelAt = sub.currentPeriodEnd;
        // Stripe's canceled_at is the time of the request, even though the subscription ends later.
        sub.canceledAt = at;
        sub.cancellationReason = 'cancellation_requested';
      } else if (changes.cancelAtPeriodEnd === false) {
        sub.cancelAtPeriodEnd = false;
        sub.cancelAt = null;
        sub.canceledAt = null;
        sub.cancellationReason = null;
      }
      if (changes.defaultPaymentMethod !== undefined) sub.defaultPaymentMethod = changes.defaultPaymentMethod;
      if (changes.metadata !== undefined) sub.metadata = applyMetadata(sub.metadata, changes.metadata);
      if (changes.description !== undefined) sub.description = changes.description;
      if (changes.cancellationComment !== undefined) sub.cancellationComment = changes.cancellationComment;
      if (changes.cancellationFeedback !== undefined) sub.cancellationFeedback = changes.cancellationFeedback;
      if (changes.endTrialNow) {
        sub.trialEnd = at;
        sub.currentPeriodEnd = at;
        if (sub.cancelAtPeriodEnd) sub.cancelAt = at;
      }
    });
    settleCustomer(sub.customer);
    return sub;
  }

  /** DELETE /v1/subscriptions/:id — ends the subscription now. */
  function cancelSubscriptionNow(
    id: string,
    details: { comment?: string | null; feedback?: Stripe.Subscription.CancellationDetails.Feedback | null } = {},
  ): SubscriptionRecord {
    const sub = subscriptionRecord(id);
    if (isEnded(sub)) throw invalidRequest(`This subscription is already ${sub.status}.`);
    const at = customerNow(sub.customer);
    if (details.comment !== undefined) sub.cancellationComment = details.comment;
    if (details.feedback !== undefined) sub.cancellationFeedback = details.feedback;
    endSubscription(sub, at, 'cancellation_requested', { requestedAt: at });
    return sub;
  }

  function endSubscription(
    sub: SubscriptionRecord,
    at: number,
    reason: Stripe.Subscription.CancellationDetails.Reason | null,
    { requestedAt }: { requestedAt: number | null },
  ): void {
    sub.status = 'canceled';
    sub.endedAt = at;
    sub.canceledAt = requestedAt ?? sub.canceledAt ?? at;
    sub.cancellationReason = reason ?? sub.cancellationReason;
    store.markChanged();
    emit('customer.subscription.deleted', renderer.subscription(sub), sub.customer, at);
  }

  /** Bills the next period: a new invoice, charged at once; active when paid, past_due when not. */
  function startNextPeriod(sub: SubscriptionRecord, at: number): void {
    const end = nextPeriodEnd(sub.billingCycleAnchor, at);
    changeSubscription(sub, at, () => {
      sub.currentPeriodStart = at;
      sub.currentPeriodEnd = end;
      const invoice = draftInvoice(sub, 'subscription_cycle', at, { start: at, end, isTrial: false });
      issueInvoice(invoice, at);
      sub.latestInvoice = invoice.id;
      sub.status = attemptPayment(invoice, at, { scheduleRetries: true }) ? 'active' : 'past_due';
    });
  }

  function endTrial(sub: SubscriptionRecord, at: number): void {
    if (paymentMethodFor(sub) || sub.trialEndBehavior === 'create_invoice') {
      sub.billingCycleAnchor = at;
      startNextPeriod(sub, at);
      return;
    }
    if (sub.trialEndBehavior === 'pause') {
      changeSubscription(sub, at, () => {
        sub.status = 'paused';
      });
      emit('customer.subscription.paused', renderer.subscription(sub), sub.customer, at);
      return;
    }
    endSubscription(sub, at, null, { requestedAt: null });
  }

  function retryPayment(sub: SubscriptionRecord, invoice: InvoiceRecord, at: number): void {
    if (attemptPayment(invoice, at, { scheduleRetries: true })) {
      if (openInvoicesOf(sub.id).length === 0) {
        changeSubscription(sub, at, () => {
          sub.status = 'active';
        });
      }
      return;
    }
    if (invoice.nextPaymentAttempt !== null) return;
    invoice.status = 'uncollectible';
    invoice.markedUncollectibleAt = at;
    emit('invoice.marked_uncollectible', renderer.invoice(invoice), invoice.customer, at);
    endSubscription(sub, at, 'payment_failed', { requestedAt: null });
  }

  function expireIncomplete(sub: SubscriptionRecord, at: number): void {
    for (const invoice of openInvoicesOf(sub.id)) {
      invoice.status = 'void';
      invoice.voidedAt = at;
      emit('invoice.voided', renderer.invoice(invoice), invoice.customer, at);
    }
    changeSubscription(sub, at, () => {
      sub.status = 'incomplete_expired';
      sub.endedAt = at;
    });
  }

  // ---- settling: doing what fell due -----------------------------------------------------------------------

  interface DueAction {
    at: number;
    /** Breaks ties at the same instant: the notice before the cancel before the charge. */
    rank: number;
    run(): void;
  }

  function nextActionOf(sub: SubscriptionRecord): DueAction | null {
    const actions: DueAction[] = [];
    const add = (at: number | null, rank: number, run: (at: number) => void) => {
      if (at !== null) actions.push({ at, rank, run: () => run(at) });
    };
    const cancelling = (at: number) => endSubscription(sub, at, sub.cancellationReason, { requestedAt: sub.canceledAt });
    switch (sub.status) {
      case 'trialing':
        if (!sub.trialWillEndSent && sub.trialEnd !== null) {
          add(Math.max(sub.trialStart ?? sub.created, sub.trialEnd - TRIAL_WILL_END_NOTICE), 0, (at) => {
            sub.trialWillEndSent = true;
            store.markChanged();
            emit('customer.subscription.trial_will_end', renderer.subscription(sub), sub.customer, at);
          });
        }
        add(sub.cancelAt, 1, cancelling);
        add(sub.trialEnd, 3, (at) => endTrial(sub, at));
        break;
      case 'active':
      case 'past_due':
        add(sub.cancelAt, 1, cancelling);
        for (const invoice of openInvoicesOf(sub.id)) add(invoice.nextPaymentAttempt, 2, (at) => retryPayment(sub, invoice, at));
        add(sub.currentPeriodEnd, 3, (at) => startNextPeriod(sub, at));
        break;
      case 'incomplete':
        add(sub.created + INCOMPLETE_EXPIRY, 3, (at) => expireIncomplete(sub, at));
        break;
      default:
        // canceled, incomplete_expired, paused and unpaid subscriptions have nothing scheduled.
        break;
    }
    return actions.reduce<DueAction | null>((first, action) => (!first || action.at < first.at || (action.at === first.at && action.rank < first.rank) ? action : first), null);
  }

  /** Does, in time order, everything due on the customer's clock. */
  function settleCustomer(customerId: string): void {
    const now = customerNow(customerId);
    const subscriptions = subscriptionsOf(customerId);
    // A bound, so a bug can never spin forever: ten years of monthly renewals with retries is far below it.
    for (let step = 0; step < 10_000; step += 1) {
      const due = subscriptions
        .map(nextActionOf)
        .filter((action): action is DueAction => action !== null && action.at <= now)
        .reduce<DueAction | null>((first, action) => (!first || action.at < first.at || (action.at === first.at && action.rank < first.rank) ? action : first), null);
      if (!due) return;
      due.run();
    }
    throw new Error(`Stripe sandbox: customer ${customerId} still has billing work due after 10000 steps`);
  }

  /** Catches every customer up with its clock and expires stale checkout sessions. */
  function settleAll(): void {
    const customersWithWork = new Set<string>();
    for (const sub of Object.values(state.subscriptions)) {
      if (customersWithWork.has(sub.customer)) continue;
      const action = nextActionOf(sub);
      if (action && action.at <= customerNow(sub.customer)) customersWithWork.add(sub.customer);
    }
    for (const customerId of customersWithWork) settleCustomer(customerId);
    for (const session of Object.values(state.checkoutSessions)) {
      if (session.status !== 'open') continue;
      const now = session.customer ? customerNow(session.customer) : wallNow();
      if (session.expiresAt <= now) expireSession(session, session.expiresAt);
    }
  }

  /** Runs `work` on behalf of an API request, so the events it emits carry the request id and idempotency key. */
  function onBehalfOf<T>(request: RequestOrigin, work: () => T): T {
    origin = request;
    try {
      return work();
    } finally {
      origin = null;
    }
  }

  return {
    customerNow,
    customerRecord,
    subscriptionRecord,
    testClockRecord,
    checkoutSessionRecord,
    subscriptionsOf,
    sessionHasTrial,
    createCustomer,
    updateCustomer,
    createTestClock,
    advanceTestClock,
    advanceCustomerClock,
    replaceDefaultCard,
    createCheckoutSession,
    completeCheckout,
    expireCheckoutSession,
    createPortalSession,
    payInvoice,
    updateSubscription,
    cancelSubscriptionNow,
    settleAll,
    onBehalfOf,
  };
}

/** Canceled and expired subscriptions are over for good: nothing is scheduled and billing fields are frozen. */
export const isEnded = (sub: SubscriptionRecord) => sub.status === 'canceled' || sub.status === 'incomplete_expired';

export function applyMetadata(current: Record<string, string>, update: MetadataUpdate): Record<string, string> {
  if (update === '') return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** `months` calendar months after `anchor` (unix seconds, UTC), clamped to the month's last day like Stripe. */
export function addMonths(anchor: number, months: number): number {
  const date = new Date(anchor * 1000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) / 1000;
}

/** The first monthly boundary after `after`, counted from the billing cycle anchor (so Jan 31 → Feb 28 → Mar 31). */
function nextPeriodEnd(anchor: number, after: number): number {
  let months = 1;
  while (addMonths(anchor, months) <= after) months += 1;
  return addMonths(anchor, months);
}
