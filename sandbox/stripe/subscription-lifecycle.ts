// What happens to a subscription over time and on request: trial end, renewals, failed charges and their retries,
// cancellation, expiry of an unpaid first invoice; and doing, in time order, whatever fell due on a customer's clock
// (lazily: before each request, and on a timer).
import type Stripe from 'stripe';
import { applyMetadata, DAY, isEnded, nextPeriodEnd, type BillingRecords, type MetadataUpdate } from './billing-records.ts';
import type { Invoicing, PaymentOutcome } from './invoicing.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import type { InvoiceRecord, PendingUpdateRecord, SubscriptionRecord, TestClockRecord } from './state.ts';
import type { CardDetails } from './test-cards.ts';

/** Stripe sends `customer.subscription.trial_will_end` three days before the trial ends. */
const TRIAL_WILL_END_NOTICE = 3 * DAY;
/** An unpaid first invoice leaves the subscription `incomplete` for 23 hours, then it expires. */
const INCOMPLETE_EXPIRY = 23 * 3600;
/** A pending update is discarded 23 hours after the update at the latest (sooner if the trial or period ends). */
const PENDING_UPDATE_LIFETIME = 23 * 3600;

export interface SubscriptionChanges {
  cancelAtPeriodEnd?: boolean;
  defaultPaymentMethod?: string | null;
  metadata?: MetadataUpdate;
  description?: string | null;
  cancellationComment?: string | null;
  cancellationFeedback?: Stripe.Subscription.CancellationDetails.Feedback | null;
  endTrialNow?: boolean;
  /** `pending_if_incomplete`: apply the change only once the invoice it makes is paid. */
  paymentBehavior?: 'allow_incomplete' | 'pending_if_incomplete';
}

export type SubscriptionLifecycle = ReturnType<typeof createSubscriptionLifecycle>;

export function createSubscriptionLifecycle(records: BillingRecords, invoicing: Invoicing) {
  const {
    state,
    store,
    renderer,
    emit,
    wallNow,
    customerNow,
    customerRecord,
    subscriptionRecord,
    testClockRecord,
    attachedPaymentMethod,
    subscriptionsOf,
    openInvoicesOf,
    changeSubscription,
    changeCustomer,
    attachCard,
    paymentMethodFor,
  } = records;
  const { draftInvoice, issueInvoice, attemptPayment, settleBankDebit, voidInvoice } = invoicing;

  // ---- clocks ----------------------------------------------------------------------------------------------

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

  // ---- cards -----------------------------------------------------------------------------------------------

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

  // ---- invoices --------------------------------------------------------------------------------------------

  /**
   * The portal's "Pay" on an open invoice: one attempt now, with the customer on the page (so 3-D Secure is
   * answered). A paid invoice brings its subscription back to active, or applies the update waiting for it.
   */
  function payInvoice(invoiceId: string): PaymentOutcome {
    const invoice = state.invoices[invoiceId];
    if (!invoice) throw resourceMissing('invoice', invoiceId);
    if (invoice.status !== 'open') throw invalidRequest('Invoice is already paid or no longer payable.');
    if (invoice.settlesAt) throw invalidRequest('A payment of this invoice is already processing.');
    const at = customerNow(invoice.customer);
    const outcome = attemptPayment(invoice, at, { scheduleRetries: false, onSession: true });
    if (outcome === 'paid') afterInvoicePaid(invoice, at);
    return outcome;
  }

  /** A paid invoice applies the pending update waiting for it, or brings its subscription back to active. */
  function afterInvoicePaid(invoice: InvoiceRecord, at: number): void {
    const sub = subscriptionRecord(invoice.subscription);
    const pending = sub.pendingUpdate;
    if (pending?.invoice === invoice.id) {
      changeSubscription(sub, at, () => applyTrialEnd(sub, pending, invoice));
      emit('customer.subscription.pending_update_applied', renderer.subscription(sub), sub.customer, at);
      return;
    }
    const recoverable = sub.status === 'past_due' || sub.status === 'incomplete';
    if (recoverable && openInvoicesOf(sub.id).length === 0) {
      changeSubscription(sub, at, () => {
        sub.status = 'active';
      });
    }
  }

  /**
   * A bank debit settles. When it paid the first invoice of a Checkout Session, that session (completed with
   * payment_status 'unpaid') is now paid: Stripe's checkout.session.async_payment_succeeded.
   */
  function settleBankDebitOf(invoice: InvoiceRecord, at: number): void {
    settleBankDebit(invoice, at);
    afterInvoicePaid(invoice, at);
    if (invoice.billingReason !== 'subscription_create') return;
    for (const session of Object.values(state.checkoutSessions)) {
      if (session.subscription !== invoice.subscription || session.paymentStatus !== 'unpaid') continue;
      session.paymentStatus = 'paid';
      store.markChanged();
      emit('checkout.session.async_payment_succeeded', renderer.checkoutSession(session), invoice.customer, at);
    }
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
    if (changes.paymentBehavior === 'pending_if_incomplete') {
      endTrialIfPaid(sub, at);
      settleCustomer(sub.customer);
      return sub;
    }
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

  /**
   * `trial_end=now` with `payment_behavior=pending_if_incomplete`: the invoice for the first period is made and
   * charged off-session now; the trial ends only if it is paid. If not, the change waits in `pending_update` (the
   * subscription carries on trialing) until the invoice is paid or the update expires.
   */
  function endTrialIfPaid(sub: SubscriptionRecord, at: number): void {
    if (sub.pendingUpdate) throw invalidRequest('This subscription already has a pending update waiting for its invoice to be paid.');
    if (paymentMethodFor(sub)?.type === 'us_bank_account') {
      throw invalidRequest('Pending updates are not supported when the subscription pays by bank debit.', { param: 'payment_behavior' });
    }
    const end = nextPeriodEnd(at, at);
    const invoice = draftInvoice(sub, 'subscription_update', at, { start: at, end, isTrial: false });
    issueInvoice(invoice, at);
    const update: PendingUpdateRecord = {
      invoice: invoice.id,
      trialEnd: at,
      billingCycleAnchor: at,
      expiresAt: Math.min(sub.trialEnd ?? sub.currentPeriodEnd, sub.currentPeriodEnd, at + PENDING_UPDATE_LIFETIME),
    };
    const outcome = attemptPayment(invoice, at, { scheduleRetries: false, onSession: false });
    changeSubscription(sub, at, () => {
      sub.latestInvoice = invoice.id;
      if (outcome === 'paid') applyTrialEnd(sub, update, invoice);
      else sub.pendingUpdate = update;
    });
  }

  /** The trial ends as the (possibly pending) update asked, and the paid invoice's period begins. */
  function applyTrialEnd(sub: SubscriptionRecord, update: PendingUpdateRecord, invoice: InvoiceRecord): void {
    sub.trialEnd = update.trialEnd;
    sub.billingCycleAnchor = update.billingCycleAnchor;
    sub.currentPeriodStart = invoice.linePeriodStart;
    sub.currentPeriodEnd = invoice.linePeriodEnd;
    sub.status = 'active';
    sub.pendingUpdate = null;
    if (sub.cancelAtPeriodEnd) sub.cancelAt = sub.currentPeriodEnd;
  }

  /** Nobody paid the update's invoice in time: Stripe voids it and discards the update. */
  function expirePendingUpdate(sub: SubscriptionRecord, update: PendingUpdateRecord, at: number): void {
    const invoice = state.invoices[update.invoice];
    if (invoice?.status === 'open') voidInvoice(invoice, at);
    changeSubscription(sub, at, () => {
      sub.pendingUpdate = null;
    });
    emit('customer.subscription.pending_update_expired', renderer.subscription(sub), sub.customer, at);
  }

  /**
   * POST /v1/subscriptions/:id/resume of a paused subscription, with Stripe's defaults (billing_cycle_anchor now,
   * payment_behavior resume_on_payment_attempt): a new period starts now and its invoice is charged off-session;
   * the subscription is active if that succeeds and past_due (with no automatic retries) if not.
   */
  function resumeSubscription(id: string): SubscriptionRecord {
    const sub = subscriptionRecord(id);
    if (sub.status !== 'paused') throw invalidRequest(`Only a paused subscription can be resumed; this one is ${sub.status}.`);
    const at = customerNow(sub.customer);
    const end = nextPeriodEnd(at, at);
    changeSubscription(sub, at, () => {
      sub.billingCycleAnchor = at;
      sub.currentPeriodStart = at;
      sub.currentPeriodEnd = end;
      sub.pausedAt = null;
      const invoice = draftInvoice(sub, 'subscription_update', at, { start: at, end, isTrial: false });
      issueInvoice(invoice, at);
      sub.latestInvoice = invoice.id;
      // A bank debit still processing resumes it too (resume_on_payment_attempt).
      sub.status = attemptPayment(invoice, at, { scheduleRetries: false, onSession: false }) === 'failed' ? 'past_due' : 'active';
    });
    emit('customer.subscription.resumed', renderer.subscription(sub), sub.customer, at);
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
      // A bank debit still processing is not a failure: the subscription stays active while it settles.
      sub.status = attemptPayment(invoice, at, { scheduleRetries: true, onSession: false }) === 'failed' ? 'past_due' : 'active';
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
        sub.pausedAt = at;
      });
      emit('customer.subscription.paused', renderer.subscription(sub), sub.customer, at);
      return;
    }
    endSubscription(sub, at, null, { requestedAt: null });
  }

  function retryPayment(sub: SubscriptionRecord, invoice: InvoiceRecord, at: number): void {
    const outcome = attemptPayment(invoice, at, { scheduleRetries: true, onSession: false });
    if (outcome === 'processing') return;
    if (outcome === 'paid') {
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
    for (const invoice of openInvoicesOf(sub.id)) voidInvoice(invoice, at);
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
    const pending = sub.pendingUpdate;
    if (pending) add(pending.expiresAt, 1, (at) => expirePendingUpdate(sub, pending, at));
    const processing = openInvoicesOf(sub.id).filter((invoice) => invoice.settlesAt);
    for (const invoice of processing) add(invoice.settlesAt ?? null, 2, (at) => settleBankDebitOf(invoice, at));
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
        // A first payment still processing keeps the subscription incomplete, without expiring, until it settles.
        if (processing.length === 0) add(sub.created + INCOMPLETE_EXPIRY, 3, (at) => expireIncomplete(sub, at));
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

  /** Catches up every customer that has subscription work due on its clock. */
  function settleDueSubscriptions(): void {
    const customersWithWork = new Set<string>();
    for (const sub of Object.values(state.subscriptions)) {
      // A deleted customer's subscriptions were cancelled with it: nothing falls due for it any more.
      if (customersWithWork.has(sub.customer) || state.customers[sub.customer]?.deleted) continue;
      const action = nextActionOf(sub);
      if (action && action.at <= customerNow(sub.customer)) customersWithWork.add(sub.customer);
    }
    for (const customerId of customersWithWork) settleCustomer(customerId);
  }

  return {
    advanceTestClock,
    advanceCustomerClock,
    replaceDefaultCard,
    payInvoice,
    updateSubscription,
    resumeSubscription,
    cancelSubscriptionNow,
    settleCustomer,
    settleDueSubscriptions,
  };
}
