// POST /api/stripe/webhook: only Stripe's signature gets in, each event counts once, order does not matter,
// a failure is answered so that Stripe redelivers, and payment-link customers find their account.
import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { billingCustomers, stripeEvents, subscriptions } from '../../db/schema.ts';
import {
  breakEventRecording,
  customerEvent,
  deliverWebhook,
  GOOD_CARD,
  sandboxOf,
  signPayload,
  stripeClient,
  submitHostedForm,
} from '../../test/stripe.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const HOUR = 3_600_000;

let server: TestServer;
let stripe: Stripe;
let secret: string;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  stripe = stripeClient(sandboxOf(server));
  secret = sandboxOf(server).webhookSecret;
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.clock.advance(HOUR);
});

type Account = Awaited<ReturnType<TestServer['signUp']>> & { token: string };

/** A signed-in user with a trial started through checkout; answers its Stripe customer and subscription. */
async function trialingAccount() {
  const account = (await server.signUp()) as Account;
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  await submitHostedForm(sandboxOf(server), checkout.body.url);
  await sandboxOf(server).flushWebhooks();
  const [customer] = await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id));
  const [subscription] = (await stripe.subscriptions.list({ customer: customer!.stripeCustomerId, status: 'all' })).data;
  return { account, customerId: customer!.stripeCustomerId, subscriptionId: subscription!.id };
}

/** Everything the webhook may write, to prove a refused delivery changed nothing. */
async function billingSnapshot() {
  return {
    events: await queryRows(server.db, sql`select * from stripe_events order by id`),
    subscriptions: await queryRows(server.db, sql`select * from subscriptions order by user_id`),
    customers: await queryRows(server.db, sql`select * from billing_customers order by user_id`),
  };
}

async function subscriptionRow(userId: number) {
  const [row] = await server.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}

async function eventCount(eventId: string) {
  return (await server.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).length;
}

const eventIdOf = (payload: string) => (JSON.parse(payload) as { id: string }).id;

describe('signature', () => {
  it('checklist 29: refuses a bad signature, a missing header, a re-serialised body and a stale timestamp with 400, changing nothing; a valid signature is applied', async () => {
    const { customerId } = await trialingAccount();
    // Stripe's truth moves on (cancel at period end), so a delivery that got through would change our copy.
    await stripe.subscriptions.update((await stripe.subscriptions.list({ customer: customerId })).data[0]!.id, { cancel_at_period_end: true });
    const repair = await breakEventRecording(server);
    await sandboxOf(server).flushWebhooks(); // Stripe's own delivery of that change fails and is given up
    await repair();
    const before = await billingSnapshot();

    const payload = customerEvent('customer.subscription.updated', customerId);
    const now = Math.floor(Date.now() / 1000);
    const attempts = {
      'wrong secret': deliverWebhook(server, signPayload(payload, 'whsec_not_the_endpoint_secret')),
      'missing header': deliverWebhook(server, { payload }),
      'garbage header': deliverWebhook(server, { payload, signature: 'not a signature' }),
      're-serialised body': deliverWebhook(server, { payload: JSON.stringify(JSON.parse(payload)), signature: signPayload(payload, secret).signature }),
      'tampered body': deliverWebhook(server, { payload: payload.replace('customer.subscription.updated', 'customer.subscription.deleted'), signature: signPayload(payload, secret).signature }),
      'timestamp 301 s old': deliverWebhook(server, signPayload(payload, secret, now - 301)),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const response = await attempt;
      expect({ name, status: response.status, code: response.body.code }).toEqual({ name, status: 400, code: 'bad_request' });
    }
    expect(await billingSnapshot()).toEqual(before);

    // The same event, properly signed (a minute old is within the 5-minute tolerance), is applied.
    const valid = await deliverWebhook(server, signPayload(payload, secret, now - 60));
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ received: true });
    expect(await billingSnapshot()).not.toEqual(before);
    expect(await eventCount(eventIdOf(payload))).toBe(1);
  });

  it('checklist 40: never logs the signature or the secret', async () => {
    const payload = customerEvent('customer.subscription.updated', 'cus_unknown');
    const delivery = signPayload(payload, 'whsec_wrong');
    const linesBefore = server.logLines.length;
    expect((await deliverWebhook(server, delivery)).status).toBe(400);
    const logged = server.logLines.slice(linesBefore).join('\n');
    expect(logged).toContain('stripe.webhook_rejected');
    expect(logged).not.toContain(delivery.signature.split('v1=')[1]!);
    expect(logged).not.toContain(secret);
  });
});

describe('idempotency', () => {
  it('checklist 30: applies an event once: the same delivery again is acknowledged and ignored', async () => {
    const { account, customerId } = await trialingAccount();
    const delivery = signPayload(customerEvent('invoice.paid', customerId), secret);
    expect((await deliverWebhook(server, delivery)).status).toBe(200);
    // Mark our copy: a second processing would overwrite the mark with Stripe's state.
    await server.db.update(subscriptions).set({ status: 'marked-by-test' }).where(eq(subscriptions.userId, account.user.id));

    const replay = await deliverWebhook(server, delivery);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true });
    expect((await subscriptionRow(account.user.id))!.status).toBe('marked-by-test');
    expect(await eventCount(eventIdOf(delivery.payload))).toBe(1);
    expect((await server.db.select().from(subscriptions).where(eq(subscriptions.userId, account.user.id))).length).toBe(1);
  });

  it('checklist 30: applies an event once when Stripe delivers it twice at the same moment', async () => {
    const { account, customerId } = await trialingAccount();
    const delivery = signPayload(customerEvent('customer.subscription.updated', customerId), secret);
    const responses = await Promise.all(Array.from({ length: 4 }, () => deliverWebhook(server, delivery)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(await eventCount(eventIdOf(delivery.payload))).toBe(1);
    expect((await server.db.select().from(subscriptions).where(eq(subscriptions.userId, account.user.id))).length).toBe(1);
    const duplicates = server.logLines.filter((line) => line.includes('stripe.event_duplicate') && line.includes(eventIdOf(delivery.payload)));
    expect(duplicates).toHaveLength(3);
  });

  it('checklist 30: answers 500 when applying fails, records nothing, and the redelivery is applied exactly once', async () => {
    const { account, customerId, subscriptionId } = await trialingAccount();
    const repair = await breakEventRecording(server);
    // Canceled in the dashboard while our database is failing: Stripe's own deliveries fail and are given up.
    await stripe.subscriptions.cancel(subscriptionId);
    await sandboxOf(server).flushWebhooks();
    const delivery = signPayload(customerEvent('customer.subscription.deleted', customerId, { id: subscriptionId }), secret);

    const failed = await deliverWebhook(server, delivery);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    expect(await eventCount(eventIdOf(delivery.payload))).toBe(0);
    expect((await subscriptionRow(account.user.id))!.status).toBe('trialing');

    await repair();
    const redelivered = await deliverWebhook(server, delivery);
    expect(redelivered.status).toBe(200);
    expect((await subscriptionRow(account.user.id))!.status).toBe('canceled');
    expect(await eventCount(eventIdOf(delivery.payload))).toBe(1);
    expect((await deliverWebhook(server, delivery)).status).toBe(200);
    expect(await eventCount(eventIdOf(delivery.payload))).toBe(1);
  });

  it('acknowledges event types it does not act on, and events of customers it does not know', async () => {
    const before = await billingSnapshot();
    const ignored = signPayload(customerEvent('payment_intent.created', 'cus_whoever'), secret);
    expect((await deliverWebhook(server, ignored)).status).toBe(200);
    const stranger = await stripe.customers.create({ email: 'nobody-here@example.com' });
    const unknown = signPayload(customerEvent('customer.subscription.updated', stranger.id), secret);
    expect((await deliverWebhook(server, unknown)).status).toBe(200);
    const after = await billingSnapshot();
    expect(after.subscriptions).toEqual(before.subscriptions);
    expect(after.customers).toEqual(before.customers);
  });
});

describe('ordering', () => {
  it('checklist 30: converges on Stripe’s current state when "deleted" arrives before the older "updated"', async () => {
    const { account, customerId, subscriptionId } = await trialingAccount();
    const repair = await breakEventRecording(server);
    // In the dashboard: first "cancel at period end", then "cancel now". Our endpoint is failing meanwhile.
    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    await stripe.subscriptions.cancel(subscriptionId);
    await sandboxOf(server).flushWebhooks();
    await repair();
    expect((await subscriptionRow(account.user.id))!.status).toBe('trialing');

    // Stripe redelivers the real events, newest first.
    const events = (await stripe.events.list({ limit: 20 })).data.filter((event) => (event.data.object as { id?: string }).id === subscriptionId);
    const deleted = events.find((event) => event.type === 'customer.subscription.deleted')!;
    const updated = events.find((event) => event.type === 'customer.subscription.updated' && (event.data.object as Stripe.Subscription).cancel_at_period_end)!;
    expect((updated.data.object as Stripe.Subscription).status).toBe('trialing');
    for (const event of [deleted, updated]) {
      expect((await deliverWebhook(server, signPayload(JSON.stringify(event), secret))).status).toBe(200);
    }

    // The stale "updated" (status trialing in its body) did not bring the subscription back.
    expect(await subscriptionRow(account.user.id)).toMatchObject({ status: 'canceled', stripeSubscriptionId: subscriptionId });
    const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
    expect(status.body).toMatchObject({ status: 'canceled', hasValidAccess: false });
    expect(await eventCount(deleted.id)).toBe(1);
    expect(await eventCount(updated.id)).toBe(1);
  });

  it('keeps a paying user active when a late "deleted" of their old subscription arrives', async () => {
    const { account, customerId, subscriptionId } = await trialingAccount();
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    const [oldDeleted] = (await stripe.events.list({ type: 'customer.subscription.deleted', limit: 20 })).data.filter(
      (event) => (event.data.object as Stripe.Subscription).id === subscriptionId,
    );
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
    await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
    await sandboxOf(server).flushWebhooks();
    expect((await subscriptionRow(account.user.id))!.status).toBe('active');

    const late = signPayload(customerEvent('customer.subscription.deleted', customerId, oldDeleted!.data.object as unknown as Record<string, unknown>), secret);
    expect((await deliverWebhook(server, late)).status).toBe(200);
    expect((await subscriptionRow(account.user.id))!.status).toBe('active');
  });
});

describe('payment-link checkouts (the landing page’s trial button)', () => {
  async function buyThroughPaymentLink(email: string) {
    const sandbox = sandboxOf(server);
    const location = await submitHostedForm(sandbox, `${sandbox.paymentLinkUrl}?prefilled_email=${encodeURIComponent(email)}`, { email, ...GOOD_CARD });
    return location.split('/').at(-1)!; // the sandbox then shows its own page for the completed session
  }

  it('joins the subscription to the confirmed account with the checkout’s email, on the webhook', async () => {
    const account = (await server.signUp()) as Account;
    await buyThroughPaymentLink(account.email.toUpperCase());
    await sandboxOf(server).flushWebhooks();
    const status = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
    expect(status.body).toMatchObject({ status: 'trialing', hasValidAccess: true, trialUsed: true });
    expect(server.logLines.some((line) => line.includes('billing.customer_adopted'))).toBe(true);
  });

  it('stores nothing when no account has that email, and ignores an unconfirmed account', async () => {
    const unconfirmed = await server.signUp({ confirm: false });
    const before = await billingSnapshot();
    await buyThroughPaymentLink(`stranger-${Date.now()}@example.com`);
    await buyThroughPaymentLink(unconfirmed.email);
    await sandboxOf(server).flushWebhooks();
    const after = await billingSnapshot();
    expect(after.customers).toEqual(before.customers);
    expect(after.subscriptions).toEqual(before.subscriptions);
  });

  it('joins the account when the email signs up and confirms: the trial shows at once, and no second trial is offered (issue 25)', async () => {
    // A visitor buys first and signs up afterwards: no account matched when the webhooks came.
    const email = `first-${Date.now()}@example.com`;
    await buyThroughPaymentLink(email);
    await sandboxOf(server).flushWebhooks();
    const owner = (await server.signUp({ email })) as Account;
    const status = await server.request('GET', '/api/stripe/subscription-status', { token: owner.token });
    expect(status.body).toMatchObject({ status: 'trialing', hasValidAccess: true, trialUsed: true });
    expect(server.logLines.some((line) => line.includes('billing.customer_adopted'))).toBe(true);
    // The billing screen offers no second trial: checkout is refused while this one runs.
    const again = await server.request('POST', '/api/stripe/create-checkout-session', { token: owner.token, body: {} });
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('can be joined later by POST /sync with the session id, and only by the account with that email', async () => {
    // A visitor buys first with the address typed in capitals (Stripe's email filter is exact, so confirming the
    // lower-case address finds no customer) and signs up afterwards.
    const email = `early-${Date.now()}@example.com`;
    const sessionId = await buyThroughPaymentLink(email.toUpperCase());
    await sandboxOf(server).flushWebhooks();
    const owner = (await server.signUp({ email })) as Account;
    const someoneElse = (await server.signUp()) as Account;
    expect((await server.request('GET', '/api/stripe/subscription-status', { token: owner.token })).body.status).toBe('none');

    const stolen = await server.request('POST', '/api/stripe/sync', { token: someoneElse.token, body: { sessionId } });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ message: 'No such checkout session.', code: 'not_found' });
    const bogus = await server.request('POST', '/api/stripe/sync', { token: owner.token, body: { sessionId: 'cs_does_not_exist' } });
    expect(bogus.status).toBe(404);

    const joined = await server.request('POST', '/api/stripe/sync', { token: owner.token, body: { sessionId } });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ status: 'trialing', hasValidAccess: true });
    const otherStatus = await server.request('GET', '/api/stripe/subscription-status', { token: someoneElse.token });
    expect(otherStatus.body).toMatchObject({ status: 'none', hasValidAccess: false });
  });
});
