// A subscription over time: trial end, renewals, failed charges and the past-due grace, cancellation at
// the period end. Time moves for the app and for Stripe together (the sandbox runs on the server's clock);
// every change reaches the app through Stripe's webhooks only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { billingCustomers } from '../../db/schema.ts';
import { advanceTime, FAILING_CARD, GOOD_CARD, sandboxOf, stripeClient, submitHostedForm } from '../../test/stripe.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { PAST_DUE_GRACE_MS } from './subscription-state.ts';

const SECOND = 1000;
const HOUR = 3_600 * SECOND;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.clock.advance(HOUR);
});

type Account = Awaited<ReturnType<TestServer['signUp']>> & { token: string };

async function status(account: Account) {
  return (await server.request('GET', '/api/stripe/subscription-status', { token: account.token })).body;
}

/** The premium call's status: 200 with access, 402 without. */
async function premium(account: Account) {
  return (await server.request('GET', '/api/analytics/summary', { token: account.token })).status;
}

async function subscribe({ card, trialDays }: { card?: Record<string, string>; trialDays?: number } = {}) {
  const account = (await server.signUp()) as Account;
  const startedAt = server.clock.now();
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: trialDays === undefined ? {} : { trialDays } });
  await submitHostedForm(sandboxOf(server), checkout.body.url, card);
  await sandboxOf(server).flushWebhooks();
  const [customer] = await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id));
  return { account, startedAt, customerId: customer!.stripeCustomerId };
}

const after = (start: Date, ms: number) => new Date(start.getTime() + ms);

/** Moves time for the app and Stripe, then signs in again: a month later the old session has expired. */
async function advance(account: Account, to: Date) {
  await advanceTime(server, to);
  const login = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  expect(login.status).toBe(200);
  account.token = login.body.token;
}

describe('trial end', () => {
  it('with a good card: charged, active for a month, access throughout', async () => {
    const { account, startedAt, customerId } = await subscribe({ card: GOOD_CARD });
    const trialEnd = after(startedAt, 7 * DAY);
    expect(await status(account)).toMatchObject({ status: 'trialing', trialEnd: trialEnd.toISOString() });

    await advance(account, trialEnd);
    const active = await status(account);
    expect(active).toMatchObject({ status: 'active', hasValidAccess: true, planName: 'Pro', cancelAtPeriodEnd: false });
    expect(new Date(active.currentPeriodEnd).getTime()).toBeGreaterThanOrEqual(after(trialEnd, 28 * DAY).getTime());
    expect(await premium(account)).toBe(200);
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: account.token });
    expect(invoices.body.invoices.map((invoice: { amount: number; status: string }) => [invoice.amount, invoice.status])).toEqual([
      [20, 'paid'],
      [0, 'paid'],
    ]);
    const [subscription] = (await stripeClient(sandboxOf(server)).subscriptions.list({ customer: customerId })).data;
    expect(active.currentPeriodEnd).toBe(new Date(subscription!.items.data[0]!.current_period_end * 1000).toISOString());
  });

  it('without a card: the trial expires into no access (the "Trial Expired" state)', async () => {
    const { account, startedAt } = await subscribe();
    const trialEnd = after(startedAt, 7 * DAY);

    await advance(account, after(trialEnd, -SECOND));
    expect(await premium(account)).toBe(200);
    await advance(account, trialEnd);
    expect(await status(account)).toMatchObject({ status: 'canceled', trialEnd: trialEnd.toISOString(), hasValidAccess: false, planName: 'Free', trialUsed: true });
    expect(await premium(account)).toBe(402);
  });

  it('checklist 18: a subscription canceled during its trial keeps no access', async () => {
    const { account, customerId } = await subscribe();
    expect(await premium(account)).toBe(200);
    const [subscription] = (await stripeClient(sandboxOf(server)).subscriptions.list({ customer: customerId })).data;
    await stripeClient(sandboxOf(server)).subscriptions.cancel(subscription!.id);
    await sandboxOf(server).flushWebhooks();
    expect(await status(account)).toMatchObject({ status: 'canceled', hasValidAccess: false });
    expect(await premium(account)).toBe(402);
  });
});

describe('a failed renewal (card 4000 0000 0000 0341)', () => {
  it('is past due with access for the 3-day grace, then none until paid, then canceled when Stripe gives up', async () => {
    expect(PAST_DUE_GRACE_MS).toBe(3 * DAY);
    const { account, startedAt } = await subscribe({ card: FAILING_CARD });
    const renewal = after(startedAt, 7 * DAY);

    await advance(account, renewal);
    expect(await status(account)).toMatchObject({ status: 'past_due', hasValidAccess: true, graceUntil: after(renewal, 3 * DAY).toISOString() });
    expect(await premium(account)).toBe(200);

    await advance(account, after(renewal, 3 * DAY - SECOND));
    expect(await premium(account)).toBe(200);
    await advance(account, after(renewal, 3 * DAY));
    expect(await status(account)).toMatchObject({ status: 'past_due', hasValidAccess: false, planName: 'Free' });
    expect(await premium(account)).toBe(402);

    // Stripe's last retry fails too: it cancels the subscription.
    await advance(account, after(renewal, 7 * DAY));
    expect(await status(account)).toMatchObject({ status: 'canceled', hasValidAccess: false, graceUntil: null });
    expect(await premium(account)).toBe(402);
  });
});

describe('cancel at the period end', () => {
  it('keeps access until the paid period ends, then none', async () => {
    const { account, startedAt } = await subscribe({ card: GOOD_CARD, trialDays: 0 });
    const subscribed = await status(account);
    expect(subscribed).toMatchObject({ status: 'active', trialEnd: null });
    const periodEnd = new Date(subscribed.currentPeriodEnd);
    expect(periodEnd.getTime()).toBeGreaterThan(after(startedAt, 27 * DAY).getTime());

    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: true } });
    expect(canceled.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, hasValidAccess: true });

    await advance(account, after(periodEnd, -SECOND));
    expect(await premium(account)).toBe(200);
    await advance(account, periodEnd);
    expect(await status(account)).toMatchObject({ status: 'canceled', hasValidAccess: false, cancelAtPeriodEnd: false });
    expect(await premium(account)).toBe(402);
    // Nothing was charged for a month not wanted.
    const invoices = await server.request('GET', '/api/stripe/invoices', { token: account.token });
    expect(invoices.body.invoices).toHaveLength(1);
  });

  it('during the trial keeps access until the trial ends, then none', async () => {
    const { account, startedAt } = await subscribe({ card: GOOD_CARD });
    const trialEnd = after(startedAt, 7 * DAY);
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token });
    await advance(account, after(trialEnd, -SECOND));
    expect(await status(account)).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true, hasValidAccess: true });
    await advance(account, trialEnd);
    expect(await status(account)).toMatchObject({ status: 'canceled', hasValidAccess: false });
    expect(await premium(account)).toBe(402);
  });

  it('can be resumed before the end: the subscription then renews', async () => {
    const { account } = await subscribe({ card: GOOD_CARD, trialDays: 0 });
    const periodEnd = new Date((await status(account)).currentPeriodEnd);
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token });
    const resumed = await server.request('POST', '/api/stripe/resume-subscription', { token: account.token });
    expect(resumed.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    await advance(account, periodEnd);
    const renewed = await status(account);
    expect(renewed).toMatchObject({ status: 'active', hasValidAccess: true });
    expect(new Date(renewed.currentPeriodEnd).getTime()).toBeGreaterThan(periodEnd.getTime());
    expect(await premium(account)).toBe(200);
  });
});

describe('cancel now', () => {
  it('ends a paid subscription and access at once', async () => {
    const { account } = await subscribe({ card: GOOD_CARD, trialDays: 0 });
    expect(await premium(account)).toBe(200);
    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    expect(canceled.body).toMatchObject({ status: 'canceled', hasValidAccess: false });
    expect(await premium(account)).toBe(402);
  });
});
