// Checkout paid with a delayed-notification method (ACH Direct Debit from a US bank account): the session
// completes unpaid, the subscription waits incomplete (without expiring) while the debit clears, and when it
// settles Stripe sends checkout.session.async_payment_succeeded. Driven with the SDK and the hosted page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedEventsOf, startTestSandbox, submitForm, subscribeThroughCheckout, TEST_BANK_ACCOUNT, type TestSandbox } from './test-helpers.ts';

const DAY = 86_400;
const START = new Date('2026-11-02T10:00:00Z');
const START_UNIX = START.getTime() / 1000;
let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox({ now: () => START });
});

afterEach(async () => {
  await context.close();
});

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

describe('Checkout paid by US bank account (ACH Direct Debit)', () => {
  it('completes unpaid, stays incomplete while the debit clears, then async_payment_succeeded and active', async () => {
    const { sandbox, stripe } = context;
    const { customer, session, subscription } = await subscribeThroughCheckout(context, { card: TEST_BANK_ACCOUNT, trialDays: null });
    expect(session).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(session.payment_method_types).toContain('us_bank_account');
    expect(subscription.status).toBe('incomplete');
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'open', amount_due: 2000, attempt_count: 1, billing_reason: 'subscription_create' });
    const [bankAccount] = (await stripe.customers.listPaymentMethods(customer.id, { type: 'us_bank_account' })).data;
    expect(bankAccount).toMatchObject({ type: 'us_bank_account', us_bank_account: { routing_number: '110000000', last4: '6789', bank_name: 'STRIPE TEST BANK' } });
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data).toEqual([]);

    await sandbox.flushWebhooks();
    const [completed] = signedEventsOf(context, 'checkout.session.completed');
    expect(completed!.data.object).toMatchObject({ id: session.id, payment_status: 'unpaid', subscription: subscription.id });

    // A processing first payment does not expire after 23 hours as a declined one would.
    await sandbox.advanceClock(customer.id, at(START_UNIX + 2 * DAY));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');
    expect(signedEventsOf(context, 'checkout.session.async_payment_succeeded')).toEqual([]);

    await sandbox.advanceClock(customer.id, at(START_UNIX + 4 * DAY));
    await sandbox.flushWebhooks();
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active' });
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 2000, status_transitions: { paid_at: START_UNIX + 4 * DAY } });
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
    const [succeeded] = signedEventsOf(context, 'checkout.session.async_payment_succeeded');
    expect(succeeded!.data.object).toMatchObject({ id: session.id, payment_status: 'paid', status: 'complete', customer: customer.id, subscription: subscription.id });
    expect(succeeded!.created).toBe(START_UNIX + 4 * DAY);
    const types = context.webhooks.types();
    expect(types.indexOf('invoice.paid')).toBeLessThan(types.indexOf('checkout.session.async_payment_succeeded'));
  });

  it('after a trial: the renewal debit keeps the subscription active while it clears, and is no Checkout payment', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: TEST_BANK_ACCOUNT });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    const renewing = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewing.status).toBe('active');
    expect(await stripe.invoices.retrieve(renewing.latest_invoice as string)).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle' });

    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + 4 * DAY));
    await sandbox.flushWebhooks();
    expect((await stripe.invoices.retrieve(renewing.latest_invoice as string)).status).toBe('paid');
    expect(context.webhooks.types()).not.toContain('checkout.session.async_payment_succeeded');
  });

  it('refuses a bank account that is not the test account, next to the field', async () => {
    const { sandbox, stripe } = context;
    const customer = await stripe.customers.create({ email: 'creator@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/billing',
    });
    const response = await submitForm(sandbox, session.url!, { ...TEST_BANK_ACCOUNT, bank_account_number: '000999999999' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('id="bank_account_number" name="bank_account_number" inputmode="numeric" required aria-invalid="true"');
  });
});
