// The /api/stripe calls (spec section 7) and the derived subscription rules the web app and server share.
import { z } from 'zod';

export const PLAN = { name: 'Pro', priceCents: 2000, currency: 'usd', interval: 'month', trialDays: 7 } as const;
export const FREE_PLAN_NAME = 'Free';

export const subscriptionStatusValue = z.enum([
  'none',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
]);
export type SubscriptionStatusValue = z.infer<typeof subscriptionStatusValue>;

export const subscriptionStatusResponse = z.object({
  status: subscriptionStatusValue,
  trialEnd: z.iso.datetime().nullable(),
  planName: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: z.iso.datetime().nullable(),
  /** Price in major units, e.g. 20 for $20.00. */
  price: z.number(),
  currency: z.string(),
  /** Whether this account already used its one free trial. */
  trialUsed: z.boolean(),
  /**
   * A past-due account keeps access until this time while Stripe retries the failed renewal
   * (docs/decisions/002-past-due-access.md); null otherwise.
   */
  graceUntil: z.iso.datetime().nullable().optional(),
  /** Server's verdict on premium access (same rule as hasValidAccess below, evaluated with the server's clock). */
  hasValidAccess: z.boolean(),
  /**
   * After a trial or subscription ended: when the account's synced platform data (connections, their history and
   * posts) is deleted, 30 days after access ended, unless the account subscribes again before then
   * (docs/platforms/data-retention.md). Null while access is valid, and when the account never had access.
   */
  dataDeletedOn: z.iso.datetime().nullable().optional(),
  /** Billing runs against the local Stripe sandbox, not real Stripe. */
  sandbox: z.boolean(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusResponse>;

export const createCheckoutSessionRequest = z.strictObject({
  priceId: z.string().max(200).optional(),
  successUrl: z.string().max(2000).optional(),
  cancelUrl: z.string().max(2000).optional(),
  trialDays: z.number().int().min(0).max(365).optional(),
});
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequest>;
export const createCheckoutSessionResponse = z.object({ url: z.string(), sessionId: z.string() });

export const createPortalSessionRequest = z.strictObject({ returnUrl: z.string().max(2000).optional() });
export const createPortalSessionResponse = z.object({ url: z.string() });

export const cancelSubscriptionRequest = z.strictObject({ cancelAtPeriodEnd: z.boolean().optional().default(true) });
export const resumeSubscriptionRequest = z.strictObject({});
/** Cancel, resume and sync answer with the subscription as it is after the call. */
export const cancelSubscriptionResponse = subscriptionStatusResponse;
export const resumeSubscriptionResponse = subscriptionStatusResponse;

/** Re-reads the user's subscription from Stripe; `sessionId` links a payment-link checkout made with the user's email. */
export const syncSubscriptionRequest = z.strictObject({ sessionId: z.string().max(200).optional() });

// The bodies as the calls take them: each may be absent (an empty POST), as the spec's client sends some of them.
export const createCheckoutSessionBody = createCheckoutSessionRequest.nullish();
export const createPortalSessionBody = createPortalSessionRequest.nullish();
export const cancelSubscriptionBody = cancelSubscriptionRequest.nullish();
export const resumeSubscriptionBody = resumeSubscriptionRequest.nullish();
export const syncSubscriptionBody = syncSubscriptionRequest.nullish();
export const syncSubscriptionResponse = subscriptionStatusResponse;

export const paymentMethod = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export const paymentMethodsResponse = z.object({ paymentMethods: z.array(paymentMethod) });
export type PaymentMethod = z.infer<typeof paymentMethod>;

export const invoice = z.object({
  id: z.string(),
  number: z.string().nullable(),
  date: z.iso.datetime(),
  /** Amount in major units (dollars). */
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  hostedInvoiceUrl: z.string().nullable(),
  invoicePdfUrl: z.string().nullable(),
});
export const invoicesResponse = z.object({ invoices: z.array(invoice) });
export type Invoice = z.infer<typeof invoice>;

/** Body of every 402 from a premium call. */
export const paymentRequiredBody = z.object({ message: z.string(), code: z.literal('payment_required'), upgradeUrl: z.string() });

/** Subscriptions that ended for good: no trial end or grace keeps access. */
const ENDED_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/**
 * Valid access (spec section 4): active or trialing, or a trial end still in the future unless the subscription
 * ended (canceled, incomplete_expired); and, for a past-due account, until the end of its grace period
 * (docs/decisions/002-past-due-access.md).
 */
export function hasValidAccess(status: { status: string; trialEnd: string | null; graceUntil?: string | null }, now: Date): boolean {
  if (status.status === 'active' || status.status === 'trialing') return true;
  // Ended for good: a subscription canceled during its trial, or never paid, keeps no trial access.
  if (ENDED_STATUSES.has(status.status)) return false;
  if (status.graceUntil && new Date(status.graceUntil).getTime() > now.getTime()) return true;
  return status.trialEnd !== null && new Date(status.trialEnd).getTime() > now.getTime();
}

/** Rounded-up days until the trial ends, never below 0; 0 without a trial end. */
export function trialDaysRemaining(trialEnd: string | null, now: Date): number {
  if (!trialEnd) return 0;
  const ms = new Date(trialEnd).getTime() - now.getTime();
  return Math.max(0, Math.ceil(ms / 86_400_000));
}

/** What the Stripe webhook endpoint answers once an event is verified (processed, or already processed). */
export const webhookResponse = z.object({ received: z.literal(true) });
