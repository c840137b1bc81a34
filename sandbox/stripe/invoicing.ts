// Invoices and charges: a subscription's invoice is drafted, announced and finalized, then charged with the
// subscription's card; failed renewals book their retries here.
import { PLAN } from '#contract/billing.ts';
import { DAY, type BillingRecords } from './billing-records.ts';
import { newId, type InvoiceRecord, type SubscriptionRecord } from './state.ts';

/**
 * Retries of a failed renewal, in days after the first failure (a custom retry schedule in Stripe's settings).
 * When the last one fails, the subscription is canceled and the invoice marked uncollectible: Stripe's default
 * "cancel the subscription if all retries fail".
 */
const RETRY_SCHEDULE_DAYS = [3, 5, 7];

/** How long an ACH debit takes to settle: Stripe says up to 4 business days; the sandbox takes 4 days. */
export const BANK_DEBIT_SETTLEMENT = 4 * DAY;

/** `processing`: a bank debit was started and settles later (a delayed-notification payment method). */
export type PaymentOutcome = 'paid' | 'failed' | 'processing';

export type Invoicing = ReturnType<typeof createInvoicing>;

export function createInvoicing(records: BillingRecords) {
  const { state, store, renderer, emit, customerRecord, subscriptionRecord, paymentMethodFor } = records;

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
   * `onSession` says whether the customer is on a page to answer 3-D Secure: a card that asks for it is then
   * authenticated and charged; off-session (renewals, API calls) the charge fails and the invoice needs action,
   * which Stripe announces with `invoice.payment_action_required` after `invoice.payment_failed`.
   */
  function attemptPayment(invoice: InvoiceRecord, at: number, { scheduleRetries, onSession }: { scheduleRetries: boolean; onSession: boolean }): PaymentOutcome {
    const sub = subscriptionRecord(invoice.subscription);
    const paymentMethod = invoice.amountDue > 0 ? paymentMethodFor(sub) : null;
    if (invoice.amountDue > 0) invoice.attemptCount += 1;
    store.markChanged();
    if (paymentMethod?.type === 'us_bank_account') {
      // An ACH debit: nothing is known until it settles; the invoice stays open meanwhile.
      invoice.paymentMethod = paymentMethod.id;
      invoice.nextPaymentAttempt = null;
      invoice.settlesAt = at + BANK_DEBIT_SETTLEMENT;
      return 'processing';
    }
    const needsAuthentication = !onSession && paymentMethod?.requiresAuthentication === true;
    const succeeds = invoice.amountDue === 0 || (paymentMethod !== null && !paymentMethod.chargesFail && !needsAuthentication);
    if (succeeds) {
      markPaid(invoice, paymentMethod?.id ?? null, at);
      return 'paid';
    }
    if (scheduleRetries) {
      const firstFailedAt = (invoice.firstFailedAt ??= at);
      // The next slot of the schedule still ahead, so manual attempts in between do not shift it.
      invoice.nextPaymentAttempt = RETRY_SCHEDULE_DAYS.map((days) => firstFailedAt + days * DAY).find((time) => time > at) ?? null;
    }
    emit('invoice.payment_failed', renderer.invoice(invoice), invoice.customer, at);
    if (needsAuthentication) emit('invoice.payment_action_required', renderer.invoice(invoice), invoice.customer, at);
    return 'failed';
  }

  function markPaid(invoice: InvoiceRecord, paymentMethodId: string | null, at: number): void {
    invoice.status = 'paid';
    invoice.amountPaid = invoice.amountDue;
    invoice.paidAt = at;
    invoice.nextPaymentAttempt = null;
    invoice.settlesAt = null;
    invoice.paymentMethod = paymentMethodId;
    store.markChanged();
    emit('invoice.paid', renderer.invoice(invoice), invoice.customer, at);
    emit('invoice.payment_succeeded', renderer.invoice(invoice), invoice.customer, at);
  }

  /** The bank debit in flight for the invoice settles (the sandbox's test account always succeeds). */
  function settleBankDebit(invoice: InvoiceRecord, at: number): void {
    markPaid(invoice, invoice.paymentMethod, at);
  }

  function voidInvoice(invoice: InvoiceRecord, at: number): void {
    invoice.status = 'void';
    invoice.voidedAt = at;
    invoice.nextPaymentAttempt = null;
    store.markChanged();
    emit('invoice.voided', renderer.invoice(invoice), invoice.customer, at);
  }

  return { draftInvoice, issueInvoice, attemptPayment, settleBankDebit, voidInvoice };
}
