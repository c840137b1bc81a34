import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { SubscriptionRow } from './billing.repository.ts';
import { accessEndedAt, dataDeletionAt, describeSubscription, graceUntil, hasAccess, LAPSED_DATA_KEPT_MS, mostRelevantSubscription, PAST_DUE_GRACE_MS, storedFields, trialWasUsed } from './subscription-state.ts';

const now = new Date('2026-11-02T10:00:00Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const DAY = 86_400_000;

function subscription(overrides: Partial<Stripe.Subscription> & { periodStart?: Date; periodEnd?: Date } = {}): Stripe.Subscription {
  const { periodStart = now, periodEnd = at(30 * DAY), ...fields } = overrides;
  return {
    id: 'sub_1',
    status: 'active',
    created: seconds(now),
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    default_payment_method: null,
    items: { data: [{ price: { id: 'price_pro' }, current_period_start: seconds(periodStart), current_period_end: seconds(periodEnd) }] },
    ...fields,
  } as unknown as Stripe.Subscription;
}

function row(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    userId: 1,
    stripeCustomerId: 'cus_1',
    ...storedFields(subscription()),
    trialUsed: false,
    syncedAt: now,
    ...overrides,
  } as SubscriptionRow;
}

describe('mostRelevantSubscription', () => {
  it('prefers a running subscription over a newer ended one, then the newest', () => {
    const oldActive = subscription({ id: 'sub_old', status: 'active', created: 100 });
    const newCanceled = subscription({ id: 'sub_new', status: 'canceled', created: 200 });
    expect(mostRelevantSubscription([newCanceled, oldActive])?.id).toBe('sub_old');
    const olderCanceled = subscription({ id: 'sub_a', status: 'canceled', created: 100 });
    expect(mostRelevantSubscription([olderCanceled, newCanceled])?.id).toBe('sub_new');
    expect(mostRelevantSubscription([])).toBeUndefined();
  });
});

describe('storedFields', () => {
  it('reads the billing period from the subscription item (API 2025-03-31 and later)', () => {
    const fields = storedFields(subscription({ periodStart: at(DAY), periodEnd: at(31 * DAY) }));
    expect(fields.currentPeriodStart).toEqual(at(DAY));
    expect(fields.currentPeriodEnd).toEqual(at(31 * DAY));
    expect(fields.stripePriceId).toBe('price_pro');
  });

  it('ends a trial that was canceled early when the subscription ended', () => {
    const fields = storedFields(
      subscription({ status: 'canceled', trial_start: seconds(now), trial_end: seconds(at(7 * DAY)), ended_at: seconds(at(DAY)), canceled_at: seconds(at(DAY)) }),
    );
    expect(fields.trialEnd).toEqual(at(DAY));
    expect(hasAccess(row(fields), at(2 * DAY))).toBe(false);
  });

  it('stores "none" when the customer has no subscription', () => {
    expect(storedFields(undefined)).toMatchObject({ status: 'none', stripeSubscriptionId: null, trialEnd: null });
  });
});

describe('trialWasUsed', () => {
  it('is spent by any trial or any subscription past its first payment, not by an incomplete checkout', () => {
    expect(trialWasUsed([])).toBe(false);
    expect(trialWasUsed([subscription({ status: 'incomplete_expired' })])).toBe(false);
    expect(trialWasUsed([subscription({ status: 'canceled', trial_start: 1 })])).toBe(true);
    expect(trialWasUsed([subscription({ status: 'active' })])).toBe(true);
  });
});

describe('access', () => {
  it('follows the spec: active or trialing, or a trial end in the future unless the subscription ended (issue 14)', () => {
    expect(hasAccess(undefined, now)).toBe(false);
    expect(hasAccess(row({ status: 'active' }), now)).toBe(true);
    expect(hasAccess(row({ status: 'trialing', trialEnd: at(-DAY) }), now)).toBe(true);
    expect(hasAccess(row({ status: 'incomplete', trialEnd: at(1000) }), now)).toBe(true);
    expect(hasAccess(row({ status: 'canceled', trialEnd: at(1000) }), now)).toBe(false);
    expect(hasAccess(row({ status: 'incomplete_expired', trialEnd: at(1000) }), now)).toBe(false);
    expect(hasAccess(row({ status: 'canceled', trialEnd: now }), now)).toBe(false);
    expect(hasAccess(row({ status: 'unpaid' }), now)).toBe(false);
    expect(hasAccess(row({ status: 'none' }), now)).toBe(false);
  });

  it('keeps a past-due account in for exactly 3 days after the failed renewal', () => {
    const pastDue = row({ status: 'past_due', currentPeriodStart: now });
    expect(graceUntil(pastDue)).toEqual(at(PAST_DUE_GRACE_MS));
    expect(hasAccess(pastDue, at(PAST_DUE_GRACE_MS - 1000))).toBe(true);
    expect(hasAccess(pastDue, at(PAST_DUE_GRACE_MS))).toBe(false);
    expect(graceUntil(row({ status: 'active' }))).toBeNull();
  });

  it('describes no subscription as the Free plan with status none', () => {
    expect(describeSubscription(undefined, now, { sandbox: true })).toEqual({
      status: 'none',
      trialEnd: null,
      planName: 'Free',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: null,
      price: 20,
      currency: 'usd',
      trialUsed: false,
      graceUntil: null,
      hasValidAccess: false,
      dataDeletedOn: null,
      sandbox: true,
    });
  });

  it('reports a pending cancellation only while the subscription runs', () => {
    expect(describeSubscription(row({ status: 'active', cancelAtPeriodEnd: true }), now, { sandbox: false }).cancelAtPeriodEnd).toBe(true);
    expect(describeSubscription(row({ status: 'active', cancelAt: at(DAY) }), now, { sandbox: false }).cancelAtPeriodEnd).toBe(true);
    expect(describeSubscription(row({ status: 'canceled', cancelAtPeriodEnd: true }), now, { sandbox: false }).cancelAtPeriodEnd).toBe(false);
  });
});

describe('the end of access and the deletion of a lapsed account\'s data', () => {
  it('is null while access is valid and for a row that never gave access', () => {
    expect(accessEndedAt(row({ status: 'active' }), now)).toBeNull();
    expect(accessEndedAt(row({ status: 'trialing', trialEnd: at(-DAY) }), now)).toBeNull();
    expect(accessEndedAt(row({ status: 'past_due', currentPeriodStart: at(-DAY) }), now)).toBeNull();
    expect(accessEndedAt(row({ status: 'incomplete' }), now)).toBeNull();
    expect(accessEndedAt(undefined, now)).toBeNull();
    expect(dataDeletionAt(row({ status: 'active' }), now)).toBeNull();
  });

  it('dates the end from the latest moment that gave access and has passed', () => {
    // A trial that ran out without a card.
    expect(accessEndedAt(row({ status: 'paused', trialEnd: at(-2 * DAY) }), now)).toEqual(at(-2 * DAY));
    // A paid subscription that ended long after its trial.
    expect(accessEndedAt(row({ status: 'canceled', trialEnd: at(-60 * DAY), endedAt: at(-DAY) }), now)).toEqual(at(-DAY));
    // A failed renewal: the grace's end, whether Stripe still retries (past_due) or gave up (unpaid).
    expect(accessEndedAt(row({ status: 'past_due', currentPeriodStart: at(-5 * DAY) }), now)).toEqual(at(-5 * DAY + PAST_DUE_GRACE_MS));
    expect(accessEndedAt(row({ status: 'unpaid', currentPeriodStart: at(-5 * DAY) }), now)).toEqual(at(-5 * DAY + PAST_DUE_GRACE_MS));
    expect(dataDeletionAt(row({ status: 'canceled', endedAt: at(-DAY) }), now)).toEqual(at(-DAY + LAPSED_DATA_KEPT_MS));
    expect(LAPSED_DATA_KEPT_MS).toBe(30 * DAY);
  });

  it('is answered as dataDeletedOn by the billing status', () => {
    expect(describeSubscription(row({ status: 'canceled', endedAt: at(-DAY) }), now, { sandbox: false }).dataDeletedOn).toBe(at(29 * DAY).toISOString());
    expect(describeSubscription(row({ status: 'active' }), now, { sandbox: false }).dataDeletedOn).toBeNull();
  });
});
