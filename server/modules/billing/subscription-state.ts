// Pure rules about a subscription: which of a customer's Stripe subscriptions counts, what we store of it,
// and what access it gives. No I/O, so each rule is tested on its own and used the same way everywhere.
import type Stripe from 'stripe';
import { FREE_PLAN_NAME, hasValidAccess, PLAN, type SubscriptionStatus, subscriptionStatusValue } from '#contract/billing.ts';
import type { SubscriptionRow, SubscriptionValues } from './billing.repository.ts';

const DAY_MS = 86_400_000;

/**
 * A past-due account keeps access this long after the failed renewal, while Stripe retries the charge
 * (the first retry comes 3 days later). See docs/decisions/002-past-due-access.md.
 */
export const PAST_DUE_GRACE_MS = 3 * DAY_MS;

/** Picked first when a customer has several subscriptions (brief: active, trialing, past_due before the newest). */
const PREFERRED_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/**
 * A subscription that still exists in Stripe and can still bill: starting another one would charge the
 * customer twice, so a new checkout is refused while one of these is on record.
 */
export const RUNNING_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'unpaid', 'paused']);

export function mostRelevantSubscription(list: readonly Stripe.Subscription[]): Stripe.Subscription | undefined {
  const newestFirst = [...list].sort((a, b) => b.created - a.created);
  return newestFirst.find((subscription) => PREFERRED_STATUSES.has(subscription.status)) ?? newestFirst[0];
}

/**
 * The trial is for first-time subscribers: it is spent once any subscription had a trial or got past its
 * first payment. An incomplete first checkout (card declined) spends nothing.
 */
export function trialWasUsed(list: readonly Stripe.Subscription[]): boolean {
  return list.some((subscription) => subscription.trial_start !== null || !['incomplete', 'incomplete_expired'].includes(subscription.status));
}

const fromUnix = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : new Date(seconds * 1000));
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

type StoredFields = Omit<SubscriptionValues, 'userId' | 'stripeCustomerId' | 'trialUsed' | 'syncedAt'>;

/** What we store of the subscription Stripe has now; every field is overwritten, so nothing stale survives. */
export function storedFields(subscription: Stripe.Subscription | undefined): StoredFields {
  if (!subscription) {
    return {
      stripeSubscriptionId: null,
      stripePriceId: null,
      status: 'none',
      trialStart: null,
      trialEnd: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      defaultPaymentMethodId: null,
    };
  }
  // Since API version 2025-03-31 the billing period lives on the item, not on the subscription.
  const item = subscription.items.data[0];
  const endedAt = fromUnix(subscription.ended_at);
  let trialEnd = fromUnix(subscription.trial_end);
  // Stripe keeps trial_end on a trial canceled early. The trial ended with the subscription, and "trialEnd in
  // the future" must not keep granting access after "cancel now".
  if (trialEnd && endedAt && endedAt < trialEnd) trialEnd = endedAt;
  return {
    stripeSubscriptionId: subscription.id,
    stripePriceId: item?.price.id ?? null,
    status: subscription.status,
    trialStart: fromUnix(subscription.trial_start),
    trialEnd,
    currentPeriodStart: fromUnix(item?.current_period_start),
    currentPeriodEnd: fromUnix(item?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt: fromUnix(subscription.cancel_at),
    canceledAt: fromUnix(subscription.canceled_at),
    endedAt,
    defaultPaymentMethodId: idOf(subscription.default_payment_method),
  };
}

/** Until when a past-due account keeps access: the failed renewal started the current period. */
export function graceUntil(row: Pick<SubscriptionRow, 'status' | 'currentPeriodStart'>): Date | null {
  if (row.status !== 'past_due' || !row.currentPeriodStart) return null;
  return new Date(row.currentPeriodStart.getTime() + PAST_DUE_GRACE_MS);
}

/**
 * After access ends, an account's synced platform data is kept this long for its owner, then deleted
 * (docs/platforms/data-retention.md); subscribing again before then keeps it.
 */
export const LAPSED_DATA_KEPT_MS = 30 * DAY_MS;

/** What the end of access is dated from, of a stored subscription row. */
export type AccessEndFields = Pick<SubscriptionRow, 'status' | 'trialEnd' | 'currentPeriodStart' | 'endedAt'>;

/**
 * When the account's access ended, for an account without access at `now`: the latest of the moments that gave access
 * and have passed (the trial's end, the end of a past-due or unpaid renewal's grace, the subscription's end). Null
 * while access is valid, and for a row that never gave access (a checkout that was never paid, no trial).
 */
export function accessEndedAt(row: AccessEndFields | undefined, now: Date): Date | null {
  if (!row || hasAccess(row, now)) return null;
  const graceEnd = (row.status === 'past_due' || row.status === 'unpaid') && row.currentPeriodStart ? new Date(row.currentPeriodStart.getTime() + PAST_DUE_GRACE_MS) : null;
  const passed = [row.trialEnd, graceEnd, row.endedAt].filter((moment): moment is Date => moment !== null && moment.getTime() <= now.getTime());
  if (passed.length === 0) return null;
  return new Date(Math.max(...passed.map((moment) => moment.getTime())));
}

/** When the lapsed account's synced data is deleted (from then on, at the daily job's next run); null while access is valid. */
export function dataDeletionAt(row: AccessEndFields | undefined, now: Date): Date | null {
  const ended = accessEndedAt(row, now);
  return ended && new Date(ended.getTime() + LAPSED_DATA_KEPT_MS);
}

/** What access is decided on, of a stored subscription row. */
export type SubscriptionAccessFields = Pick<SubscriptionRow, 'status' | 'trialEnd' | 'currentPeriodStart'>;

/** The one access rule, shared with the web app (contract/billing.ts), fed from our stored row. */
export function hasAccess(row: SubscriptionAccessFields | undefined, now: Date): boolean {
  if (!row) return false;
  return hasValidAccess({ status: row.status, trialEnd: row.trialEnd?.toISOString() ?? null, graceUntil: graceUntil(row)?.toISOString() ?? null }, now);
}

export function describeSubscription(row: SubscriptionRow | undefined, now: Date, options: { sandbox: boolean }): SubscriptionStatus {
  const access = hasAccess(row, now);
  // A status Stripe adds after this code was written reads as "none" rather than failing the response.
  const parsedStatus = subscriptionStatusValue.safeParse(row?.status ?? 'none');
  const running = row !== undefined && RUNNING_STATUSES.has(row.status);
  return {
    status: parsedStatus.success ? parsedStatus.data : 'none',
    trialEnd: row?.trialEnd?.toISOString() ?? null,
    planName: access ? PLAN.name : FREE_PLAN_NAME,
    // The portal may set cancel_at instead of cancel_at_period_end; either way the subscription is ending.
    cancelAtPeriodEnd: running && (row.cancelAtPeriodEnd || row.cancelAt !== null),
    currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    price: PLAN.priceCents / 100,
    currency: PLAN.currency,
    trialUsed: row?.trialUsed ?? false,
    graceUntil: row ? (graceUntil(row)?.toISOString() ?? null) : null,
    hasValidAccess: access,
    dataDeletedOn: dataDeletionAt(row, now)?.toISOString() ?? null,
    sandbox: options.sandbox,
  };
}
