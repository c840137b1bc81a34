// Invoices as Stripe objects (API version 2026-10-28: the subscription under parent.subscription_details, one line
// per invoice with its billing period), checked against the SDK's own type with `satisfies`.
import Stripe from 'stripe';
import { PLAN } from '#contract/billing.ts';
import type { InvoiceRecord, SandboxState } from './state.ts';
import { formatMoney, listObject } from './wire.ts';

export interface InvoiceUrls {
  invoice(invoiceId: string): string;
  invoicePdf(invoiceId: string): string;
}

export function createInvoiceObjects(state: SandboxState, hostedUrls: InvoiceUrls) {
  const { catalog } = state;

  function invoiceLine(record: InvoiceRecord): Stripe.InvoiceLineItem {
    const amount = record.isTrial ? 0 : PLAN.priceCents * record.quantity;
    const description = record.isTrial
      ? `Trial period for ${PLAN.name}`
      : `${record.quantity} × ${PLAN.name} (at ${formatMoney(PLAN.priceCents)} / ${PLAN.interval})`;
    return {
      id: record.lineItemId,
      object: 'line_item',
      amount,
      currency: PLAN.currency,
      description,
      discount_amounts: [],
      discountable: true,
      discounts: [],
      invoice: record.id,
      livemode: false,
      metadata: {},
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: false,
          proration_details: { credited_items: null },
          subscription: record.subscription,
          subscription_item: record.subscriptionItem,
        },
      },
      period: { start: record.linePeriodStart, end: record.linePeriodEnd },
      pretax_credit_amounts: [],
      pricing: {
        type: 'price_details',
        price_details: { price: record.price, product: catalog.productId },
        unit_amount_decimal: Stripe.Decimal.from(record.isTrial ? 0 : PLAN.priceCents),
      },
      quantity: record.quantity,
      quantity_decimal: Stripe.Decimal.from(record.quantity),
      subscription: record.subscription,
      subtotal: amount,
      taxes: [],
    } satisfies Stripe.InvoiceLineItem;
  }

  function invoice(record: InvoiceRecord): Stripe.Invoice {
    const finalized = record.status !== 'draft';
    const amountRemaining = record.status === 'open' || record.status === 'uncollectible' ? record.amountDue - record.amountPaid : 0;
    return {
      id: record.id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Analytics Hub',
      account_tax_ids: null,
      amount_due: record.amountDue,
      amount_overpaid: 0,
      amount_paid: record.amountPaid,
      amount_remaining: amountRemaining,
      amount_shipping: 0,
      application: null,
      attempt_count: record.attemptCount,
      attempted: record.attemptCount > 0 || record.status === 'paid',
      auto_advance: record.status === 'draft' || record.status === 'open',
      automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
      automatically_finalizes_at: null,
      billing_reason: record.billingReason,
      collection_method: 'charge_automatically',
      created: record.created,
      currency: PLAN.currency,
      custom_fields: null,
      customer: record.customer,
      customer_account: null,
      customer_address: null,
      customer_email: record.customerEmail,
      customer_name: record.customerName,
      customer_phone: null,
      customer_shipping: null,
      customer_tax_exempt: 'none',
      customer_tax_ids: [],
      default_payment_method: null,
      default_source: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      due_date: null,
      effective_at: record.finalizedAt,
      ending_balance: finalized ? 0 : null,
      footer: null,
      from_invoice: null,
      hosted_invoice_url: finalized ? hostedUrls.invoice(record.id) : null,
      invoice_pdf: finalized ? hostedUrls.invoicePdf(record.id) : null,
      issuer: { type: 'self' },
      last_finalization_error: null,
      latest_revision: null,
      lines: listObject([invoiceLine(record)], `/v1/invoices/${record.id}/lines`, false),
      livemode: false,
      metadata: {},
      next_payment_attempt: record.nextPaymentAttempt,
      number: record.number,
      on_behalf_of: null,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: { ...record.subscriptionMetadata }, subscription: record.subscription },
      },
      payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
      // For subscription invoices the invoice period is the one just ended; the line says what is being paid for.
      period_end: record.billingReason === 'subscription_create' ? record.created : record.linePeriodStart,
      period_start: record.billingReason === 'subscription_create' ? record.created : previousPeriodStart(record),
      post_payment_credit_notes_amount: 0,
      pre_payment_credit_notes_amount: 0,
      receipt_number: null,
      rendering: null,
      shipping_cost: null,
      shipping_details: null,
      starting_balance: 0,
      statement_descriptor: null,
      status: record.status,
      status_transitions: {
        finalized_at: record.finalizedAt,
        marked_uncollectible_at: record.markedUncollectibleAt,
        paid_at: record.paidAt,
        voided_at: record.voidedAt,
      },
      subtotal: record.amountDue,
      subtotal_excluding_tax: record.amountDue,
      test_clock: state.customers[record.customer]?.testClock ?? null,
      total: record.amountDue,
      total_discount_amounts: [],
      total_excluding_tax: record.amountDue,
      total_pretax_credit_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: finalized ? record.finalizedAt : null,
    } satisfies Stripe.Invoice;
  }

  // The period before a renewal invoice's line period: that subscription's previous invoice's line.
  function previousPeriodStart(record: InvoiceRecord): number {
    const earlier = Object.values(state.invoices).filter(
      (candidate) => candidate.subscription === record.subscription && candidate.linePeriodEnd <= record.linePeriodStart,
    );
    return earlier.at(-1)?.linePeriodStart ?? record.linePeriodStart;
  }

  return { invoice };
}
