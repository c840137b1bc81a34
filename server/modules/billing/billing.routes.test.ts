// The /api/stripe calls against the real server, a real database and the Stripe sandbox over HTTP.
import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { billingCustomers, subscriptions } from '../../db/schema.ts';
import { breakEventRecording, GOOD_CARD, sandboxOf, stripeClient, submitHostedForm, waitFor } from '../../test/stripe.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';

const HOUR = 3_600_000;
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
// Fresh per-network sign-up and sign-in windows for every test.
beforeEach(() => {
  server.clock.advance(HOUR);
});

type Account = Awaited<ReturnType<TestServer['signUp']>> & { token: string };
const signUp = async () => (await server.signUp()) as Account;

async function status(account: Account) {
  const response = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  expect(response.status).toBe(200);
  return response.body;
}

/** Starts checkout through the API and completes it on the hosted page; answers the session id. */
async function subscribe(account: Account, { card, body = {} }: { card?: Record<string, string>; body?: Record<string, unknown> } = {}) {
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body });
  expect(checkout.status).toBe(200);
  const location = await submitHostedForm(sandboxOf(server), checkout.body.url, card);
  await sandboxOf(server).flushWebhooks();
  return { sessionId: checkout.body.sessionId as string, location };
}

async function customerIdOf(account: Account) {
  const [row] = await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id));
  return row?.stripeCustomerId;
}

describe('every /api/stripe call', () => {
  it.each([
    ['GET', '/api/stripe/subscription-status'],
    ['POST', '/api/stripe/create-checkout-session'],
    ['POST', '/api/stripe/create-portal-session'],
    ['POST', '/api/stripe/cancel-subscription'],
    ['POST', '/api/stripe/resume-subscription'],
    ['GET', '/api/stripe/payment-methods'],
    ['GET', '/api/stripe/invoices'],
    ['POST', '/api/stripe/sync'],
  ])('%s %s needs a signed-in user (401) and is never 402', async (method, path) => {
    const anonymous = await server.request(method, path);
    expect(anonymous.status).toBe(401);
    const account = await signUp();
    const signedIn = await server.request(method, path, { token: account.token });
    expect(signedIn.status).not.toBe(401);
    expect(signedIn.status).not.toBe(402);
  });
});

describe('a new account', () => {
  it('is on the Free plan with status none, no access, and nothing at Stripe yet', async () => {
    const account = await signUp();
    expect(await status(account)).toEqual({
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
    expect(await customerIdOf(account)).toBeUndefined();
    const methods = await server.request('GET', '/api/stripe/payment-methods', { token: account.token });
    expect(methods.body).toEqual({ paymentMethods: [] });
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: account.token });
    expect(invoices.body).toEqual({ invoices: [] });
    const sync = await server.request('POST', '/api/stripe/sync', { token: account.token });
    expect(sync.status).toBe(200);
    expect(sync.body.status).toBe('none');
  });
});

describe('POST /api/stripe/create-checkout-session', () => {
  it('starts a 7-day trial without a card: hosted checkout, then the webhook makes the account trialing', async () => {
    const account = await signUp();
    const startedAt = server.clock.now();
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
    expect(checkout.status).toBe(200);
    expect(checkout.body.sessionId).toMatch(/^cs_/);
    expect(new URL(checkout.body.url).pathname).toBe(`/c/pay/${checkout.body.sessionId}`);

    // The customer is created lazily, with the user's email and id, and stored on our side.
    const customerId = await customerIdOf(account);
    const customer = (await stripe.customers.retrieve(customerId!)) as Stripe.Customer;
    expect(customer).toMatchObject({ email: account.email, metadata: { userId: String(account.user.id) } });
    const session = await stripe.checkout.sessions.retrieve(checkout.body.sessionId);
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: String(account.user.id),
      payment_method_collection: 'if_required',
      success_url: `${TEST_PUBLIC_URL}/billing?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${TEST_PUBLIC_URL}/billing?canceled=true`,
    });

    const location = await submitHostedForm(sandboxOf(server), checkout.body.url);
    expect(location).toBe(`${TEST_PUBLIC_URL}/billing?success=true&session_id=${checkout.body.sessionId}`);
    await sandboxOf(server).flushWebhooks();

    const trialEnd = new Date(startedAt.getTime() + 7 * DAY).toISOString();
    expect(await status(account)).toMatchObject({ status: 'trialing', trialEnd, planName: 'Pro', hasValidAccess: true, trialUsed: true, cancelAtPeriodEnd: false });
    const [subscription] = (await stripe.subscriptions.list({ customer: customerId!, status: 'all' })).data;
    expect(subscription).toMatchObject({ status: 'trialing', trial_settings: { end_behavior: { missing_payment_method: 'cancel' } }, metadata: { userId: String(account.user.id) } });
    expect((await server.request('GET', '/api/analytics/summary', { token: account.token })).status).toBe(200);
  });

  it('shows the new state through POST /sync before any webhook got through', async () => {
    const account = await signUp();
    const repair = await breakEventRecording(server);
    try {
      const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token });
      const location = await submitHostedForm(sandboxOf(server), checkout.body.url);
      // Stripe's webhooks arrive and fail (Stripe retries them later): nothing reaches our copy through them.
      await waitFor(async () => server.logLines.some((line) => line.includes('stripe_events is unavailable')), { what: 'a failed webhook' });
      expect((await status(account)).status).toBe('none');

      const sessionId = new URL(location).searchParams.get('session_id');
      const synced = await server.request('POST', '/api/stripe/sync', { token: account.token, body: { sessionId } });
      expect(synced.status).toBe(200);
      expect(synced.body).toMatchObject({ status: 'trialing', hasValidAccess: true, planName: 'Pro' });
      expect(await status(account)).toMatchObject({ status: 'trialing', hasValidAccess: true });
    } finally {
      await repair();
    }
  });

  it('caps the trial at 7 days, and ignores a foreign price and redirect URLs on other sites', async () => {
    const account = await signUp();
    const startedAt = server.clock.now();
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', {
      token: account.token,
      body: { trialDays: 30, priceId: 'price_someone_elses', successUrl: 'https://evil.example/phish', cancelUrl: '//evil.example/x' },
    });
    expect(checkout.status).toBe(200);
    const session = await stripe.checkout.sessions.retrieve(checkout.body.sessionId);
    expect(session.success_url).toBe(`${TEST_PUBLIC_URL}/billing?success=true&session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${TEST_PUBLIC_URL}/billing?canceled=true`);
    await submitHostedForm(sandboxOf(server), checkout.body.url);
    await sandboxOf(server).flushWebhooks();
    const [subscription] = (await stripe.subscriptions.list({ customer: (await customerIdOf(account))!, status: 'all' })).data;
    expect(subscription!.items.data[0]!.price.id).toBe(sandboxOf(server).priceId);
    expect(subscription!.trial_end! * 1000).toBe(startedAt.getTime() + 7 * DAY);
  });

  it('accepts redirect URLs on our own origin, absolute or relative, and a shorter trial', async () => {
    const account = await signUp();
    const startedAt = server.clock.now();
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', {
      token: account.token,
      body: { trialDays: 3, priceId: sandboxOf(server).priceId, successUrl: `${TEST_PUBLIC_URL}/billing?welcome=1&session_id={CHECKOUT_SESSION_ID}`, cancelUrl: '/billing?back=1' },
    });
    const session = await stripe.checkout.sessions.retrieve(checkout.body.sessionId);
    expect(session.success_url).toBe(`${TEST_PUBLIC_URL}/billing?welcome=1&session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${TEST_PUBLIC_URL}/billing?back=1`);
    await submitHostedForm(sandboxOf(server), checkout.body.url);
    await sandboxOf(server).flushWebhooks();
    expect((await status(account)).trialEnd).toBe(new Date(startedAt.getTime() + 3 * DAY).toISOString());
  });

  it('answers 409 to a second checkout while the trial or subscription runs', async () => {
    const account = await signUp();
    await subscribe(account);
    const again = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'You already have an active subscription. Manage it from the billing page.', code: 'conflict' });
  });

  it('grants the trial once: a second checkout after the trial ended has none and needs a card', async () => {
    const account = await signUp();
    await subscribe(account);
    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    expect(canceled.body).toMatchObject({ status: 'canceled', hasValidAccess: false, trialUsed: true });

    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: { trialDays: 7 } });
    expect(checkout.status).toBe(200);
    const page = await (await fetch(new URL(new URL(checkout.body.url).pathname, sandboxOf(server).baseUrl))).text();
    expect(page).not.toContain('free trial');
    await expect(submitHostedForm(sandboxOf(server), checkout.body.url)).rejects.toThrow(/answered 400/);
    await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
    await sandboxOf(server).flushWebhooks();

    const [newest] = (await stripe.subscriptions.list({ customer: (await customerIdOf(account))!, status: 'all' })).data;
    expect(newest).toMatchObject({ status: 'active', trial_start: null, trial_end: null });
    expect(await status(account)).toMatchObject({ status: 'active', hasValidAccess: true, trialUsed: true, planName: 'Pro' });
    // The customer is reused, never duplicated.
    expect((await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id))).length).toBe(1);
  });

  it('creates one Stripe customer when the first checkout is clicked several times at once', async () => {
    const account = await signUp();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const customers = (await stripe.customers.list({ email: account.email })).data;
    expect(customers).toHaveLength(1);
    expect(await customerIdOf(account)).toBe(customers[0]!.id);
  });

  it('refuses unknown fields, such as a user id or a subscription status, with 400', async () => {
    const account = await signUp();
    for (const body of [{ userId: 1 }, { subscriptionStatus: 'active' }, { trialDays: -1 }, { trialDays: 'seven' }]) {
      const response = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('bad_request');
    }
    expect(await customerIdOf(account)).toBeUndefined();
  });
});

describe('mass assignment', () => {
  it('checklist 17: no billing write call accepts ownership, plan or status fields, and nothing changes', async () => {
    const account = await signUp();
    await subscribe(account);
    const before = await server.db.select().from(subscriptions).where(eq(subscriptions.userId, account.user.id));
    const smuggled = { userId: 1, isAdmin: true, emailVerified: true, plan: 'Pro', subscriptionStatus: 'active', stripeCustomerId: 'cus_other', id: 1 };
    for (const path of ['create-checkout-session', 'create-portal-session', 'cancel-subscription', 'resume-subscription', 'sync']) {
      for (const [field, value] of Object.entries(smuggled)) {
        const response = await server.request('POST', `/api/stripe/${path}`, { token: account.token, body: { [field]: value } });
        expect({ path, field, status: response.status }).toEqual({ path, field, status: 400 });
      }
    }
    expect(await server.db.select().from(subscriptions).where(eq(subscriptions.userId, account.user.id))).toEqual(before);
  });
});

describe('POST /api/stripe/create-portal-session', () => {
  it('answers 400 with a message before the user has a billing account', async () => {
    const account = await signUp();
    const response = await server.request('POST', '/api/stripe/create-portal-session', { token: account.token, body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'You have no billing account yet. Start a subscription first.', code: 'bad_request' });
  });

  it('opens the portal for the user’s own customer, returning only to our own site', async () => {
    const account = await signUp();
    await subscribe(account);
    for (const [returnUrl, expected] of [
      [undefined, `${TEST_PUBLIC_URL}/billing`],
      ['https://evil.example/', `${TEST_PUBLIC_URL}/billing`],
      [`${TEST_PUBLIC_URL}/billing?from=portal`, `${TEST_PUBLIC_URL}/billing?from=portal`],
    ] as const) {
      const response = await server.request('POST', '/api/stripe/create-portal-session', { token: account.token, body: returnUrl ? { returnUrl } : {} });
      expect(response.status).toBe(200);
      const page = await (await fetch(new URL(new URL(response.body.url).pathname, sandboxOf(server).baseUrl))).text();
      expect(page).toContain(account.email);
      expect(page).toContain(`href="${expected.replaceAll('&', '&amp;')}"`);
    }
  });
});

describe('POST /api/stripe/cancel-subscription and resume-subscription', () => {
  it('answers 404 with a message when there is nothing to cancel or resume', async () => {
    const account = await signUp();
    const cancel = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: true } });
    expect(cancel.status).toBe(404);
    expect(cancel.body).toEqual({ message: 'You have no subscription to cancel.', code: 'not_found' });
    const resume = await server.request('POST', '/api/stripe/resume-subscription', { token: account.token, body: {} });
    expect(resume.status).toBe(404);
    expect(resume.body).toEqual({ message: 'You have no subscription to resume.', code: 'not_found' });
  });

  it('cancels at the period end by default (access stays), and resume undoes it', async () => {
    const account = await signUp();
    await subscribe(account);
    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true, hasValidAccess: true });
    const [subscription] = (await stripe.subscriptions.list({ customer: (await customerIdOf(account))!, status: 'all' })).data;
    expect(subscription!.cancel_at_period_end).toBe(true);

    const resumed = await server.request('POST', '/api/stripe/resume-subscription', { token: account.token });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: false, hasValidAccess: true });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).cancel_at_period_end).toBe(false);
  });

  it('cancels now when asked: no access, and nothing left to resume', async () => {
    const account = await signUp();
    await subscribe(account);
    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', hasValidAccess: false, planName: 'Free' });
    expect((await server.request('GET', '/api/analytics/summary', { token: account.token })).status).toBe(402);
    expect((await server.request('POST', '/api/stripe/resume-subscription', { token: account.token })).status).toBe(404);
    expect((await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token })).status).toBe(404);
  });

  it('checklist 38: cancel or resume after Stripe ended the subscription, before our copy heard of it, answers 404 and catches up (it was a 502)', async () => {
    const account = await signUp();
    await subscribe(account, { card: GOOD_CARD });
    expect((await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token })).body).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true });
    // The trial ends and Stripe cancels the subscription, but its webhook does not get through.
    const repair = await breakEventRecording(server);
    server.clock.advance(8 * 24 * HOUR);
    await stripe.customers.retrieve((await customerIdOf(account))!); // Stripe's clock moves on when it is asked
    await sandboxOf(server).flushWebhooks();
    await repair();
    expect(await queryRows(server.db, sql`select status from subscriptions where user_id = ${account.user.id}`)).toEqual([{ status: 'trialing' }]);
    // Eight days idle: the session is over too.
    const { token } = (await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } })).body as { token: string };

    for (const [path, message] of [
      ['cancel-subscription', 'You have no subscription to cancel.'],
      ['resume-subscription', 'You have no subscription to resume.'],
    ] as const) {
      const response = await server.request('POST', `/api/stripe/${path}`, { token, body: {} });
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 404, body: { message, code: 'not_found' } });
    }
    expect((await server.request('GET', '/api/stripe/subscription-status', { token })).body).toMatchObject({ status: 'canceled', hasValidAccess: false });
  });
});

describe('GET /api/stripe/payment-methods and /api/stripe/invoices', () => {
  it('lists the user’s cards and invoices, mapped for the billing page, and never another user’s', async () => {
    const payer = await signUp();
    await subscribe(payer, { card: GOOD_CARD });
    const other = await signUp();
    await subscribe(other);

    const methods = await server.request('GET', '/api/stripe/payment-methods', { token: payer.token });
    expect(methods.status).toBe(200);
    expect(methods.body.paymentMethods).toEqual([{ id: expect.stringMatching(/^pm_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, isDefault: true }]);
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: payer.token });
    expect(invoices.status).toBe(200);
    expect(invoices.body.invoices).toEqual([
      {
        id: expect.stringMatching(/^in_/),
        number: expect.any(String),
        date: server.clock.now().toISOString().replace(/\.\d{3}Z$/, '.000Z'),
        amount: 0,
        currency: 'usd',
        status: 'paid',
        hostedInvoiceUrl: expect.stringContaining('/i/'),
        invoicePdfUrl: expect.stringContaining('/pdf'),
      },
    ]);

    const otherMethods = await server.request('GET', '/api/stripe/payment-methods', { token: other.token });
    expect(otherMethods.body.paymentMethods).toEqual([]);
    const otherInvoices = await server.request('GET', '/api/stripe/invoices', { token: other.token });
    expect(otherInvoices.body.invoices.map((invoice: { id: string }) => invoice.id)).not.toContain(invoices.body.invoices[0].id);
  });

  it('shows a paid first month in dollars', async () => {
    const account = await signUp();
    await subscribe(account, { card: GOOD_CARD, body: { trialDays: 0 } });
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: account.token });
    expect(invoices.body.invoices).toHaveLength(1);
    expect(invoices.body.invoices[0]).toMatchObject({ amount: 20, currency: 'usd', status: 'paid' });
    expect(await status(account)).toMatchObject({ status: 'active', trialEnd: null, hasValidAccess: true });
  });
});

describe('Stripe failures', () => {
  it('become a 502 with a generic message that leaks no Stripe ids or keys', async () => {
    const account = await signUp();
    await subscribe(account);
    // The stored customer no longer exists at Stripe (e.g. deleted in the dashboard).
    await server.db.update(billingCustomers).set({ stripeCustomerId: 'cus_gone0000000000000000' }).where(eq(billingCustomers.userId, account.user.id));
    const linesBefore = server.logLines.length;
    for (const [method, path] of [
      ['GET', '/api/stripe/payment-methods'],
      ['POST', '/api/stripe/create-portal-session'],
    ]) {
      const response = await server.request(method!, path!, { token: account.token });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ message: 'The payment provider could not complete the request. Please try again in a moment.', code: 'bad_gateway' });
    }
    const logged = server.logLines.slice(linesBefore).join('\n');
    expect(logged).toContain('stripe.call_failed');
    expect(logged).not.toContain(sandboxOf(server).secretKey);
    expect(logged).not.toContain('cus_gone');
  });
});

describe('our copy of the subscription', () => {
  it('is one row per user however often it is synced', async () => {
    const account = await signUp();
    await subscribe(account);
    await Promise.all(Array.from({ length: 5 }, () => server.request('POST', '/api/stripe/sync', { token: account.token })));
    const rows = await server.db.select().from(subscriptions).where(eq(subscriptions.userId, account.user.id));
    expect(rows).toHaveLength(1);
    const customers = await queryRows<{ count: number }>(server.db, sql`select count(*)::int as count from billing_customers where user_id = ${account.user.id}`);
    expect(customers[0]!.count).toBe(1);
  });
});
