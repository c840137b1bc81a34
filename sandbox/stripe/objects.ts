// Renders the sandbox's records as Stripe API objects (API version 2026-10-28: billing periods on subscription
// items). Each builder is checked against the SDK's own type with `satisfies`, so a field Stripe adds, renames or
// removes breaks the compile, not the product. The catalog (catalog-objects.ts), invoices (invoice-objects.ts) and
// `expand[]` (expansion.ts) live apart; this file renders customers, payment methods, subscriptions and sessions
// and composes the renderer.
import Stripe from 'stripe';
import { PLAN } from '#contract/billing.ts';
import { createCatalogObjects } from './catalog-objects.ts';
import { createExpander } from './expansion.ts';
import { createInvoiceObjects } from './invoice-objects.ts';
import { type JsonObject, listObject } from './wire.ts';
import type {
  CheckoutSessionRecord,
  CustomerRecord,
  InvoiceRecord,
  PaymentMethodRecord,
  PortalSessionRecord,
  SandboxState,
  SubscriptionRecord,
  TestClockRecord,
} from './state.ts';

export const API_VERSION: string = Stripe.API_VERSION;
export { formatMoney, listObject, type JsonObject } from './wire.ts';

export interface Renderer {
  customer(record: CustomerRecord): Stripe.Customer;
  deletedCustomer(record: CustomerRecord): Stripe.DeletedCustomer;
  customerOrDeleted(record: CustomerRecord): Stripe.Customer | Stripe.DeletedCustomer;
  testClock(record: TestClockRecord): Stripe.TestHelpers.TestClock;
  product(): Stripe.Product;
  price(): Stripe.Price;
  paymentMethod(record: PaymentMethodRecord): Stripe.PaymentMethod;
  subscription(record: SubscriptionRecord): Stripe.Subscription;
  invoice(record: InvoiceRecord): Stripe.Invoice;
  checkoutSession(record: CheckoutSessionRecord): Stripe.Checkout.Session;
  portalSession(record: PortalSessionRecord): Stripe.BillingPortal.Session;
  hostedUrls: {
    checkout(sessionId: string): string;
    portal(sessionId: string): string;
    paymentLink(): string;
    invoice(invoiceId: string): string;
    invoicePdf(invoiceId: string): string;
  };
  /**
   * The object as it goes over the wire, with ids replaced by objects along each `expand[]` path
   * (`subscription`, `data.default_payment_method`, `items.data.price.product`).
   */
  expand(object: object, paths: string[]): JsonObject;
}

export function createRenderer(state: SandboxState, publicBaseUrl: string): Renderer {
  const { catalog } = state;
  const hostedUrls: Renderer['hostedUrls'] = {
    checkout: (sessionId) => `${publicBaseUrl}/c/pay/${sessionId}`,
    portal: (sessionId) => `${publicBaseUrl}/p/session/${sessionId}`,
    paymentLink: () => `${publicBaseUrl}/b/${catalog.paymentLinkId}`,
    invoice: (invoiceId) => `${publicBaseUrl}/i/${invoiceId}`,
    invoicePdf: (invoiceId) => `${publicBaseUrl}/i/${invoiceId}/pdf`,
  };
  const { product, price, plan } = createCatalogObjects(catalog);
  const { invoice } = createInvoiceObjects(state, hostedUrls);

  function customer(record: CustomerRecord): Stripe.Customer {
    return {
      id: record.id,
      object: 'customer',
      address: null,
      balance: 0,
      created: record.created,
      currency: Object.values(state.subscriptions).some((sub) => sub.customer === record.id) ? PLAN.currency : null,
      default_source: null,
      delinquent: Object.values(state.invoices).some((invoice) => invoice.customer === record.id && invoice.status === 'open'),
      description: record.description,
      discount: null,
      email: record.email,
      invoice_prefix: record.invoicePrefix,
      invoice_settings: {
        custom_fields: null,
        default_payment_method: record.defaultPaymentMethod,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: { ...record.metadata },
      name: record.name,
      next_invoice_sequence: record.nextInvoiceSequence,
      phone: record.phone,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: record.testClock,
    } satisfies Stripe.Customer;
  }

  /** What Stripe answers for a deleted customer, on retrieval and where one is expanded. */
  function deletedCustomer(record: CustomerRecord): Stripe.DeletedCustomer {
    return { id: record.id, object: 'customer', deleted: true } satisfies Stripe.DeletedCustomer;
  }

  /** A customer as Stripe shows it wherever it is looked up: the whole object, or the deleted stub. */
  function customerOrDeleted(record: CustomerRecord): Stripe.Customer | Stripe.DeletedCustomer {
    return record.deleted ? deletedCustomer(record) : customer(record);
  }

  function testClock(record: TestClockRecord): Stripe.TestHelpers.TestClock {
    return {
      id: record.id,
      object: 'test_helpers.test_clock',
      created: record.created,
      // Stripe deletes test clocks 30 days after creation.
      deletes_after: record.created + 30 * 86_400,
      frozen_time: record.frozenTime,
      livemode: false,
      name: record.name,
      status: 'ready',
      status_details: {},
    } satisfies Stripe.TestHelpers.TestClock;
  }

  function paymentMethod(record: PaymentMethodRecord): Stripe.PaymentMethod {
    const common = {
      id: record.id,
      object: 'payment_method',
      allow_redisplay: 'always',
      billing_details: { address: null, email: record.billingEmail, name: null, phone: null, tax_id: null },
      created: record.created,
      customer: record.customer,
      customer_account: null,
      livemode: false,
      metadata: {},
    } as const;
    if (record.type === 'us_bank_account') {
      return {
        ...common,
        type: 'us_bank_account',
        us_bank_account: {
          account_holder_type: 'individual',
          account_type: 'checking',
          bank_name: record.bankName,
          financial_connections_account: null,
          fingerprint: record.fingerprint,
          last4: record.last4,
          networks: { preferred: 'ach', supported: ['ach'] },
          routing_number: record.routingNumber,
          status_details: null,
        },
      } satisfies Stripe.PaymentMethod;
    }
    return {
      ...common,
      card: {
        brand: record.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        display_brand: record.brand === 'amex' ? 'american_express' : record.brand,
        exp_month: record.expMonth,
        exp_year: record.expYear,
        fingerprint: record.fingerprint,
        funding: 'credit',
        generated_from: null,
        last4: record.last4,
        networks: { available: [record.brand], preferred: null },
        regulated_status: 'unregulated',
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      type: 'card',
    } satisfies Stripe.PaymentMethod;
  }

  function subscriptionItem(record: SubscriptionRecord): Stripe.SubscriptionItem {
    return {
      id: record.itemId,
      object: 'subscription_item',
      billing_thresholds: null,
      created: record.itemCreated,
      current_period_end: record.currentPeriodEnd,
      current_period_start: record.currentPeriodStart,
      current_trial: null,
      discounts: [],
      metadata: {},
      plan: plan(),
      price: price(),
      quantity: record.quantity,
      subscription: record.id,
      tax_rates: [],
    } satisfies Stripe.SubscriptionItem;
  }

  function subscription(record: SubscriptionRecord): Stripe.Subscription {
    return {
      id: record.id,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: record.billingCycleAnchor,
      billing_cycle_anchor_config: null,
      billing_mode: { flexible: null, type: 'classic' },
      billing_schedules: [],
      billing_thresholds: null,
      cancel_at: record.cancelAt,
      cancel_at_period_end: record.cancelAtPeriodEnd,
      canceled_at: record.canceledAt,
      cancellation_details: {
        comment: record.cancellationComment,
        feedback: record.cancellationFeedback,
        feedback_option: null,
        reason: record.cancellationReason,
      },
      collection_method: 'charge_automatically',
      created: record.created,
      currency: PLAN.currency,
      customer: record.customer,
      customer_account: null,
      days_until_due: null,
      default_payment_method: record.defaultPaymentMethod,
      default_source: null,
      default_tax_rates: [],
      description: record.description,
      discounts: [],
      ended_at: record.endedAt,
      invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
      items: listObject([subscriptionItem(record)], `/v1/subscription_items?subscription=${record.id}`, false),
      latest_invoice: record.latestInvoice,
      livemode: false,
      managed_payments: null,
      metadata: { ...record.metadata },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: record.pendingUpdate
        ? {
            billing_cycle_anchor: record.pendingUpdate.billingCycleAnchor,
            cancel_at_period_end: null,
            discount: null,
            discounts: null,
            expires_at: record.pendingUpdate.expiresAt,
            metadata: null,
            subscription_items: null,
            trial_end: record.pendingUpdate.trialEnd,
            trial_from_plan: null,
          }
        : null,
      schedule: null,
      start_date: record.created,
      status: record.status,
      // Why a subscription is paused: in the sandbox only a trial that ended without a payment method pauses one.
      ...(record.status === 'paused'
        ? {
            status_details: {
              paused: { subscription: { type: 'trial_end_without_payment_method' }, transitioned_at: record.pausedAt ?? record.currentPeriodEnd, type: 'subscription' },
            },
          }
        : {}),
      test_clock: state.customers[record.customer]?.testClock ?? null,
      transfer_data: null,
      trial_end: record.trialEnd,
      trial_settings: { end_behavior: { billing_cycle_anchor: 'now', missing_payment_method: record.trialEndBehavior } },
      trial_start: record.trialStart,
    } satisfies Stripe.Subscription;
  }

  function checkoutSession(record: CheckoutSessionRecord): Stripe.Checkout.Session {
    const customerRecord = record.customer ? state.customers[record.customer] : undefined;
    const amountTotal = record.trialPeriodDays || record.trialEnd ? 0 : PLAN.priceCents * record.quantity;
    return {
      id: record.id,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: record.allowPromotionCodes,
      allowed_payment_method_types: null,
      amount_subtotal: amountTotal,
      amount_total: amountTotal,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: record.cancelUrl,
      client_reference_id: record.clientReferenceId,
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created: record.created,
      currency: PLAN.currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: record.customer,
      customer_account: null,
      customer_creation: record.customerCreation,
      customer_details:
        record.status === 'complete' && customerRecord
          ? { address: null, business_name: null, email: customerRecord.email, individual_name: null, name: customerRecord.name, phone: null, tax_exempt: 'none', tax_ids: [] }
          : null,
      customer_email: record.customerEmail,
      discounts: [],
      expires_at: record.expiresAt,
      integration_identifier: null,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: record.locale,
      managed_payments: null,
      metadata: { ...record.metadata },
      mode: 'subscription',
      origin_context: null,
      payment_intent: null,
      payment_link: record.paymentLink,
      payment_method_collection: record.paymentMethodCollection,
      payment_method_configuration_details: null,
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
      payment_method_types: ['card', 'us_bank_account'],
      payment_status: record.paymentStatus,
      permissions: null,
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: record.status,
      submit_type: null,
      subscription: record.subscription,
      success_url: record.successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted_page',
      // Stripe only hands out the page while the session can still be paid.
      url: record.status === 'open' ? hostedUrls.checkout(record.id) : null,
      wallet_options: null,
    } satisfies Stripe.Checkout.Session;
  }

  function portalSession(record: PortalSessionRecord): Stripe.BillingPortal.Session {
    return {
      id: record.id,
      object: 'billing_portal.session',
      configuration: catalog.portalConfigurationId,
      created: record.created,
      customer: record.customer,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: record.locale,
      on_behalf_of: null,
      return_url: record.returnUrl,
      url: hostedUrls.portal(record.id),
    } satisfies Stripe.BillingPortal.Session;
  }

  /** Looks an id up by its prefix, the way Stripe resolves expandable fields. */
  function resolve(id: string): object | undefined {
    const render = <R>(record: R | undefined, build: (record: R) => object) => (record ? build(record) : undefined);
    if (id === catalog.priceId) return price();
    if (id === catalog.productId) return product();
    if (id.startsWith('cus_')) return render(state.customers[id], customerOrDeleted);
    if (id.startsWith('sub_')) return render(state.subscriptions[id], subscription);
    if (id.startsWith('in_')) return render(state.invoices[id], invoice);
    if (id.startsWith('pm_')) return render(state.paymentMethods[id], paymentMethod);
    if (id.startsWith('cs_')) return render(state.checkoutSessions[id], checkoutSession);
    if (id.startsWith('clock_')) return render(state.testClocks[id], testClock);
    return undefined;
  }

  const expand = createExpander(resolve);

  return { customer, deletedCustomer, customerOrDeleted, testClock, product, price, paymentMethod, subscription, invoice, checkoutSession, portalSession, hostedUrls, expand };
}
