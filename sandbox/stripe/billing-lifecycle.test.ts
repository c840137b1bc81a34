// What happens as a customer's clock moves: trial ends, renewals, failed charges and their retries, cancellation
// at period end, and recovery through the portal — seen through the SDK and the webhooks, like the product sees it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAILING_CARD, GOOD_CARD, onSandbox, startTestSandbox, submitForm, subscribeThroughCheckout, type TestSandbox } from './test-helpers.ts';

const DAY = 86_400;
const START = new Date('2026-11-02T10:00:00Z');
let wallClock = START;
let context: TestSandbox;

beforeEach(async () => {
  wallClock = START;
  context = await startTestSandbox({ now: () => wallClock });
});

afterEach(async () => {
  await context.close();
});

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

async function portalFor(customerId: string): Promise<string> {
  const portal = await context.stripe.billingPortal.sessions.create({ customer: customerId, return_url: 'http://app.example/billing' });
  return portal.url;
}

describe('trial end', () => {
  it('with a card: charges $20, becomes active for a month, and says so in webhooks', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    expect(subscription.trial_end).toBe(START.getTime() / 1000 + 7 * DAY);

    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    await sandbox.flushWebhooks();

    const active = await stripe.subscriptions.retrieve(subscription.id);
    expect(active.status).toBe('active');
    expect(active.items.data[0]).toMatchObject({ current_period_start: subscription.trial_end, current_period_end: Date.UTC(2026, 11, 9, 10) / 1000 });
    expect(active.trial_end).toBe(subscription.trial_end);

    const [renewal] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 2000, billing_reason: 'subscription_cycle', number: expect.stringMatching(/-0002$/) });
    expect(active.latest_invoice).toBe(renewal!.id);

    expect(webhooks.ofType('customer.subscription.trial_will_end')).toHaveLength(1);
    expect(webhooks.ofType('customer.subscription.trial_will_end')[0]!.created).toBe(subscription.trial_end! - 3 * DAY);
    const [paid] = webhooks.ofType('invoice.paid').filter((event) => event.data.object.id === renewal!.id);
    expect(paid!.data.object.parent?.subscription_details?.subscription).toBe(subscription.id);
    const [updated] = webhooks.ofType('customer.subscription.updated');
    expect(updated!.data.object.status).toBe('active');
    expect(updated!.data.previous_attributes).toMatchObject({ status: 'trialing' });
    expect(updated!.created).toBe(subscription.trial_end);
  });

  it('with a failing card: invoice.payment_failed and past_due, then canceled when the retries run out', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD });

    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    await sandbox.flushWebhooks();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    const [open] = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data;
    expect(open).toMatchObject({ amount_due: 2000, amount_paid: 0, attempt_count: 1, next_payment_attempt: subscription.trial_end! + 3 * DAY });
    expect(webhooks.ofType('invoice.payment_failed').map((event) => event.data.object.id)).toEqual([open!.id]);
    expect(webhooks.ofType('customer.subscription.updated').at(-1)!.data.object.status).toBe('past_due');

    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + 7 * DAY));
    await sandbox.flushWebhooks();
    const canceled = await stripe.subscriptions.retrieve(subscription.id);
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: subscription.trial_end! + 7 * DAY, cancellation_details: { reason: 'payment_failed' } });
    expect((await stripe.invoices.retrieve(open!.id)).status).toBe('uncollectible');
    expect(webhooks.ofType('invoice.payment_failed')).toHaveLength(4);
    expect(webhooks.ofType('customer.subscription.deleted').map((event) => event.data.object.id)).toEqual([subscription.id]);
  });

  it('without a card and end behaviour cancel: canceled, trial_end kept, customer.subscription.deleted', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription, session } = await subscribeThroughCheckout(context, { card: null, missingPaymentMethod: 'cancel' });
    expect(session.payment_status).toBe('no_payment_required');
    expect(subscription.default_payment_method).toBeNull();

    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + 60));
    await sandbox.flushWebhooks();
    const canceled = await stripe.subscriptions.retrieve(subscription.id);
    expect(canceled).toMatchObject({ status: 'canceled', trial_end: subscription.trial_end, canceled_at: subscription.trial_end, ended_at: subscription.trial_end });
    const [deleted] = webhooks.ofType('customer.subscription.deleted');
    expect(deleted!.data.object).toMatchObject({ id: subscription.id, status: 'canceled' });
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
  });

  it('without a card and end behaviour pause: paused', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: null, missingPaymentMethod: 'pause' });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    await sandbox.flushWebhooks();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('paused');
    expect(webhooks.types()).toContain('customer.subscription.paused');
  });

  it('ends at once with trial_end=now', async () => {
    const { stripe } = context;
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const updated = await stripe.subscriptions.update(subscription.id, { trial_end: 'now' });
    expect(updated).toMatchObject({ status: 'active', trial_end: START.getTime() / 1000 });
  });
});

describe('renewals and cancellation', () => {
  it('renews every month with a good card, on the calendar day of the anchor', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + 62 * DAY));
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]!.current_period_end).toBe(Date.UTC(2027, 1, 9, 10) / 1000);
    const invoices = (await stripe.invoices.list({ customer: customer.id })).data;
    expect(invoices.map((invoice) => [invoice.billing_reason, invoice.status, invoice.amount_paid])).toEqual([
      ['subscription_cycle', 'paid', 2000],
      ['subscription_cycle', 'paid', 2000],
      ['subscription_cycle', 'paid', 2000],
      ['subscription_create', 'paid', 0],
    ]);
  });

  it('with cancel_at_period_end: canceled at the period end, canceled_at keeps the request time', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + DAY));
    const active = await stripe.subscriptions.retrieve(subscription.id);
    const periodEnd = active.items.data[0]!.current_period_end;

    const requestedAt = subscription.trial_end! + DAY;
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: periodEnd, canceled_at: requestedAt });

    await sandbox.advanceClock(customer.id, at(periodEnd - 1));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    await sandbox.advanceClock(customer.id, at(periodEnd));
    await sandbox.flushWebhooks();
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: periodEnd, canceled_at: requestedAt, cancellation_details: { reason: 'cancellation_requested' } });
    expect(webhooks.ofType('customer.subscription.deleted')).toHaveLength(1);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(2);
  });

  it('during the trial: canceled at trial end without charging', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
  });

  it('expires an unpaid first invoice after 23 hours', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD, trialDays: null });
    expect(subscription.status).toBe('incomplete');
    await sandbox.advanceClock(customer.id, at(subscription.created + 23 * 3600));
    await sandbox.flushWebhooks();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('incomplete_expired');
    expect((await stripe.invoices.list({ customer: customer.id })).data[0]!.status).toBe('void');
    expect(webhooks.types()).toContain('invoice.voided');
  });
});

describe('clocks', () => {
  it('moves only the advanced customer', async () => {
    const { sandbox, stripe } = context;
    const first = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const second = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await sandbox.advanceClock(first.customer.id, at(first.subscription.trial_end! + DAY));
    expect((await stripe.subscriptions.retrieve(first.subscription.id)).status).toBe('active');
    expect((await stripe.subscriptions.retrieve(second.subscription.id)).status).toBe('trialing');
  });

  it('follows the wall clock for customers that were never advanced', async () => {
    const { stripe } = context;
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    wallClock = at(subscription.trial_end! + 3600);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('can be advanced over HTTP, and never backwards', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const advance = (to: number) =>
      fetch(`${sandbox.baseUrl}/v1/test_helpers/customers/${customer.id}/advance_clock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `frozen_time=${to}`,
      });
    expect((await advance(subscription.trial_end!)).status).toBe(200);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    expect((await advance(subscription.trial_end! - DAY)).status).toBe(400);
    await expect(sandbox.advanceClock(customer.id, START)).rejects.toThrow(/only be advanced/);
  });

  it('runs the renewals of customers on a shared Stripe test clock when it advances', async () => {
    const { sandbox, stripe } = context;
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START.getTime() / 1000 });
    const customer = await stripe.customers.create({ email: 'clocked@example.com', test_clock: clock.id });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/ok',
      subscription_data: { trial_period_days: 7 },
    });
    await submitForm(sandbox, session.url!, GOOD_CARD);
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    expect(subscription).toMatchObject({ status: 'trialing', test_clock: clock.id });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: subscription!.trial_end! });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe('active');
  });
});

describe('portal', () => {
  it('a new card pays the open invoice and returns a past_due subscription to active', async () => {
    const { sandbox, stripe, webhooks } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');

    const portal = await portalFor(customer.id);
    const response = await submitForm(sandbox, `${portal}/card`, GOOD_CARD);
    expect(response.status).toBe(303);
    await sandbox.flushWebhooks();

    const recovered = await stripe.subscriptions.retrieve(subscription.id, { expand: ['default_payment_method'] });
    expect(recovered.status).toBe('active');
    expect((recovered.default_payment_method as Stripe.PaymentMethod).card?.last4).toBe('4242');
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method).toBe(
      (recovered.default_payment_method as Stripe.PaymentMethod).id,
    );
    expect((await stripe.customers.listPaymentMethods(customer.id)).data.map((pm) => pm.card?.last4)).toEqual(['4242']);
    expect(webhooks.types()).toEqual(expect.arrayContaining(['payment_method.detached', 'invoice.paid']));
    const page = await (await fetch(new URL(response.headers.get('location')!, sandbox.baseUrl))).text();
    expect(page).toContain('Your card was saved.');
  });

  it('"Pay now" settles an incomplete first invoice', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD, trialDays: null });
    const portal = await portalFor(customer.id);
    const [open] = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data;

    const failed = await submitForm(sandbox, `${portal}/pay`, { invoice: open!.id });
    expect(failed.headers.get('location')).toContain('notice=invoice_failed');
    await submitForm(sandbox, `${portal}/card`, GOOD_CARD);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');

    const paid = await submitForm(sandbox, `${portal}/pay`, { invoice: open!.id });
    expect(paid.headers.get('location')).toContain('notice=invoice_paid');
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    expect((await stripe.invoices.retrieve(open!.id)).status).toBe('paid');
  });

  it('cancels at period end, resumes, and advances the clock from its buttons', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const portal = await portalFor(customer.id);

    await submitForm(sandbox, `${portal}/cancel`, { subscription: subscription.id });
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true);
    const canceling = await (await fetch(onSandbox(sandbox, portal))).text();
    expect(canceling).toContain('Cancels on');
    expect(canceling).toContain('Resume subscription');

    await submitForm(sandbox, `${portal}/resume`, { subscription: subscription.id });
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);

    await submitForm(sandbox, `${portal}/advance`, { target: '1d' });
    await submitForm(sandbox, `${portal}/advance`, { target: 'trial_end' });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    await submitForm(sandbox, `${portal}/advance`, { target: 'period_end' });
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(3);
  });

  it('shows the card error next to the form and changes nothing', async () => {
    const { sandbox, stripe } = context;
    const { customer } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const portal = await portalFor(customer.id);
    const response = await submitForm(sandbox, `${portal}/card`, { card_number: '4000 0000 0000 0002', card_expiry: '12/34', card_cvc: '123' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('aria-invalid="true"');
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toHaveLength(1);
  });
});

describe('state file', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'stripe-sandbox-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps customers, subscriptions, the price and the clocks across restarts', async () => {
    const stateFile = path.join(directory, 'stripe.json');
    const first = await startTestSandbox({ stateFile, now: () => START });
    const { customer, subscription } = await subscribeThroughCheckout(first, { card: GOOD_CARD });
    await first.sandbox.advanceClock(customer.id, at(subscription.trial_end! + DAY));
    await first.close();
    expect(readdirSync(directory)).toEqual(['stripe.json']);

    const second = await startTestSandbox({ stateFile, now: () => START });
    try {
      expect(second.sandbox.priceId).toBe(first.sandbox.priceId);
      const restored = await second.stripe.subscriptions.retrieve(subscription.id);
      expect(restored.status).toBe('active');
      expect((await second.stripe.invoices.list({ customer: customer.id })).data).toHaveLength(2);
      // The customer's clock stayed where it was advanced to.
      await expect(second.sandbox.advanceClock(customer.id, at(subscription.trial_end!))).rejects.toThrow();
    } finally {
      await second.close();
    }
  });
});
