// Premium access written straight into our copy of the subscription, for tests that need a user with access but not
// the checkout that gives it (that is tested in server/modules/billing/). The 402 gate reads only this row. And the
// end of a trial as Stripe brings it (the sandbox on the server's clock), for tests of what a lapsed account keeps.
import { subscriptions } from '../db/schema.ts';
import { advanceTime, GOOD_CARD, sandboxOf, submitHostedForm } from './stripe.ts';
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

/**
 * A signed-in user on a free trial without a card, started through checkout (the Stripe sandbox): at its end it
 * expires into no access (the "Trial Expired" state). Answers the account and when the trial ends.
 */
export async function signUpWithTrialWithoutCard(server: TestServer) {
  const account = (await server.signUp()) as Awaited<ReturnType<TestServer['signUp']>> & { token: string };
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  if (checkout.status !== 200) throw new Error(`checkout failed: ${checkout.status}`);
  await submitHostedForm(sandboxOf(server), checkout.body.url);
  await sandboxOf(server).flushWebhooks();
  const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  if (status.body.status !== 'trialing') throw new Error(`the trial did not start: ${JSON.stringify(status.body)}`);
  await server.mailer.idle();
  return { account, trialEnd: new Date(status.body.trialEnd as string) };
}

/**
 * Moves the app's and Stripe's clock to the trial's end (Stripe ends it and tells the app by webhook), then signs in
 * again so the account has a fresh session; the trial is then expired.
 */
export async function expireTrial(server: TestServer, account: { username: string; password: string; token: string }, trialEnd: Date) {
  await advanceTime(server, trialEnd);
  const login = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  account.token = login.body.token as string;
  const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  if (status.body.hasValidAccess !== false) throw new Error(`the trial did not expire: ${JSON.stringify(status.body)}`);
}

/** Subscribes again through checkout with a good card (no second trial): access at once, through Stripe's webhooks. */
export async function resubscribe(server: TestServer, account: { token: string }) {
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  if (checkout.status !== 200) throw new Error(`checkout failed: ${checkout.status}`);
  await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
  await sandboxOf(server).flushWebhooks();
  const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  if (status.body.hasValidAccess !== true) throw new Error(`resubscribing gave no access: ${JSON.stringify(status.body)}`);
}
