import { describe, expect, it } from 'vitest';
import { deriveSubscriptionView, formatCardBrand, formatCardExpiry, formatDaysRemaining } from './subscription-state';
import { subscriptionStatus } from '../../../test/factories';

const now = new Date('2026-11-22T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

const status = subscriptionStatus;

describe('deriveSubscriptionView', () => {
  it('no subscription: Inactive, upgrade, no trial boxes', () => {
    const view = deriveSubscriptionView(status({}), now);
    expect(view).toMatchObject({
      badge: 'Inactive',
      hasActiveSubscription: false,
      isTrialing: false,
      hasExpiredTrial: false,
      daysRemainingInTrial: 0,
      primaryAction: 'upgrade',
      canCancel: false,
      canResume: false,
      paymentProblem: null,
    });
  });

  it('active: Active badge, manage and cancel, renewal date', () => {
    const view = deriveSubscriptionView(
      status({ status: 'active', planName: 'Pro', currentPeriodEnd: inDays(20), trialEnd: inDays(-10), hasValidAccess: true }),
      now,
    );
    expect(view).toMatchObject({
      badge: 'Active',
      hasActiveSubscription: true,
      isTrialing: false,
      hasExpiredTrial: false,
      primaryAction: 'manage',
      canCancel: true,
      canResume: false,
      renewsAt: inDays(20),
      cancelsAt: null,
    });
  });

  it('trialing: Trial badge with rounded-up days remaining', () => {
    const view = deriveSubscriptionView(
      status({ status: 'trialing', trialEnd: inDays(6.2), currentPeriodEnd: inDays(6.2), hasValidAccess: true }),
      now,
    );
    expect(view).toMatchObject({ badge: 'Trial', isTrialing: true, daysRemainingInTrial: 7, primaryAction: 'manage' });
    expect(view.trialEndsAt).toBe(inDays(6.2));
  });

  it('a trial end in the future counts as trialing even without a Stripe subscription', () => {
    const view = deriveSubscriptionView(status({ status: 'none', trialEnd: inDays(2), hasValidAccess: true }), now);
    expect(view).toMatchObject({ badge: 'Trial', isTrialing: true, daysRemainingInTrial: 2, primaryAction: 'upgrade' });
  });

  it('expired trial: Inactive with the Trial Expired box and upgrade', () => {
    const view = deriveSubscriptionView(status({ status: 'canceled', trialEnd: inDays(-1), trialUsed: true }), now);
    expect(view).toMatchObject({
      badge: 'Inactive',
      isTrialing: false,
      hasExpiredTrial: true,
      daysRemainingInTrial: 0,
      primaryAction: 'upgrade',
    });
  });

  it('cancel at period end: shows when it ends and offers resume instead of cancel', () => {
    const view = deriveSubscriptionView(
      status({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: inDays(12), hasValidAccess: true }),
      now,
    );
    expect(view).toMatchObject({ canCancel: false, canResume: true, cancelsAt: inDays(12), renewsAt: null });
  });

  it('a trial set to cancel ends at the trial end', () => {
    const view = deriveSubscriptionView(
      status({ status: 'trialing', cancelAtPeriodEnd: true, trialEnd: inDays(3), currentPeriodEnd: null, hasValidAccess: true }),
      now,
    );
    expect(view.cancelsAt).toBe(inDays(3));
  });

  it('past due: a payment problem fixed in the portal, not an expired trial', () => {
    const view = deriveSubscriptionView(status({ status: 'past_due', trialEnd: inDays(-30), trialUsed: true }), now);
    expect(view).toMatchObject({
      badge: 'Inactive',
      paymentProblem: 'past_due',
      primaryAction: 'fix-payment',
      hasExpiredTrial: false,
      canCancel: false,
    });
  });

  it('paused at trial end: fixed in the portal, then resumed (Stripe does not resume it when a card is added)', () => {
    const view = deriveSubscriptionView(status({ status: 'paused', trialEnd: inDays(-1), trialUsed: true }), now);
    expect(view).toMatchObject({ paymentProblem: 'paused', primaryAction: 'fix-payment', canResume: true, canCancel: false, cancelsAt: null });
  });

  it('past due within the grace period: access continues until graceUntil', () => {
    const view = deriveSubscriptionView(
      status({ status: 'past_due', graceUntil: inDays(2), hasValidAccess: true, trialUsed: true }),
      now,
    );
    expect(view).toMatchObject({ paymentProblem: 'past_due', graceUntil: inDays(2), hasValidAccess: true });
    expect(deriveSubscriptionView(status({ status: 'past_due', graceUntil: inDays(-1) }), now).graceUntil).toBeNull();
  });

  it('takes valid access from the server', () => {
    expect(deriveSubscriptionView(status({ hasValidAccess: true }), now).hasValidAccess).toBe(true);
    expect(deriveSubscriptionView(status({ status: 'active', hasValidAccess: false }), now).hasValidAccess).toBe(false);
  });
});

describe('billing display helpers', () => {
  it('formats days, brands and expiry', () => {
    expect(formatDaysRemaining(1)).toBe('1 day');
    expect(formatDaysRemaining(7)).toBe('7 days');
    expect(formatCardBrand('visa')).toBe('Visa');
    expect(formatCardBrand('amex')).toBe('American Express');
    expect(formatCardBrand('cartes_bancaires')).toBe('Cartes_bancaires');
    expect(formatCardExpiry(4, 2027)).toBe('04/2027');
  });
});
