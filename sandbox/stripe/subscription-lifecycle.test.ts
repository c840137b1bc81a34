// The flows behind the events a one-plan integration handles beyond the basics: a renewal whose card asks for 3-D
// Secure (invoice.payment_action_required), resuming a subscription paused at trial end (customer.subscription.
// resumed), and ending a trial only if it gets paid (customer.subscription.pending_update_applied|expired). Each is
// driven with the SDK and the hosted pages, and each event is checked as delivered: signed with the endpoint secret.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AUTHENTICATION_CARD,
  FAILING_CARD,
  GOOD_CARD,
  signedEventsOf,
  startTestSandbox,
  submitForm,
  subscribeThroughCheckout,
  type TestSandbox,
} from './test-helpers.ts';

const HOUR = 3_600;
const DAY = 24 * HOUR;
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

async function portalFor(customerId: string): Promise<string> {
  const portal = await context.stripe.billingPortal.sessions.create({ customer: customerId, return_url: 'http://app.example/billing' });
  return portal.url;
}

describe('a card that asks for 3-D Secure', () => {
  it('is charged on the Checkout page, where the customer authenticates', async () => {
    const { subscription } = await subscribeThroughCheckout(context, { card: AUTHENTICATION_CARD, trialDays: null });
    expect(subscription.status).toBe('active');
    await context.sandbox.flushWebhooks();
    expect(context.webhooks.types()).not.toContain('invoice.payment_action_required');
  });

  it('makes the renewal at trial end need action: past_due, then paid once the customer authenticates in the portal', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: AUTHENTICATION_CARD });

    await sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    await sandbox.flushWebhooks();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    const [renewal] = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data;
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', amount_due: 2000, attempt_count: 1, attempted: true });

    const [actionRequired] = signedEventsOf(context, 'invoice.payment_action_required');
    expect(actionRequired!.data.object).toMatchObject({ id: renewal!.id, object: 'invoice', status: 'open', customer: customer.id });
    expect(actionRequired!.data.object.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(actionRequired!.created).toBe(subscription.trial_end);
    // Stripe reports the failed attempt too, before asking for action.
    const failedIds = signedEventsOf(context, 'invoice.payment_failed').map((event) => event.data.object.id);
    expect(failedIds).toEqual([renewal!.id]);
    expect(context.webhooks.types().indexOf('invoice.payment_failed')).toBeLessThan(context.webhooks.types().indexOf('invoice.payment_action_required'));

    const paid = await submitForm(sandbox, `${await portalFor(customer.id)}/pay`, { invoice: renewal!.id });
    expect(paid.headers.get('location')).toContain('notice=invoice_paid');
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('needs action again at each automatic retry, which runs off-session too', async () => {
    const { sandbox } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: AUTHENTICATION_CARD });
    await sandbox.advanceClock(customer.id, at(subscription.trial_end! + 3 * DAY));
    await sandbox.flushWebhooks();
    expect(signedEventsOf(context, 'invoice.payment_action_required').map((event) => event.data.object.attempt_count)).toEqual([1, 2]);
  });
});

describe('resuming a subscription paused at trial end', () => {
  async function pausedSubscription() {
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: null, missingPaymentMethod: 'pause' });
    await context.sandbox.advanceClock(customer.id, at(subscription.trial_end!));
    return { customer, subscription: await context.stripe.subscriptions.retrieve(subscription.id) };
  }

  it('says why it is paused', async () => {
    const { subscription } = await pausedSubscription();
    expect(subscription).toMatchObject({
      status: 'paused',
      status_details: { paused: { type: 'subscription', subscription: { type: 'trial_end_without_payment_method' }, transitioned_at: subscription.trial_end } },
    });
  });

  it('with a card added in the portal: a new period starts now, is charged, and customer.subscription.resumed is sent', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await pausedSubscription();
    await submitForm(sandbox, `${await portalFor(customer.id)}/card`, GOOD_CARD);
    const resumeAt = subscription.trial_end! + 2 * DAY;
    await sandbox.advanceClock(customer.id, at(resumeAt));

    const resumed = await stripe.subscriptions.resume(subscription.id);
    expect(resumed).toMatchObject({ status: 'active', billing_cycle_anchor: resumeAt });
    expect(resumed.status_details).toBeUndefined();
    expect(resumed.items.data[0]).toMatchObject({ current_period_start: resumeAt, current_period_end: Date.UTC(2026, 11, 11, 10) / 1000 });
    const invoice = await stripe.invoices.retrieve(resumed.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2000, billing_reason: 'subscription_update' });

    await sandbox.flushWebhooks();
    const [event] = signedEventsOf(context, 'customer.subscription.resumed');
    expect(event!.data.object).toMatchObject({ id: subscription.id, status: 'active', latest_invoice: invoice.id });
    expect(event!.created).toBe(resumeAt);
    const updated = signedEventsOf(context, 'customer.subscription.updated').at(-1)!;
    expect(updated.data.previous_attributes).toMatchObject({ status: 'paused' });
  });

  it('without a card: resumed but past_due, as Stripe does with resume_on_payment_attempt', async () => {
    const { subscription } = await pausedSubscription();
    const resumed = await context.stripe.subscriptions.resume(subscription.id);
    expect(resumed.status).toBe('past_due');
    expect(await context.stripe.invoices.retrieve(resumed.latest_invoice as string)).toMatchObject({ status: 'open', next_payment_attempt: null });
  });

  it('refuses a subscription that is not paused, and the options it does not model', async () => {
    const { stripe } = context;
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await expect(stripe.subscriptions.resume(subscription.id)).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });
    const paused = await pausedSubscription();
    await expect(stripe.subscriptions.resume(paused.subscription.id, { billing_cycle_anchor: { type: 'unchanged' } })).rejects.toMatchObject({
      statusCode: 400,
      param: 'billing_cycle_anchor[type]',
    });
  });
});

describe('ending a trial only if it gets paid (payment_behavior=pending_if_incomplete)', () => {
  const endTrialIfPaid = (subscriptionId: string) =>
    context.stripe.subscriptions.update(subscriptionId, { trial_end: 'now', payment_behavior: 'pending_if_incomplete', proration_behavior: 'always_invoice' });

  it('with a good card: the trial ends at once, nothing is pending', async () => {
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const updated = await endTrialIfPaid(subscription.id);
    expect(updated).toMatchObject({ status: 'active', trial_end: START_UNIX, pending_update: null });
    await context.sandbox.flushWebhooks();
    expect(context.webhooks.types().filter((type) => type.startsWith('customer.subscription.pending_update'))).toEqual([]);
  });

  it('with a failing card: still trialing with a pending_update; paying the invoice applies it (pending_update_applied)', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD });
    const updated = await endTrialIfPaid(subscription.id);
    expect(updated).toMatchObject({
      status: 'trialing',
      trial_end: subscription.trial_end,
      pending_update: { trial_end: START_UNIX, billing_cycle_anchor: START_UNIX, expires_at: START_UNIX + 23 * HOUR, subscription_items: null },
    });
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'open', billing_reason: 'subscription_update', amount_due: 2000 });

    const portal = await portalFor(customer.id);
    await submitForm(sandbox, `${portal}/card`, GOOD_CARD);
    await sandbox.advanceClock(customer.id, at(START_UNIX + 2 * HOUR));
    await submitForm(sandbox, `${portal}/pay`, { invoice: invoice.id });

    const applied = await stripe.subscriptions.retrieve(subscription.id);
    expect(applied).toMatchObject({ status: 'active', trial_end: START_UNIX, pending_update: null, latest_invoice: invoice.id });
    expect(applied.items.data[0]).toMatchObject({ current_period_start: START_UNIX, current_period_end: Date.UTC(2026, 11, 2, 10) / 1000 });
    await sandbox.flushWebhooks();
    const [event] = signedEventsOf(context, 'customer.subscription.pending_update_applied');
    expect(event!.data.object).toMatchObject({ id: subscription.id, status: 'active', pending_update: null });
    expect(event!.created).toBe(START_UNIX + 2 * HOUR);
    const pendingSet = signedEventsOf(context, 'customer.subscription.updated').find((updatedEvent) => updatedEvent.data.object.pending_update !== null);
    expect(pendingSet!.data.previous_attributes).toMatchObject({ pending_update: null });
  });

  it('not paid within 23 hours: the invoice is voided and the update discarded (pending_update_expired)', async () => {
    const { sandbox, stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: FAILING_CARD });
    const updated = await endTrialIfPaid(subscription.id);

    await sandbox.advanceClock(customer.id, at(START_UNIX + 23 * HOUR - 1));
    expect((await stripe.subscriptions.retrieve(subscription.id)).pending_update).not.toBeNull();
    await sandbox.advanceClock(customer.id, at(START_UNIX + 23 * HOUR));
    await sandbox.flushWebhooks();

    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'trialing', trial_end: subscription.trial_end, pending_update: null });
    expect((await stripe.invoices.retrieve(updated.latest_invoice as string)).status).toBe('void');
    const [event] = signedEventsOf(context, 'customer.subscription.pending_update_expired');
    expect(event!.data.object).toMatchObject({ id: subscription.id, status: 'trialing', pending_update: null });
    expect(event!.created).toBe(START_UNIX + 23 * HOUR);
    expect(context.webhooks.types()).toContain('invoice.voided');
  });

  it('with a card that asks for 3-D Secure: pending, and the invoice needs action', async () => {
    const { subscription } = await subscribeThroughCheckout(context, { card: AUTHENTICATION_CARD });
    const updated = await endTrialIfPaid(subscription.id);
    expect(updated.pending_update).not.toBeNull();
    await context.sandbox.flushWebhooks();
    expect(signedEventsOf(context, 'invoice.payment_action_required').map((event) => event.data.object.id)).toEqual([updated.latest_invoice]);
  });

  it('refuses parameters a pending update cannot carry', async () => {
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await expect(
      context.stripe.subscriptions.update(subscription.id, { trial_end: 'now', payment_behavior: 'pending_if_incomplete', cancel_at_period_end: true }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'cancel_at_period_end' });
  });
});
