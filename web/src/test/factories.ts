// Shared test data for the web app's tests.
import type { SubscriptionStatus } from '../../../contract/billing';

/** A subscription status as the server sends it: the Free plan with no subscription, plus overrides. */
export function subscriptionStatus(overrides: Partial<SubscriptionStatus> = {}): SubscriptionStatus {
  return {
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
    sandbox: true,
    ...overrides,
  };
}
