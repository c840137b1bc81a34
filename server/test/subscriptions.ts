// Premium access written straight into our copy of the subscription, for tests that need a user with access but not
// the checkout that gives it (that is tested in server/modules/billing/). The 402 gate reads only this row.
import { subscriptions } from '../db/schema.ts';
import type { TestServer } from './test-server.ts';

const DAY = 24 * 3_600_000;

/** An active, paid subscription for the user, from a day ago to 29 days ahead of the server's clock. */
export async function grantActiveSubscription(server: Pick<TestServer, 'db' | 'clock'>, userId: number) {
  const now = server.clock.now();
  await server.db.insert(subscriptions).values({
    userId,
    stripeCustomerId: `cus_granted_${userId}`,
    stripeSubscriptionId: `sub_granted_${userId}`,
    status: 'active',
    currentPeriodStart: new Date(now.getTime() - DAY),
    currentPeriodEnd: new Date(now.getTime() + 29 * DAY),
    trialUsed: true,
    syncedAt: now,
  });
}
