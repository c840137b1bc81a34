// The product against the Stripe events that only some flows cause: a Checkout paid by bank debit
// (checkout.session.async_payment_succeeded), a renewal that needs 3-D Secure
// (invoice.payment_action_required), a paused subscription resumed (customer.subscription.resumed), and a trial
// ended only if paid (customer.subscription.pending_update_applied|expired). Each event comes from the sandbox,
// signed, through POST /api/stripe/webhook; the test then checks what the product stored and grants.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { billingCustomers, stripeEvents } from '../../db/schema.ts';
import { advanceTime, AUTHENTICATION_CARD, FAILING_CARD, GOOD_CARD, sandboxOf, stripeClient, submitHostedForm, TEST_BANK_ACCOUNT } from '../../test/stripe.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const SECOND = 1000;
const HOUR = 3_600 * SECOND;
const DAY = 24 * HOUR;

let server: TestServer;
let stripe: Stripe;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  stripe = stripeClient(sandboxOf(server));
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.clock.advance(HOUR);
});

type Account = Awaited<ReturnType<TestServer['signUp']>> & { token: string };

const after = (start: Date, ms: number) => new Date(start.getTime() + ms);
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

async function status(account: Account) {
  return (await server.request('GET', '/api/stripe/subscription-status', { token: account.token })).body;
}

/** The premium call's status: 200 with access, 402 without. */
async function premium(account: Account) {
  return (await server.request('GET', '/api/analytics/summary', { token: account.token })).status;
}

/** Moves time for the app and Stripe, then signs in again (sessions expire over long jumps). */
async function advance(account: Account, to: Date) {
  await advanceTime(server, to);
  const login = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  account.token = login.body.token;
}

/** The ids of the events of this type the product received, verified and recorded. */
async function recordedEvents(type: Stripe.Event['type']) {
  return (await server.db.select().from(stripeEvents).where(eq(stripeEvents.type, type))).map((row) => row.id);
}

async function customerOf(account: Account) {
  const [customer] = await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id));
  return customer!.stripeCustomerId;
}

/** A trial started through the product's checkout; answers the account, when it started and its subscription id. */
async function subscribe(card?: Record<string, string>) {
  const account = (await server.signUp()) as Account;
  const startedAt = server.clock.now();
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  await submitHostedForm(sandboxOf(server), checkout.body.url, card);
  await sandboxOf(server).flushWebhooks();
  const customerId = await customerOf(account);
  const [subscription] = (await stripe.subscriptions.list({ customer: customerId })).data;
  return { account, startedAt, customerId, subscriptionId: subscription!.id };
}

/** The customer's portal, where a card is replaced or an open invoice paid, as the user would in a browser. */
async function portalAction(account: Account, action: 'card' | 'pay', fields: Record<string, string>) {
  const portal = await server.request('POST', '/api/stripe/create-portal-session', { token: account.token, body: {} });
  const url = new URL(portal.body.url);
  const response = await fetch(new URL(`${url.pathname}/${action}`, sandboxOf(server).baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  expect(response.status).toBe(303);
  await sandboxOf(server).flushWebhooks();
  return response.headers.get('location') ?? '';
}

describe('checkout.session.async_payment_succeeded (a US bank account, ACH Direct Debit)', () => {
  it('no access and no second checkout while the debit clears; active with access once it settles', async () => {
    const account = (await server.signUp()) as Account;
    const startedAt = server.clock.now();
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: { trialDays: 0 } });
    await submitHostedForm(sandboxOf(server), checkout.body.url, TEST_BANK_ACCOUNT);
    await sandboxOf(server).flushWebhooks();
    expect(await status(account)).toMatchObject({ status: 'incomplete', hasValidAccess: false });
    expect(await premium(account)).toBe(402);
    // A second subscription now would debit the user twice once both clear.
    const again = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: { trialDays: 0 } });
    expect(again.status).toBe(409);

    await advance(account, after(startedAt, 4 * DAY));
    expect(await recordedEvents('checkout.session.async_payment_succeeded')).toHaveLength(1);
    expect(await status(account)).toMatchObject({ status: 'active', hasValidAccess: true, planName: 'Pro' });
    expect(await premium(account)).toBe(200);
  });
});

describe('invoice.payment_action_required (card 4000 0027 6000 3184)', () => {
  it('a renewal that needs authentication is past due with the grace; authenticating in the portal makes it active', async () => {
    const { account, startedAt, customerId } = await subscribe(AUTHENTICATION_CARD);
    const renewal = after(startedAt, 7 * DAY);

    await advance(account, renewal);
    expect(await recordedEvents('invoice.payment_action_required')).toHaveLength(1);
    expect(await status(account)).toMatchObject({ status: 'past_due', hasValidAccess: true, graceUntil: after(renewal, 3 * DAY).toISOString() });

    const [open] = (await stripe.invoices.list({ customer: customerId, status: 'open' })).data;
    expect(await portalAction(account, 'pay', { invoice: open!.id })).toContain('notice=invoice_paid');
    expect(await status(account)).toMatchObject({ status: 'active', hasValidAccess: true, graceUntil: null });
    expect(await premium(account)).toBe(200);
  });
});

describe('customer.subscription.resumed', () => {
  it('a subscription paused at trial end without a card: the user adds a card and resumes it, and has access again', async () => {
    const account = (await server.signUp()) as Account;
    // The product's checkout links a customer; this subscription is one made elsewhere (the dashboard) with
    // trial_settings.end_behavior.missing_payment_method=pause, which the product's own checkout does not use.
    await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
    const customerId = await customerOf(account);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price: sandboxOf(server).priceId, quantity: 1 }],
      success_url: 'http://localhost/billing',
      payment_method_collection: 'if_required',
      subscription_data: { trial_period_days: 7, trial_settings: { end_behavior: { missing_payment_method: 'pause' } }, metadata: { userId: String(account.user.id) } },
    });
    const startedAt = server.clock.now();
    await submitHostedForm(sandboxOf(server), session.url!);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    await advance(account, after(startedAt, 7 * DAY));
    expect(await status(account)).toMatchObject({ status: 'paused', hasValidAccess: false });
    expect(await premium(account)).toBe(402);

    // Resuming charges the first month at once, so the product asks for a card first.
    const withoutCard = await server.request('POST', '/api/stripe/resume-subscription', { token: account.token });
    expect(withoutCard.status).toBe(409);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('paused');

    // Adding a card does not resume anything at Stripe; the user's "Resume" does.
    await portalAction(account, 'card', GOOD_CARD);
    expect(await status(account)).toMatchObject({ status: 'paused', hasValidAccess: false });
    const resumedAt = after(startedAt, 8 * DAY);
    await advance(account, resumedAt);
    const answer = await server.request('POST', '/api/stripe/resume-subscription', { token: account.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'active', hasValidAccess: true });
    await sandboxOf(server).flushWebhooks();

    expect(await recordedEvents('customer.subscription.resumed')).toHaveLength(1);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    const resumed = await status(account);
    expect(resumed).toMatchObject({ status: 'active', hasValidAccess: true, planName: 'Pro' });
    expect(new Date(resumed.currentPeriodEnd).getTime()).toBeGreaterThan(after(resumedAt, 27 * DAY).getTime());
    expect(await premium(account)).toBe(200);
  });
});

describe('ending the trial only if paid (payment_behavior=pending_if_incomplete)', () => {
  const endTrialIfPaid = (subscriptionId: string) => stripe.subscriptions.update(subscriptionId, { trial_end: 'now', payment_behavior: 'pending_if_incomplete' });

  it('pending_update_applied: still trialing while unpaid; active from the request time once the invoice is paid', async () => {
    const { account, startedAt, subscriptionId } = await subscribe(FAILING_CARD);
    const requestedAt = after(startedAt, 2 * DAY);
    await advance(account, requestedAt);
    const pending = await endTrialIfPaid(subscriptionId);
    await sandboxOf(server).flushWebhooks();
    expect(await status(account)).toMatchObject({ status: 'trialing', trialEnd: after(startedAt, 7 * DAY).toISOString(), hasValidAccess: true });

    await portalAction(account, 'card', GOOD_CARD);
    await portalAction(account, 'pay', { invoice: pending.latest_invoice as string });
    expect(await recordedEvents('customer.subscription.pending_update_applied')).toHaveLength(1);
    expect(await status(account)).toMatchObject({ status: 'active', trialEnd: requestedAt.toISOString(), hasValidAccess: true });
  });

  it('pending_update_expired: 23 hours later the update is gone and the trial runs on as before', async () => {
    const { account, startedAt, subscriptionId } = await subscribe(FAILING_CARD);
    const requestedAt = server.clock.now();
    const pending = await endTrialIfPaid(subscriptionId);
    expect(pending.pending_update?.expires_at).toBe(unix(after(requestedAt, 23 * HOUR)));

    await advance(account, after(requestedAt, 23 * HOUR));
    expect(await recordedEvents('customer.subscription.pending_update_expired')).toHaveLength(1);
    expect(await status(account)).toMatchObject({ status: 'trialing', trialEnd: after(startedAt, 7 * DAY).toISOString(), hasValidAccess: true });
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: account.token });
    expect(invoices.body.invoices.map((invoice: { status: string }) => invoice.status)).toEqual(['void', 'paid']);
  });
});
