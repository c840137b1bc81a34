// Checkout Sessions and portal sessions: a session is created by the API, completed on the hosted page (which
// starts the subscription and charges its first invoice), or expires.
import { invalidRequest, resourceMissing } from './errors.ts';
import { addMonths, DAY, type BillingRecords } from './billing-records.ts';
import type { Invoicing } from './invoicing.ts';
import type { SubscriptionLifecycle } from './subscription-lifecycle.ts';
import { newId, type CheckoutSessionRecord, type PortalSessionRecord, type SubscriptionRecord } from './state.ts';
import type { BankAccountDetails } from './test-bank-accounts.ts';
import type { CardDetails } from './test-cards.ts';

/** Checkout sessions expire after 24 hours unless told otherwise. */
const CHECKOUT_SESSION_LIFETIME = DAY;

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

export type CheckoutSessions = ReturnType<typeof createCheckoutSessions>;

export function createCheckoutSessions(records: BillingRecords, invoicing: Invoicing, lifecycle: SubscriptionLifecycle) {
  const { state, store, renderer, emit, wallNow, customerNow, customerRecord, createCustomer, attachCard, attachBankAccount, changeSubscription } = records;
  const { draftInvoice, issueInvoice, attemptPayment } = invoicing;
  const { settleCustomer } = lifecycle;

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
  function completeCheckout(
    sessionId: string,
    payer: { email: string | null; card: CardDetails | null; bankAccount?: BankAccountDetails | null },
  ): CheckoutSessionRecord {
    const session = checkoutSessionRecord(sessionId);
    if (session.status !== 'open') throw invalidRequest(`This Checkout Session is ${session.status}.`);
    const customer = session.customer
      ? customerRecord(session.customer)
      : createCustomer({ email: payer.email ?? session.customerEmail, name: null, description: null, phone: null, metadata: {}, testClock: null });
    const at = customerNow(customer.id);

    // Like Stripe Checkout, the card becomes the subscription's default_payment_method only: the customer's
    // invoice_settings.default_payment_method stays as it was.
    const paymentMethod = payer.card
      ? attachCard(customer, payer.card, at)
      : payer.bankAccount
        ? attachBankAccount(customer, payer.bankAccount, at)
        : null;

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
    // The customer is on the Checkout page, so a card that asks for 3-D Secure is authenticated there.
    const outcome = attemptPayment(invoice, at, { scheduleRetries: false, onSession: true });
    if (!trialEnd && outcome === 'paid') {
      changeSubscription(sub, at, () => {
        sub.status = 'active';
      });
    }

    session.status = 'complete';
    session.customer = customer.id;
    session.subscription = sub.id;
    // A bank debit completes the session unpaid; checkout.session.async_payment_succeeded follows when it settles.
    session.paymentStatus = trialEnd ? 'no_payment_required' : outcome === 'paid' ? 'paid' : 'unpaid';
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

  /** Expires the open sessions whose time ran out on their customer's clock. */
  function expireStaleSessions(): void {
    for (const session of Object.values(state.checkoutSessions)) {
      if (session.status !== 'open') continue;
      const now = session.customer ? customerNow(session.customer) : wallNow();
      if (session.expiresAt <= now) expireSession(session, session.expiresAt);
    }
  }

  return {
    checkoutSessionRecord,
    sessionHasTrial,
    createCheckoutSession,
    completeCheckout,
    expireCheckoutSession,
    expireStaleSessions,
    createPortalSession,
  };
}
