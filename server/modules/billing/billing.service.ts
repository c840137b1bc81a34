// The Pro plan with Stripe: checkout, portal, cancel/resume, payment methods, invoices, and keeping our copy of
// each customer's subscription in step with Stripe. Stripe is the source of truth; `syncStripeCustomer` is the
// only code that writes our copy, and it always re-reads Stripe instead of trusting what an event says.
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { type CreateCheckoutSessionRequest, type Invoice, type PaymentMethod, PLAN, type SubscriptionStatus } from '#contract/billing.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../accounts/accounts.repository.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import { trialStartedEmail } from './billing-emails.ts';
import type { BillingQueries, BillingRepository } from './billing.repository.ts';
import {
  describeSubscription,
  hasAccess,
  mostRelevantSubscription,
  RUNNING_STATUSES,
  type SubscriptionAccessFields,
  storedFields,
  trialWasUsed,
} from './subscription-state.ts';

/** Stripe's default: a signed event older than this is refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Every event that can mean the customer's subscription changed; each one only tells us which customer. */
export const SYNC_EVENT_TYPES: ReadonlySet<string> = new Set<Stripe.Event['type']>([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'invoice.marked_uncollectible',
]);

/** Stripe's list maximum: every subscription a customer ever had fits in one page. */
const SUBSCRIPTION_LIST_LIMIT = 100;
const INVOICE_LIST_LIMIT = 24;
const PAYMENT_METHOD_LIST_LIMIT = 20;

const PROVIDER_FAILED = 'The payment provider could not complete the request. Please try again in a moment.';

/**
 * Invoice statuses that still need their customer: a draft about to be finalized, an open invoice Stripe may still
 * collect, an uncollectible one still owed. Deleting the customer would remove the payment details they rely on.
 */
const INVOICE_STATUSES_NEEDING_CUSTOMER: ReadonlySet<string> = new Set(['draft', 'open', 'uncollectible']);
const ENDED_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/** What became of a deleted account's Stripe customer. */
export type CustomerRelease = { outcome: 'deleted' } | { outcome: 'kept'; reason: string };

export type BillingUser = Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName' | 'createdAt'>;

export interface BillingConfig {
  priceId: string | undefined;
  webhookSecret: string | undefined;
  /** Checkout collects a card even for the free trial. */
  requireCard: boolean;
  /** Redirect URLs given to Stripe must be on this origin. */
  publicUrl: string;
  /** Only echoed in the status response, so the web app can label billing as a sandbox. */
  sandbox: boolean;
}

export interface BillingServiceDeps {
  repository: BillingRepository;
  /** Undefined when no Stripe key is configured: billing calls then answer 503, the access gate still works. */
  stripe: Stripe | undefined;
  clock: Clock;
  config: BillingConfig;
  logger: FastifyBaseLogger;
  /** The trial-started mail goes out once per subscription (server/modules/mail/sent-mails.ts). */
  onceMailer?: OnceMailer;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? undefined));

/**
 * A trial seen starting: a trialing subscription whose trial began this recently. Older ones (running when this mail
 * was introduced, or seen first days later) get no "has started" mail.
 */
const TRIAL_ANNOUNCE_WINDOW_MS = 48 * 3_600_000;

export function createBillingService({ repository, stripe, clock, config, logger, onceMailer }: BillingServiceDeps) {
  const publicOrigin = new URL(config.publicUrl).origin;

  function requireStripe(): Stripe {
    if (!stripe) throw new AppError('unavailable', 'Billing is not configured on this server.');
    return stripe;
  }

  /**
   * Calls Stripe; its failures become one generic 502. Stripe's own messages carry ids and hints meant for
   * us, not for users, so they are logged (type and code only, never parameters or keys) and not sent on.
   */
  async function callStripe<T>(operation: string, call: (client: Stripe) => Promise<T>, options: { notFound?: string } = {}): Promise<T> {
    const client = requireStripe();
    try {
      return await call(client);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      if (options.notFound && error.code === 'resource_missing') throw new AppError('not_found', options.notFound);
      logger.error(
        { event: 'stripe.call_failed', operation, type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId },
        'Stripe call failed',
      );
      throw new AppError('bad_gateway', PROVIDER_FAILED, { cause: error });
    }
  }

  /** An absolute URL on our own origin, or the fallback: Stripe must never send a user to someone else's site. */
  function sameOriginUrl(candidate: string | undefined, fallback: string): string {
    if (!candidate) return fallback;
    let url: URL;
    try {
      url = new URL(candidate, publicOrigin);
    } catch {
      return fallback;
    }
    return url.origin === publicOrigin ? url.href : fallback;
  }

  // ---- the one sync ------------------------------------------------------------------------------------------

  /**
   * Makes our copy of the customer's subscription equal to what Stripe has now. Called for every relevant
   * webhook (with the event, so its id is recorded with the effect) and after our own changes. Because it
   * re-reads Stripe, duplicated and out-of-order events all converge on Stripe's current state.
   * Answers the user the customer belongs to, if any.
   */
  async function syncStripeCustomer(customerId: string, event?: Pick<Stripe.Event, 'id' | 'type' | 'created'>): Promise<number | undefined> {
    const synced = await repository.withCustomerLock(customerId, async (locked) => {
      if (event && (await locked.isEventProcessed(event.id))) {
        logger.info({ event: 'stripe.event_duplicate', eventId: event.id, type: event.type }, 'Stripe event already processed');
        return undefined;
      }
      const userId = await userOfCustomer(locked, customerId);
      let seen: Stripe.Subscription[] = [];
      if (userId !== undefined) {
        const list = await callStripe('subscriptions.list', (client) =>
          client.subscriptions.list({ customer: customerId, status: 'all', limit: SUBSCRIPTION_LIST_LIMIT }),
        );
        seen = list.data;
        const fields = storedFields(mostRelevantSubscription(list.data));
        await locked.upsertSubscription({ userId, stripeCustomerId: customerId, ...fields, trialUsed: trialWasUsed(list.data), syncedAt: clock.now() });
        logger.info({ event: 'billing.synced', userId, status: fields.status, eventId: event?.id, eventType: event?.type }, 'subscription synced from Stripe');
      }
      if (event) await locked.recordEvent({ id: event.id, type: event.type, createdAt: new Date(event.created * 1000), processedAt: clock.now() });
      return { userId, seen };
    });
    if (!synced?.userId) return synced?.userId;
    // After the transaction (no lock held while mail is written); the claim in sent_mails makes it once.
    await announceTrials(synced.userId, synced.seen);
    return synced.userId;
  }

  /**
   * "Your 7-day trial has started", once per subscription: usually on customer.subscription.created, but whichever
   * sync first sees the trial (a checkout's return, a payment link adopted on confirmation) sends it, and every later
   * one (Stripe's retries, other processes) finds the claim. Best effort: a mail that fails never fails the sync.
   */
  async function announceTrials(userId: number, seen: readonly Stripe.Subscription[]) {
    if (!onceMailer) return;
    const now = clock.now().getTime();
    for (const subscription of seen) {
      if (subscription.status !== 'trialing' || !subscription.trial_end || !subscription.trial_start) continue;
      if (subscription.trial_end * 1000 <= now || now - subscription.trial_start * 1000 > TRIAL_ANNOUNCE_WINDOW_MS) continue;
      const trialEnd = new Date(subscription.trial_end * 1000);
      const cardOnFile = subscription.default_payment_method !== null || subscription.trial_settings?.end_behavior.missing_payment_method !== 'cancel';
      try {
        await onceMailer.sendOnce({ userId, kind: 'trial_started', ref: subscription.id }, async () => {
          const recipient = await repository.recipient(userId);
          return recipient && trialStartedEmail({ to: recipient.email, name: recipient.firstName, trialEnd, timeZone: recipient.timeZone, cardOnFile, billingUrl: `${config.publicUrl}/billing` });
        });
      } catch (error) {
        logger.error({ event: 'billing.trial_mail_failed', userId, err: error }, 'the trial-started mail could not be sent');
      }
    }
  }

  /**
   * The user a customer belongs to. Customers we created are linked at checkout. Any other customer (one a
   * payment link created: the landing page's trial button) is adopted by the confirmed account with its
   * email. This also re-links one of our own customers whose link was never stored (a crash between
   * creating and saving it). Only a confirmed address proves who owns it.
   */
  async function userOfCustomer(locked: BillingQueries, customerId: string): Promise<number | undefined> {
    const linked = await locked.findUserIdOfCustomer(customerId);
    if (linked !== undefined) return linked;
    const customer = await callStripe('customers.retrieve', (client) => client.customers.retrieve(customerId));
    const userId = !customer.deleted && customer.email ? await locked.findConfirmedUserIdByEmail(customer.email) : undefined;
    if (userId === undefined) {
      logger.info({ event: 'billing.customer_unmatched', customerId }, 'Stripe customer matches no account');
      return undefined;
    }
    return (await adoptCustomer(locked, userId, customerId)) ? userId : undefined;
  }

  /** Links a customer to the user, replacing an earlier customer only if that one has nothing running. */
  async function adoptCustomer(locked: BillingQueries, userId: number, customerId: string): Promise<boolean> {
    const current = await locked.findCustomerIdOfUser(userId);
    if (current !== undefined && current !== customerId) {
      const subscription = await locked.findSubscription(userId);
      if (subscription && RUNNING_STATUSES.has(subscription.status)) {
        logger.warn({ event: 'billing.customer_not_adopted', userId, customerId }, 'a second Stripe customer for an account that already has a running subscription');
        return false;
      }
    }
    await locked.replaceCustomer(userId, customerId, clock.now());
    logger.info({ event: 'billing.customer_adopted', userId, customerId }, 'Stripe customer linked to the account with its email');
    return true;
  }

  /**
   * A newly confirmed address: checkouts paid with it before its account existed (a payment link) join the account
   * now, without waiting for Stripe's next event about them or a Sync with the session id (issue 25), so the account
   * shows its running trial and is never offered a second one. Stripe's email filter is exact: the address as
   * confirmed and in lower case are asked for. Best effort: Stripe being down never fails a confirmation.
   */
  async function adoptCheckoutsByEmail(email: string): Promise<void> {
    if (!stripe) return;
    try {
      for (const address of new Set([email, email.toLowerCase()])) {
        const customers = await callStripe('customers.list', (client) => client.customers.list({ email: address, limit: 10 }));
        for (const customer of customers.data) await syncStripeCustomer(customer.id);
      }
    } catch (error) {
      logger.warn({ event: 'billing.adopt_by_email_failed', err: error }, 'checkouts paid with a newly confirmed address could not be looked up');
    }
  }

  // ---- webhook -------------------------------------------------------------------------------------------------

  /** Verifies a webhook delivery against the raw body and applies it. Throws 400 for anything not signed by Stripe. */
  async function handleWebhook(payload: Buffer, signature: string | undefined, context: { ip: string }): Promise<void> {
    const client = requireStripe();
    if (!config.webhookSecret) throw new AppError('unavailable', 'Billing is not configured on this server.');
    // A security event either way (ASVS 5.0 16.3): who sent an unsigned or badly signed delivery.
    const rejected = (reason: string) => logger.warn({ event: 'stripe.webhook_rejected', outcome: 'denied', reason, ip: context.ip }, 'Stripe webhook signature rejected');
    if (!signature) {
      rejected('missing_signature');
      throw new AppError('bad_request', 'Missing Stripe-Signature header');
    }
    let event: Stripe.Event;
    try {
      // The timestamp check uses the real time, as the sender signed with it (not the business clock).
      event = client.webhooks.constructEvent(payload, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (error) {
      rejected(error instanceof Error ? error.name : 'unknown');
      throw new AppError('bad_request', 'Invalid Stripe signature');
    }
    if (!SYNC_EVENT_TYPES.has(event.type)) return;
    // Only the customer id is taken from the event; everything else is read from Stripe.
    const customerId = idOf((event.data.object as { customer?: string | { id: string } | null }).customer);
    if (!customerId) return;
    await syncStripeCustomer(customerId, event);
  }

  // ---- the /api/stripe calls -------------------------------------------------------------------------------------

  async function getStatus(user: BillingUser): Promise<SubscriptionStatus> {
    return describeSubscription(await repository.findSubscription(user.id), clock.now(), { sandbox: config.sandbox });
  }

  /** Entitlement: from our database only, never a Stripe call per request. */
  async function hasPremiumAccess(userId: number): Promise<boolean> {
    return grantsAccess(await repository.findSubscription(userId));
  }

  /** Entitlement of a subscription row already read (the 402 gate reads it with the session); null: none. */
  function grantsAccess(subscription: SubscriptionAccessFields | null | undefined): boolean {
    return hasAccess(subscription ?? undefined, clock.now());
  }

  async function ensureCustomer(user: BillingUser): Promise<string> {
    const existing = await repository.findCustomerIdOfUser(user.id);
    if (existing) return existing;
    const name = `${user.firstName} ${user.lastName}`.trim();
    const customer = await callStripe('customers.create', (client) =>
      client.customers.create(
        { email: user.email, ...(name ? { name } : {}), metadata: { userId: String(user.id) } },
        // Two concurrent first checkouts get the same customer. The account's creation time keeps the key
        // unique if user ids are ever reused (a fresh database against the same Stripe account).
        { idempotencyKey: `customer-create:${user.id}:${user.createdAt.getTime()}` },
      ),
    );
    return repository.linkCustomerIfAbsent(user.id, customer.id, clock.now());
  }

  async function createCheckoutSession(user: BillingUser, input: CreateCheckoutSessionRequest = {}) {
    requireStripe();
    if (!config.priceId) throw new AppError('unavailable', 'Billing is not configured on this server.');
    const priceId = config.priceId;
    // Decide on Stripe's current state, not on a webhook that may not have arrived yet.
    const knownCustomer = await repository.findCustomerIdOfUser(user.id);
    if (knownCustomer) await syncStripeCustomer(knownCustomer);
    const current = await repository.findSubscription(user.id);
    if (current?.status === 'incomplete') {
      // The first payment is still open: a bank debit takes days to clear (then Stripe activates the subscription),
      // a declined card can be paid again for 23 hours. A second subscription now could charge the user twice.
      throw new AppError(
        'conflict',
        'Your first payment has not gone through yet. A bank payment takes a few days to clear; a declined card can be paid again from Manage Billing.',
      );
    }
    if (current && RUNNING_STATUSES.has(current.status)) {
      throw new AppError(
        'conflict',
        current.status === 'active' || current.status === 'trialing'
          ? 'You already have an active subscription. Manage it from the billing page.'
          : 'Your subscription has an unpaid invoice. Update your payment method with Manage Billing instead of starting a new subscription.',
      );
    }
    const customerId = await ensureCustomer(user);
    // The server decides the trial: at most the plan's 7 days, and none once the account had one.
    const trialDays = current?.trialUsed ? 0 : Math.min(input.trialDays ?? PLAN.trialDays, PLAN.trialDays);
    const userId = String(user.id);
    const session = await callStripe('checkout.sessions.create', (client) =>
      client.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: userId,
        // The client's priceId is never used: there is one plan and its price is configuration.
        line_items: [{ price: priceId, quantity: 1 }],
        success_url: sameOriginUrl(input.successUrl, `${config.publicUrl}/billing?success=true&session_id={CHECKOUT_SESSION_ID}`),
        cancel_url: sameOriginUrl(input.cancelUrl, `${config.publicUrl}/billing?canceled=true`),
        // Nothing is due during a trial, so without a card requirement Checkout skips the card form.
        payment_method_collection: config.requireCard ? 'always' : 'if_required',
        metadata: { userId },
        subscription_data: {
          metadata: { userId },
          ...(trialDays > 0
            ? { trial_period_days: trialDays, trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } }
            : {}),
        },
      }),
    );
    if (!session.url) throw new AppError('bad_gateway', PROVIDER_FAILED);
    logger.info({ event: 'billing.checkout_started', userId: user.id, trialDays }, 'checkout session created');
    return { url: session.url, sessionId: session.id };
  }

  async function createPortalSession(user: BillingUser, returnUrl: string | undefined) {
    const customerId = await repository.findCustomerIdOfUser(user.id);
    if (!customerId) throw new AppError('bad_request', 'You have no billing account yet. Start a subscription first.');
    const session = await callStripe('billingPortal.sessions.create', (client) =>
      client.billingPortal.sessions.create({ customer: customerId, return_url: sameOriginUrl(returnUrl, `${config.publicUrl}/billing`) }),
    );
    return { url: session.url };
  }

  async function runningSubscription(user: BillingUser, missing: string) {
    const row = await repository.findSubscription(user.id);
    if (!row?.stripeSubscriptionId || !RUNNING_STATUSES.has(row.status)) throw new AppError('not_found', missing);
    return { ...row, stripeSubscriptionId: row.stripeSubscriptionId };
  }

  /**
   * Changes a subscription our copy shows as running. Our copy can lag behind Stripe (a webhook not delivered yet),
   * and Stripe refuses changes to a subscription that has ended: then it is read again, and one that is over is
   * answered as missing, as if our copy had known, rather than as a failure of Stripe's.
   */
  async function changeRunningSubscription(user: BillingUser, missing: string, row: Awaited<ReturnType<typeof runningSubscription>>, change: () => Promise<unknown>) {
    try {
      await change();
    } catch (error) {
      if (error instanceof AppError && error.code === 'bad_gateway' && error.cause instanceof Stripe.errors.StripeInvalidRequestError) {
        await syncStripeCustomer(row.stripeCustomerId);
        await runningSubscription(user, missing);
      }
      throw error;
    }
  }

  /** At period end (the default) keeps access until the paid period or the trial ends; otherwise ends it now. */
  async function cancelSubscription(user: BillingUser, cancelAtPeriodEnd = true): Promise<SubscriptionStatus> {
    const missing = 'You have no subscription to cancel.';
    const row = await runningSubscription(user, missing);
    await changeRunningSubscription(user, missing, row, () =>
      callStripe(cancelAtPeriodEnd ? 'subscriptions.update' : 'subscriptions.cancel', (client) =>
        cancelAtPeriodEnd
          ? client.subscriptions.update(row.stripeSubscriptionId, { cancel_at_period_end: true })
          : client.subscriptions.cancel(row.stripeSubscriptionId),
      ),
    );
    await syncStripeCustomer(row.stripeCustomerId);
    logger.info({ event: 'billing.canceled', userId: user.id, atPeriodEnd: cancelAtPeriodEnd }, 'subscription cancel requested');
    return getStatus(user);
  }

  /**
   * Undoes a pending cancellation, or resumes a subscription paused because its trial ended without a card; a
   * subscription that already ended cannot come back (start a new one).
   */
  async function resumeSubscription(user: BillingUser): Promise<SubscriptionStatus> {
    const missing = 'You have no subscription to resume.';
    const row = await runningSubscription(user, missing);
    if (row.status === 'paused') {
      await resumePausedSubscription(row.stripeCustomerId, row.stripeSubscriptionId);
      logger.info({ event: 'billing.resumed_from_pause', userId: user.id }, 'paused subscription resumed');
      return getStatus(user);
    }
    await changeRunningSubscription(user, missing, row, () =>
      callStripe('subscriptions.update', (client) =>
        client.subscriptions.update(row.stripeSubscriptionId, {
          cancel_at_period_end: false,
          // A cancellation date set elsewhere (the portal) is cleared too.
          ...(row.cancelAt && !row.cancelAtPeriodEnd ? { cancel_at: '' as const } : {}),
        }),
      ),
    );
    await syncStripeCustomer(row.stripeCustomerId);
    logger.info({ event: 'billing.resumed', userId: user.id }, 'subscription resumed');
    return getStatus(user);
  }

  /**
   * Stripe never resumes a paused subscription by itself, not even once a card is added: it takes
   * POST /v1/subscriptions/:id/resume, which starts a new period now and charges it. Without a card that charge
   * cannot succeed and the subscription would turn past_due (with the grace, unpaid), so a card comes first.
   */
  async function resumePausedSubscription(customerId: string, subscriptionId: string): Promise<void> {
    const cards = await callStripe('customers.listPaymentMethods', (client) => client.customers.listPaymentMethods(customerId, { type: 'card', limit: 1 }));
    if (cards.data.length === 0) {
      throw new AppError('conflict', 'Add a card in Manage Billing first: resuming charges the first month right away.');
    }
    await callStripe('subscriptions.resume', (client) => client.subscriptions.resume(subscriptionId));
    await syncStripeCustomer(customerId);
  }

  /**
   * Re-reads the user's subscription now (the checkout success page calls this, so the user does not wait
   * for the webhook). `sessionId` lets a payment-link checkout made with the user's email join the account.
   */
  async function syncForUser(user: BillingUser & { emailConfirmedAt: Date | null }, sessionId?: string): Promise<SubscriptionStatus> {
    if (sessionId) await adoptCheckoutSession(user, sessionId);
    const customerId = await repository.findCustomerIdOfUser(user.id);
    if (customerId) await syncStripeCustomer(customerId);
    return getStatus(user);
  }

  async function adoptCheckoutSession(user: BillingUser & { emailConfirmedAt: Date | null }, sessionId: string) {
    const notFound = 'No such checkout session.';
    const session = await callStripe('checkout.sessions.retrieve', (client) => client.checkout.sessions.retrieve(sessionId), { notFound });
    const customerId = idOf(session.customer);
    if (!customerId) return; // not completed yet: nothing to link
    const owner = await repository.findUserIdOfCustomer(customerId);
    if (owner === user.id) return;
    // Someone else's session looks exactly like a session that does not exist.
    const email = session.customer_details?.email ?? session.customer_email;
    if (owner !== undefined || !user.emailConfirmedAt || !email || email.toLowerCase() !== user.email.toLowerCase()) {
      throw new AppError('not_found', notFound);
    }
    await repository.withCustomerLock(customerId, (locked) => adoptCustomer(locked, user.id, customerId));
  }

  /**
   * After an account's deletion: deletes its Stripe customer (and with it the stored payment details) unless Stripe
   * still needs it, that is while a subscription runs or an invoice is draft, open or uncollectible; then the customer
   * is kept and the reason logged (decision 012). A customer deleted already counts as deleted. Throws when Stripe
   * cannot be reached, so the caller can retry later.
   */
  async function releaseCustomer(customerId: string): Promise<CustomerRelease> {
    const gone = 'The customer is already deleted.';
    try {
      const invoiceStatuses: string[] = [];
      await callStripe('invoices.list', async (client) => {
        for await (const invoice of client.invoices.list({ customer: customerId, limit: 100 })) invoiceStatuses.push(invoice.status ?? 'draft');
      }, { notFound: gone });
      const owing = invoiceStatuses.filter((status) => INVOICE_STATUSES_NEEDING_CUSTOMER.has(status));
      const subscriptions = await callStripe('subscriptions.list', (client) => client.subscriptions.list({ customer: customerId, status: 'all', limit: SUBSCRIPTION_LIST_LIMIT }), {
        notFound: gone,
      });
      const running = subscriptions.data.filter((subscription) => !ENDED_SUBSCRIPTION_STATUSES.has(subscription.status));
      const reason =
        owing.length > 0
          ? `${owing.length} ${owing.length === 1 ? 'invoice' : 'invoices'} still ${[...new Set(owing)].join(' or ')}`
          : running.length > 0
            ? `a subscription still ${running[0]!.status}`
            : undefined;
      if (reason) {
        logger.warn({ event: 'billing.customer_kept', customerId, reason }, 'Stripe customer of a deleted account kept: Stripe still needs it');
        return { outcome: 'kept', reason };
      }
      await callStripe('customers.del', (client) => client.customers.del(customerId), { notFound: gone });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    }
    logger.info({ event: 'billing.customer_deleted', customerId }, 'Stripe customer of a deleted account deleted');
    return { outcome: 'deleted' };
  }

  async function listPaymentMethods(user: BillingUser): Promise<PaymentMethod[]> {
    const customerId = await repository.findCustomerIdOfUser(user.id);
    if (!customerId) return [];
    const [methods, customer, subscription] = await Promise.all([
      callStripe('customers.listPaymentMethods', (client) =>
        client.customers.listPaymentMethods(customerId, { type: 'card', limit: PAYMENT_METHOD_LIST_LIMIT }),
      ),
      callStripe('customers.retrieve', (client) => client.customers.retrieve(customerId)),
      repository.findSubscription(user.id),
    ]);
    // Checkout makes the card the subscription's default; a card set in the portal is the customer's default.
    const defaults = new Set([subscription?.defaultPaymentMethodId, customer.deleted ? undefined : idOf(customer.invoice_settings.default_payment_method)]);
    return methods.data.flatMap((method) =>
      method.card
        ? [{ id: method.id, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year, isDefault: defaults.has(method.id) }]
        : [],
    );
  }

  async function listInvoices(user: BillingUser): Promise<Invoice[]> {
    const customerId = await repository.findCustomerIdOfUser(user.id);
    if (!customerId) return [];
    const invoices = await callStripe('invoices.list', (client) => client.invoices.list({ customer: customerId, limit: INVOICE_LIST_LIMIT }));
    return invoices.data.map((invoice) => ({
      id: invoice.id,
      number: invoice.number ?? null,
      date: new Date(invoice.created * 1000).toISOString(),
      // One plan in US dollars: cents to dollars (a zero-decimal currency would need its own rule).
      amount: invoice.total / 100,
      currency: invoice.currency,
      status: invoice.status ?? 'draft',
      hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      invoicePdfUrl: invoice.invoice_pdf ?? null,
    }));
  }

  return {
    syncStripeCustomer,
    handleWebhook,
    getStatus,
    hasPremiumAccess,
    grantsAccess,
    createCheckoutSession,
    createPortalSession,
    cancelSubscription,
    resumeSubscription,
    syncForUser,
    adoptCheckoutsByEmail,
    releaseCustomer,
    customerIdOf: (userId: number) => repository.findCustomerIdOfUser(userId),
    listPaymentMethods,
    listInvoices,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
