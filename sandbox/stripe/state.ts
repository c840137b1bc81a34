// The sandbox's memory: plain JSON records (not Stripe objects; objects.ts renders those on demand), kept in
// insertion order so lists come out newest first, and optionally persisted to a JSON file after each change.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

export type TrialEndBehavior = Stripe.Subscription.TrialSettings.EndBehavior.MissingPaymentMethod;
export type CardBrand = 'visa' | 'mastercard' | 'amex';

export interface CatalogRecord {
  created: number;
  productId: string;
  priceId: string;
  paymentLinkId: string;
  portalConfigurationId: string;
}

export interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  /** An explicit Stripe test clock (shared by its customers), or null when the customer runs on its own clock. */
  testClock: string | null;
  /** How far the customer's own clock runs ahead of the wall clock, in seconds (only without a test clock). */
  clockOffset: number;
  defaultPaymentMethod: string | null;
  invoicePrefix: string;
  nextInvoiceSequence: number;
  /** Set by DELETE /v1/customers/:id: the customer can still be retrieved (as deleted), and nothing else. */
  deleted?: true;
}

export interface TestClockRecord {
  id: string;
  created: number;
  name: string | null;
  frozenTime: number;
}

export type PaymentMethodRecord = CardPaymentMethodRecord | BankAccountPaymentMethodRecord;

/** A US bank account debited through ACH: a delayed-notification method, the charge settles days later. */
export interface BankAccountPaymentMethodRecord {
  type: 'us_bank_account';
  id: string;
  created: number;
  customer: string | null;
  routingNumber: string;
  bankName: string;
  last4: string;
  fingerprint: string;
  billingEmail: string | null;
}

export interface CardPaymentMethodRecord {
  /** Absent in state files from before bank accounts. */
  type?: 'card';
  id: string;
  created: number;
  customer: string | null;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
  /** Test card 4000 0000 0000 0341: attaches fine, every charge is declined. */
  chargesFail: boolean;
  /** Test card 4000 0027 6000 3184: every off-session charge needs 3-D Secure (absent in older state files). */
  requiresAuthentication?: boolean;
  billingEmail: string | null;
}

export interface SubscriptionRecord {
  id: string;
  itemId: string;
  itemCreated: number;
  customer: string;
  price: string;
  quantity: number;
  created: number;
  status: Stripe.Subscription.Status;
  billingCycleAnchor: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  trialStart: number | null;
  trialEnd: number | null;
  trialEndBehavior: TrialEndBehavior;
  trialWillEndSent: boolean;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: Stripe.Subscription.CancellationDetails.Reason | null;
  cancellationComment: string | null;
  cancellationFeedback: Stripe.Subscription.CancellationDetails.Feedback | null;
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
  description: string | null;
  metadata: Record<string, string>;
  /** When the subscription last became `paused` (absent in older state files). */
  pausedAt?: number | null;
  /** An update made with payment_behavior=pending_if_incomplete whose invoice is not paid yet. */
  pendingUpdate?: PendingUpdateRecord | null;
}

/** What a pending update will change once its invoice is paid (the sandbox supports ending the trial). */
export interface PendingUpdateRecord {
  invoice: string;
  trialEnd: number;
  billingCycleAnchor: number;
  /** The trial end, the period end or 23 hours after the update, whichever comes first. */
  expiresAt: number;
}

export interface InvoiceRecord {
  id: string;
  lineItemId: string;
  customer: string;
  customerEmail: string | null;
  customerName: string | null;
  subscription: string;
  subscriptionItem: string;
  /** The subscription's metadata when the invoice was made (Stripe copies it into parent.subscription_details). */
  subscriptionMetadata: Record<string, string>;
  price: string;
  quantity: number;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** Trial invoices say so in their line description and cost nothing. */
  isTrial: boolean;
  created: number;
  /** The service period the line charges for. */
  linePeriodStart: number;
  linePeriodEnd: number;
  number: string | null;
  status: Stripe.Invoice.Status;
  amountDue: number;
  amountPaid: number;
  attemptCount: number;
  nextPaymentAttempt: number | null;
  /** When the first charge attempt failed: the retry schedule counts from here. */
  firstFailedAt: number | null;
  finalizedAt: number | null;
  paidAt: number | null;
  voidedAt: number | null;
  markedUncollectibleAt: number | null;
  paymentMethod: string | null;
  /** When a bank debit in flight for this invoice settles (null or absent: none in flight). */
  settlesAt?: number | null;
}

export interface CheckoutSessionRecord {
  id: string;
  created: number;
  expiresAt: number;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  /** 'always' when the session was created without a customer, so completing it creates one. */
  customerCreation: 'always' | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  price: string;
  quantity: number;
  successUrl: string | null;
  cancelUrl: string | null;
  trialPeriodDays: number | null;
  trialEnd: number | null;
  trialEndBehavior: TrialEndBehavior;
  paymentMethodCollection: 'always' | 'if_required';
  allowPromotionCodes: boolean | null;
  metadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  subscriptionDescription: string | null;
  subscription: string | null;
  paymentLink: string | null;
  locale: Stripe.Checkout.Session.Locale | null;
}

export interface PortalSessionRecord {
  id: string;
  created: number;
  customer: string;
  returnUrl: string | null;
  locale: Stripe.BillingPortal.Session.Locale | null;
}

export interface IdempotencyRecord {
  method: string;
  path: string;
  /** The decoded parameters, serialized: a reused key must come with the same parameters. */
  params: string;
  createdAtMs: number;
  /** The first request's id, sent back as `Original-Request` on replays. */
  requestId: string;
  /** The successful response, replayed as is. */
  body: string;
}

export interface SandboxState {
  version: 1;
  catalog: CatalogRecord;
  customers: Record<string, CustomerRecord>;
  testClocks: Record<string, TestClockRecord>;
  paymentMethods: Record<string, PaymentMethodRecord>;
  subscriptions: Record<string, SubscriptionRecord>;
  invoices: Record<string, InvoiceRecord>;
  checkoutSessions: Record<string, CheckoutSessionRecord>;
  portalSessions: Record<string, PortalSessionRecord>;
  events: Record<string, Stripe.Event>;
  idempotency: Record<string, IdempotencyRecord>;
}

/** Letters and digits from the CSPRNG. */
export function randomAlphanumeric(length: number): string {
  let text = '';
  while (text.length < length) text += randomBytes(length).toString('base64').replace(/[^A-Za-z0-9]/g, '');
  return text.slice(0, length);
}

/** A Stripe-looking id: `cus_` and 24 letters and digits. */
export const newId = (prefix: string, length = 24) => `${prefix}_${randomAlphanumeric(length)}`;

function emptyState(created: number): SandboxState {
  return {
    version: 1,
    catalog: {
      created,
      productId: newId('prod', 14),
      priceId: newId('price'),
      paymentLinkId: newId('plink'),
      portalConfigurationId: newId('bpc'),
    },
    customers: {},
    testClocks: {},
    paymentMethods: {},
    subscriptions: {},
    invoices: {},
    checkoutSessions: {},
    portalSessions: {},
    events: {},
    idempotency: {},
  };
}

export interface SandboxStore {
  readonly state: SandboxState;
  /** Record that something changed; `persist()` then writes the file. */
  markChanged(): void;
  persist(): void;
}

export function openStore(stateFile: string | undefined, created: number): SandboxStore {
  const state = stateFile && existsSync(stateFile) ? readStateFile(stateFile) : emptyState(created);
  let changed = stateFile !== undefined && !existsSync(stateFile);
  const store: SandboxStore = {
    state,
    markChanged() {
      changed = true;
    },
    persist() {
      if (!stateFile || !changed) return;
      // Write-then-rename, so a crash mid-write leaves the previous file intact rather than a truncated one.
      mkdirSync(path.dirname(stateFile), { recursive: true });
      const temporary = `${stateFile}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(state));
      renameSync(temporary, stateFile);
      changed = false;
    },
  };
  store.persist();
  return store;
}

function readStateFile(stateFile: string): SandboxState {
  const parsed: unknown = JSON.parse(readFileSync(stateFile, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) {
    throw new Error(`Stripe sandbox: ${stateFile} is not a version 1 sandbox state file; move it away to start fresh`);
  }
  return parsed as SandboxState;
}
