// "Your 7-day trial has started" (issue 25): once per subscription however often Stripe delivers the news, with the
// trial's end in the user's time zone and how to cancel before being charged.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingCustomers, sentMails } from '../../db/schema.ts';
import type { Account } from '../../test/platforms.ts';
import { customerEvent, deliverWebhook, GOOD_CARD, sandboxOf, signPayload, stripeClient, submitHostedForm } from '../../test/stripe.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { TRIAL_STARTED_SUBJECT } from './billing-emails.ts';

let server: TestServer;
let stripe: Stripe;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  stripe = stripeClient(sandboxOf(server));
});
afterAll(async () => {
  await server?.close();
});

const trialMails = (account: Account) => server.smtp.messages.filter((mail) => mail.to.includes(account.email) && mail.subject === TRIAL_STARTED_SUBJECT);

/** Starts a trial through checkout now (the sandbox runs on the server's clock); Stripe's webhooks are delivered. */
async function startTrial(account: Account, card?: Record<string, string>) {
  const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
  expect(checkout.status).toBe(200);
  await submitHostedForm(sandboxOf(server), checkout.body.url, card);
  await sandboxOf(server).flushWebhooks();
  const [customer] = await server.db.select().from(billingCustomers).where(eq(billingCustomers.userId, account.user.id));
  const [subscription] = (await stripe.subscriptions.list({ customer: customer!.stripeCustomerId, status: 'all' })).data;
  return { customerId: customer!.stripeCustomerId, subscription: subscription! };
}

describe('the trial-started mail', () => {
  it('goes out once with the end date in the user\'s time zone, even when Stripe delivers the subscription twice and another event follows', async () => {
    server.clock.set(new Date('2026-12-01T10:00:00Z'));
    const account = (await server.signUp()) as Account;
    expect((await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { timeZone: 'Europe/Berlin' } })).status).toBe(200);
    const { customerId, subscription } = await startTrial(account);
    expect(subscription.status).toBe('trialing');
    expect(new Date(subscription.trial_end! * 1000).toISOString()).toBe('2026-12-08T10:00:00.000Z');

    // Stripe's retry of the same event, a second delivery under a new id, and a later event about the same trial.
    const secret = sandboxOf(server).webhookSecret;
    const created = customerEvent('customer.subscription.created', customerId, { id: subscription.id, status: 'trialing' });
    for (const payload of [created, created, customerEvent('customer.subscription.created', customerId, { id: subscription.id, status: 'trialing' }), customerEvent('customer.subscription.trial_will_end', customerId)]) {
      expect((await deliverWebhook(server, signPayload(payload, secret))).status).toBe(200);
    }
    await server.mailer.idle();

    const mails = trialMails(account);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    // 10:00 UTC is 11:00 in Berlin in December.
    expect(mail!.text).toContain('It ends on Tuesday, December 8, 2026 at 11:00 AM (Europe/Berlin time).');
    expect(mail!.text).toContain('Cancel Subscription');
    expect(mail!.text).toContain(`${TEST_PUBLIC_URL}/billing`);
    expect(mail!.html).toContain('Tuesday, December 8, 2026 at 11:00 AM (Europe/Berlin time)');
    expect(mail!.html).toContain(`href="${TEST_PUBLIC_URL}/billing"`);
    // A transactional mail: no unsubscribe header.
    expect(mail!.parsed.headers.has('list-unsubscribe')).toBe(false);
    expect(await server.db.select().from(sentMails).where(eq(sentMails.userId, account.user.id))).toEqual([
      expect.objectContaining({ kind: 'welcome', ref: '' }),
      expect.objectContaining({ kind: 'trial_started', ref: subscription.id }),
    ]);
  });

  it('says nothing will be charged for a trial started without a card, and dates it in UTC when no zone is set', async () => {
    server.clock.set(new Date('2026-12-10T23:30:00Z'));
    const account = (await server.signUp()) as Account;
    await startTrial(account);
    await server.mailer.idle();
    const [mail] = trialMails(account);
    expect(mail!.text).toContain('It ends on Thursday, December 17, 2026 at 11:30 PM (UTC).');
    expect(mail!.text).toContain('nothing will be charged');
    expect(trialMails(account)).toHaveLength(1);
  });

  it('tells a trial with a card that the card is charged unless cancelled before the end', async () => {
    server.clock.set(new Date('2026-12-20T08:00:00Z'));
    const account = (await server.signUp()) as Account;
    await startTrial(account, GOOD_CARD);
    await server.mailer.idle();
    const [mail] = trialMails(account);
    expect(mail!.text).toContain('When it ends, your card is charged $20.00 a month until you cancel.');
    expect(mail!.text).toContain('To cancel before you are charged, open Billing and choose Cancel Subscription before Sunday, December 27, 2026 at 8:00 AM (UTC).');
  });

  it('is not sent for a subscription that is not in a trial', async () => {
    server.clock.set(new Date('2026-12-30T08:00:00Z'));
    const account = (await server.signUp()) as Account;
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: { trialDays: 0 } });
    expect(checkout.status).toBe(200);
    await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
    await sandboxOf(server).flushWebhooks();
    await server.mailer.idle();
    expect(trialMails(account)).toEqual([]);
  });
});
