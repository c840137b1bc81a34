// What the billing screen shows for a subscription status (spec section 4, "Subscription derived states"),
// as one pure function of the server's answer and the current time.
import { trialDaysRemaining, type SubscriptionStatus } from '#contract/billing.ts';

export type StatusBadge = 'Active' | 'Trial' | 'Inactive';

/** What the main billing button does: start Checkout, open the portal, or fix a failed payment in the portal. */
export type PrimaryAction = 'upgrade' | 'manage' | 'fix-payment';

/** Statuses where a Stripe subscription exists but is not being paid for. */
export type PaymentProblem = 'past_due' | 'unpaid' | 'incomplete' | 'paused';

export interface SubscriptionView {
  badge: StatusBadge;
  hasActiveSubscription: boolean;
  isTrialing: boolean;
  hasExpiredTrial: boolean;
  /** The server's verdict (its clock decides), the same one the guard uses. */
  hasValidAccess: boolean;
  daysRemainingInTrial: number;
  trialEndsAt: string | null;
  primaryAction: PrimaryAction;
  paymentProblem: PaymentProblem | null;
  /** A past-due account keeps access until this time while Stripe retries the card. */
  graceUntil: string | null;
  canCancel: boolean;
  canResume: boolean;
  /** When a cancel-at-period-end takes effect. */
  cancelsAt: string | null;
  /** Next renewal of an active subscription that is not being cancelled. */
  renewsAt: string | null;
}

const paymentProblems: ReadonlySet<string> = new Set<PaymentProblem>(['past_due', 'unpaid', 'incomplete', 'paused']);

function isFuture(iso: string | null, now: Date): boolean {
  return iso !== null && new Date(iso).getTime() > now.getTime();
}

export function deriveSubscriptionView(subscription: SubscriptionStatus, now: Date): SubscriptionView {
  const { status, trialEnd, cancelAtPeriodEnd, currentPeriodEnd } = subscription;
  const hasActiveSubscription = status === 'active';
  const isTrialing = !hasActiveSubscription && (status === 'trialing' || isFuture(trialEnd, now));
  const paymentProblem = paymentProblems.has(status) ? (status as PaymentProblem) : null;
  // A failed renewal after the trial is a payment problem, not an expired trial.
  const hasExpiredTrial =
    !hasActiveSubscription && paymentProblem === null && trialEnd !== null && !isFuture(trialEnd, now);
  const hasStripeSubscription = status === 'active' || status === 'trialing';

  const graceEnd = subscription.graceUntil ?? null;
  const graceUntil = paymentProblem === 'past_due' && isFuture(graceEnd, now) ? graceEnd : null;

  const primaryAction: PrimaryAction = hasStripeSubscription ? 'manage' : paymentProblem ? 'fix-payment' : 'upgrade';

  return {
    badge: hasActiveSubscription ? 'Active' : isTrialing ? 'Trial' : 'Inactive',
    hasActiveSubscription,
    isTrialing,
    hasExpiredTrial,
    hasValidAccess: subscription.hasValidAccess,
    daysRemainingInTrial: isTrialing ? trialDaysRemaining(trialEnd, now) : 0,
    trialEndsAt: isTrialing ? trialEnd : null,
    primaryAction,
    paymentProblem,
    graceUntil,
    canCancel: hasStripeSubscription && !cancelAtPeriodEnd,
    // A paused subscription (trial ended without a card) comes back only through Resume, once a card is added.
    canResume: (hasStripeSubscription && cancelAtPeriodEnd) || status === 'paused',
    cancelsAt: hasStripeSubscription && cancelAtPeriodEnd ? (currentPeriodEnd ?? trialEnd) : null,
    renewsAt: hasActiveSubscription && !cancelAtPeriodEnd ? currentPeriodEnd : null,
  };
}

/** '7 days', '1 day', '0 days'. */
export function formatDaysRemaining(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** 'Visa', 'Mastercard', 'American Express' from Stripe's lowercase brand ids. */
export function formatCardBrand(brand: string): string {
  const known: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    discover: 'Discover',
    diners: 'Diners Club',
    jcb: 'JCB',
    unionpay: 'UnionPay',
  };
  return known[brand.toLowerCase()] ?? (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Card');
}

/** '04/2027' */
export function formatCardExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${year}`;
}
