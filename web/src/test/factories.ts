// Shared test data for the web app's tests.
import type { SubscriptionStatus } from '../../../contract/billing';
import type { PlatformConnection } from '../../../contract/platforms';

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

/** A connected YouTube channel as GET /api/platformconnections lists it, plus overrides. */
export function platformConnection(overrides: Partial<PlatformConnection> = {}): PlatformConnection {
  return {
    id: 4,
    platformId: 1,
    platformName: 'YouTube',
    platform: 'youtube',
    platformUsername: 'maya',
    platformUserId: 'UC123',
    displayName: 'Maya Creates',
    avatarUrl: null,
    connectedAt: '2026-03-01T10:00:00.000Z',
    followers: 12_345,
    isActive: true,
    manual: false,
    needsReconnect: false,
    lastSyncedAt: null,
    syncStatus: 'idle',
    ...overrides,
  };
}
