// Contract tests: the official SDK, pointed at the sandbox, must see what it would see from api.stripe.com.
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GOOD_CARD, onSandbox, signedEventsOf, startTestSandbox, submitForm, subscribeThroughCheckout, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

describe('customers', () => {
  it('creates, retrieves, updates and lists customers by email', async () => {
    const { stripe } = context;
    const created = await stripe.customers.create({ email: 'ana@example.com', name: 'Ana', metadata: { userId: 'u-1' } });
    expect(created).toMatchObject({ object: 'customer', email: 'ana@example.com', name: 'Ana', metadata: { userId: 'u-1' }, livemode: false });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    expect(created.invoice_settings.default_payment_method).toBeNull();

    const updated = await stripe.customers.update(created.id, { name: 'Ana B', metadata: { plan: 'pro', userId: '' } });
    expect(updated.name).toBe('Ana B');
    expect(updated.metadata).toEqual({ plan: 'pro' });

    const retrieved = await stripe.customers.retrieve(created.id);
    expect(retrieved).toEqual(updated);

    await stripe.customers.create({ email: 'other@example.com' });
    const listed = await stripe.customers.list({ email: 'ana@example.com' });
    expect(listed.data.map((customer) => customer.id)).toEqual([created.id]);
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/customers' });
  });

  it('pages lists newest first with limit and starting_after', async () => {
    const { stripe } = context;
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await stripe.customers.create({ email: `c${index}@example.com` })).id);
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data.map((customer) => customer.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await stripe.customers.list({ limit: 2, starting_after: ids[1] });
    expect(second.data.map((customer) => customer.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
  });
});

describe('deleting a customer', () => {
  it('answers the deleted stub, cancels its subscriptions at once, and leaves the customer retrievable only as deleted', async () => {
    const { stripe, sandbox } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    expect(subscription.status).toBe('trialing');
    const invoicesBefore = await stripe.invoices.list({ customer: customer.id });

    const deleted = await stripe.customers.del(customer.id);
    expect(deleted).toEqual({ id: customer.id, object: 'customer', deleted: true });
    expect(await stripe.customers.retrieve(customer.id)).toEqual({ id: customer.id, object: 'customer', deleted: true });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    // Its history stays listable; it is no longer among the customers, and nothing else can be done with it.
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((invoice) => invoice.id)).toEqual(invoicesBefore.data.map((invoice) => invoice.id));
    expect((await stripe.customers.list({ email: 'creator@example.com' })).data).toEqual([]);
    for (const attempt of [
      () => stripe.customers.del(customer.id),
      () => stripe.customers.update(customer.id, { name: 'Back' }),
      () => stripe.customers.listPaymentMethods(customer.id),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', type: 'StripeInvalidRequestError' });
    }
    await expect(
      stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: sandbox.priceId, quantity: 1 }], success_url: 'http://x/' }),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'customer' });
    // Delete takes no parameters.
    const other = await stripe.customers.create({ email: 'other@example.com' });
    await expect(stripe.customers.del(other.id, { expand: ['x'] } as never)).rejects.toMatchObject({ code: 'parameter_unknown' });

    await sandbox.flushWebhooks();
    expect(signedEventsOf(context, 'customer.subscription.deleted').map((event) => event.data.object.id)).toEqual([subscription.id]);
    const [customerDeleted] = signedEventsOf(context, 'customer.deleted');
    expect(customerDeleted!.data.object).toMatchObject({ id: customer.id, object: 'customer', email: 'creator@example.com' });
  });

  it('failNext answers 500 api_error to the next requests of one route only, which the SDK retries', async () => {
    const { stripe, sandbox } = context;
    const customer = await stripe.customers.create({ email: 'flaky@example.com' });
    sandbox.failNext('DELETE', '/v1/customers/:id', { times: 2 });
    await expect(stripe.customers.del(customer.id)).rejects.toMatchObject({ statusCode: 500, type: 'StripeAPIError' });
    expect((await stripe.customers.retrieve(customer.id)).deleted).toBeUndefined();
    // One failure left: the SDK's own retry gets through.
    const retrying = new Stripe(sandbox.secretKey, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 1, telemetry: false });
    expect(await retrying.customers.del(customer.id)).toMatchObject({ deleted: true });
    expect(() => sandbox.failNext('DELETE', '/v1/nothing/:id')).toThrow('no route');
  });

  it('answers 404 for a customer that never existed', async () => {
    await expect(context.stripe.customers.del('cus_doesnotexist')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });
});

describe('errors', () => {
  it('maps a missing customer to StripeInvalidRequestError with resource_missing', async () => {
    const error = await context.stripe.customers.retrieve('cus_doesnotexist').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', type: 'StripeInvalidRequestError' });
  });

  it('names the parameter of a missing referenced object', async () => {
    const { stripe, sandbox } = context;
    const error = await stripe.checkout.sessions
      .create({ mode: 'subscription', customer: 'cus_nope', line_items: [{ price: sandbox.priceId, quantity: 1 }], success_url: 'http://x/' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });

  it('refuses to list by an unknown customer instead of answering an empty list', async () => {
    const { stripe } = context;
    for (const list of [
      () => stripe.invoices.list({ customer: 'cus_gone' }),
      () => stripe.subscriptions.list({ customer: 'cus_gone', status: 'all' }),
      () => stripe.paymentMethods.list({ customer: 'cus_gone', type: 'card' }),
    ]) {
      await expect(list()).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing', param: 'customer' });
    }
    await expect(stripe.customers.listPaymentMethods('cus_gone')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('reports missing, unknown and malformed parameters like Stripe', async () => {
    const { stripe } = context;
    const missing = await stripe.billingPortal.sessions.create({} as Stripe.BillingPortal.SessionCreateParams).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'customer' });

    const unknown = await stripe.customers.create({ shoe_size: 42 } as Stripe.CustomerCreateParams).catch((caught: unknown) => caught);
    expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'shoe_size' });

    const customer = await stripe.customers.create({});
    const malformed = await stripe.subscriptions
      .list({ customer: customer.id, limit: 'many' as unknown as number })
      .catch((caught: unknown) => caught);
    expect(malformed).toMatchObject({ statusCode: 400, code: 'parameter_invalid_integer', param: 'limit' });
  });

  it('answers 401 without or with a wrong API key (StripeAuthenticationError)', async () => {
    const { sandbox } = context;
    const wrongKey = new Stripe('sk_test_wrong', { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
    const error = await wrongKey.customers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error).toMatchObject({ statusCode: 401 });

    const anonymous = await fetch(`${sandbox.baseUrl}/v1/customers`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('API key') } });
  });

  it('answers 404 for an unknown endpoint', async () => {
    const response = await fetch(`${context.sandbox.baseUrl}/v1/charges`, { headers: { authorization: `Bearer ${context.sandbox.secretKey}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL') } });
  });
});

describe('idempotency', () => {
  it('replays the first response for the same key and parameters, and rejects other parameters', async () => {
    const { stripe } = context;
    const first = await stripe.customers.create({ email: 'same@example.com' }, { idempotencyKey: 'customer-create:user-7' });
    const replay = await stripe.customers.create({ email: 'same@example.com' }, { idempotencyKey: 'customer-create:user-7' });
    expect(replay.id).toBe(first.id);
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await stripe.customers.list()).data).toHaveLength(1);

    const conflict = await stripe.customers.create({ email: 'different@example.com' }, { idempotencyKey: 'customer-create:user-7' }).catch((caught: unknown) => caught);
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('checkout', () => {
  it('creates a subscription-mode session whose url is the hosted page', async () => {
    const { stripe, sandbox } = context;
    const customer = await stripe.customers.create({ email: 'buyer@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'user-42',
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/billing?success=true&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.example/billing?canceled=true',
      allow_promotion_codes: true,
      payment_method_collection: 'if_required',
      metadata: { userId: 'user-42' },
      subscription_data: { trial_period_days: 7, trial_settings: { end_behavior: { missing_payment_method: 'cancel' } }, metadata: { userId: 'user-42' } },
    });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user-42',
      subscription: null,
      payment_method_collection: 'if_required',
      allow_promotion_codes: true,
      metadata: { userId: 'user-42' },
      success_url: 'http://app.example/billing?success=true&session_id={CHECKOUT_SESSION_ID}',
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`http://localhost:${sandbox.port}/c/pay/${session.id}`);
    expect(session.expires_at).toBe(session.created + 86_400);

    const page = await fetch(onSandbox(sandbox, session.url!));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Sandbox — no real charges');
    expect(html).toContain('7-day free trial');
    expect(html).toContain('$20.00');
    expect(html).toContain('<label for="card_number">');
    expect(html).toContain('4242 4242 4242 4242');
  });

  it('completes on the hosted form: redirects to success_url with the session id, and starts a trial', async () => {
    const { sandbox, stripe } = context;
    const customer = await stripe.customers.create({ email: 'trial@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/billing?session_id={CHECKOUT_SESSION_ID}',
      subscription_data: { trial_period_days: 7, metadata: { userId: 'u-9' } },
    });
    const response = await submitForm(sandbox, session.url!, GOOD_CARD);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://app.example/billing?session_id=${session.id}`);

    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', customer: customer.id, url: null });
    const subscription = completed.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({ object: 'subscription', status: 'trialing', customer: customer.id, metadata: { userId: 'u-9' }, cancel_at_period_end: false });
    expect(subscription.trial_end! - subscription.trial_start!).toBe(7 * 86_400);
    const item = subscription.items.data[0]!;
    expect(item).toMatchObject({ object: 'subscription_item', current_period_start: subscription.trial_start, current_period_end: subscription.trial_end, quantity: 1 });
    expect(item.price).toMatchObject({ id: sandbox.priceId, unit_amount: 2000, currency: 'usd', recurring: { interval: 'month' } });
    expect(subscription.trial_settings?.end_behavior.missing_payment_method).toBe('create_invoice');
    expect(subscription).not.toHaveProperty('current_period_end');
  });

  it('charges at once without a trial, or leaves the subscription incomplete when the card fails', async () => {
    const paid = await subscribeThroughCheckout(context, { card: GOOD_CARD, trialDays: null });
    expect(paid.subscription.status).toBe('active');
    expect(paid.session.payment_status).toBe('paid');
    const [invoice] = (await context.stripe.invoices.list({ customer: paid.customer.id })).data;
    expect(invoice).toMatchObject({ status: 'paid', amount_due: 2000, amount_paid: 2000, billing_reason: 'subscription_create' });

    const failed = await subscribeThroughCheckout(context, { card: { card_number: '4000000000000341', card_expiry: '12/34', card_cvc: '123' }, trialDays: null });
    expect(failed.subscription.status).toBe('incomplete');
    expect(failed.session.payment_status).toBe('unpaid');
  });

  it('refuses a card declined at entry and keeps the session open', async () => {
    const { sandbox, stripe } = context;
    const customer = await stripe.customers.create({ email: 'x@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/ok',
    });
    const response = await submitForm(sandbox, session.url!, { card_number: '4000 0000 0000 0002', card_expiry: '12/34', card_cvc: '123' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('sends Cancel to cancel_url, and expires sessions through the API', async () => {
    const { sandbox, stripe } = context;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'new@example.com',
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/ok',
      cancel_url: 'http://app.example/billing?canceled=true',
    });
    const cancel = await submitForm(sandbox, `${session.url!}/cancel`, {});
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe('http://app.example/billing?canceled=true');

    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    await context.sandbox.flushWebhooks();
    expect(context.webhooks.types()).toContain('checkout.session.expired');
  });

  it('creates a customer from the email when the session has none', async () => {
    const { sandbox, stripe } = context;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: sandbox.priceId, quantity: 1 }],
      success_url: 'http://app.example/ok',
      subscription_data: { trial_period_days: 7 },
    });
    const response = await submitForm(sandbox, session.url!, { email: 'walk-in@example.com', ...GOOD_CARD });
    expect(response.status).toBe(303);
    const completed = await stripe.checkout.sessions.retrieve(session.id);
    const customer = await stripe.customers.retrieve(completed.customer as string);
    expect(customer).toMatchObject({ email: 'walk-in@example.com' });
    expect(completed.customer_details?.email).toBe('walk-in@example.com');
  });
});

describe('subscriptions, payment methods and invoices', () => {
  it('lists subscriptions by customer and status, and cancels immediately', async () => {
    const { stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    expect((await stripe.subscriptions.list({ customer: customer.id })).data.map((sub) => sub.id)).toEqual([subscription.id]);

    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'cancellation_requested' } });
    expect(canceled.canceled_at).toBe(canceled.ended_at);
    expect(canceled.ended_at).not.toBeNull();
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data.map((sub) => sub.status)).toEqual(['canceled']);
  });

  it('sets cancel_at_period_end and undoes it', async () => {
    const { stripe } = context;
    const { subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'trialing', cancel_at_period_end: true, cancel_at: subscription.trial_end });
    const resumed = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
  });

  it('lists card payment methods both ways and expands the default one', async () => {
    const { stripe } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const viaCustomer = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    const viaList = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(viaList.data).toEqual(viaCustomer.data);
    expect(viaCustomer.data).toHaveLength(1);
    const [card] = viaCustomer.data;
    expect(card).toMatchObject({ object: 'payment_method', type: 'card', customer: customer.id, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } });

    // Like Stripe Checkout: the card is the subscription's default, not the customer's.
    expect(subscription.default_payment_method).toBe(card!.id);
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ invoice_settings: { default_payment_method: null } });
    const [expanded] = (await stripe.subscriptions.list({ customer: customer.id, status: 'all', expand: ['data.default_payment_method'] })).data;
    expect((expanded!.default_payment_method as Stripe.PaymentMethod).card?.last4).toBe('4242');

    const defaulted = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card!.id } });
    expect(defaulted.invoice_settings.default_payment_method).toBe(card!.id);
  });

  it('lists invoices with the subscription under parent.subscription_details, with hosted page and PDF', async () => {
    const { stripe, sandbox } = context;
    const { customer, subscription } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 24 });
    expect(invoices.data).toHaveLength(1);
    const [invoice] = invoices.data;
    expect(invoice).toMatchObject({
      object: 'invoice',
      status: 'paid',
      amount_due: 0,
      amount_paid: 0,
      currency: 'usd',
      billing_reason: 'subscription_create',
      customer: customer.id,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: { userId: 'user-1' } } },
    });
    expect(invoice).not.toHaveProperty('subscription');
    expect(invoice!.number).toMatch(/^[A-Z0-9]{8}-0001$/);
    expect(invoice!.lines.data[0]).toMatchObject({ amount: 0, description: 'Trial period for Pro', subscription: subscription.id });
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((entry) => entry.id)).toEqual([invoice!.id]);
    expect(await stripe.invoices.retrieve(invoice!.id)).toEqual(invoice);

    const hosted = await fetch(onSandbox(sandbox, invoice!.hosted_invoice_url!));
    expect(hosted.status).toBe(200);
    expect(await hosted.text()).toContain(invoice!.number!);
    const pdf = await fetch(onSandbox(sandbox, invoice!.invoice_pdf!));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-1.4')).toBe(true);
    expect(bytes.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(bytes).toContain(`Invoice ${invoice!.number}`);
  });
});

describe('billing portal', () => {
  it('creates a session whose url shows plan, card, invoices and a way back', async () => {
    const { stripe, sandbox } = context;
    const { customer } = await subscribeThroughCheckout(context, { card: GOOD_CARD });
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.example/billing' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'http://app.example/billing' });
    expect(portal.id).toMatch(/^bps_/);
    const html = await (await fetch(onSandbox(sandbox, portal.url))).text();
    expect(html).toContain('Pro · $20.00 per month');
    expect(html).toContain('trialing');
    expect(html).toContain('Visa •••• 4242');
    expect(html).toContain('Return to Analytics Hub');
    expect(html).toContain('href="http://app.example/billing"');
    expect(html).toContain('+7 days');
  });

  it('escapes customer-controlled text', async () => {
    const { stripe, sandbox } = context;
    const customer = await stripe.customers.create({ email: '<script>alert(1)</script>@example.com' });
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.example/"><b>' });
    const html = await (await fetch(onSandbox(sandbox, portal.url))).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
    expect(html).toContain('href="http://app.example/&quot;&gt;&lt;b&gt;"');
  });
});

describe('payment link', () => {
  it('prefills the email and starts a 7-day trial for a new customer', async () => {
    const { sandbox, stripe } = context;
    const page = await fetch(`${onSandbox(sandbox, sandbox.paymentLinkUrl)}?prefilled_email=${encodeURIComponent('fan@example.com')}`);
    const html = await page.text();
    expect(html).toContain('value="fan@example.com"');
    expect(html).toContain('7-day free trial');

    const response = await submitForm(sandbox, sandbox.paymentLinkUrl, { email: 'fan@example.com', ...GOOD_CARD });
    expect(response.status).toBe(303);
    const [customer] = (await stripe.customers.list({ email: 'fan@example.com' })).data;
    const [subscription] = (await stripe.subscriptions.list({ customer: customer!.id })).data;
    expect(subscription).toMatchObject({ status: 'trialing' });
    const thanks = await fetch(new URL(response.headers.get('location')!, sandbox.baseUrl));
    expect(await thanks.text()).toContain('Your free trial of Pro has started');
  });
});

describe('webhooks', () => {
  it('signs every event so stripe.webhooks.constructEvent accepts it, and a tampered body fails', async () => {
    const { sandbox, stripe, webhooks } = context;
    await subscribeThroughCheckout(context, { card: GOOD_CARD });
    await sandbox.flushWebhooks();
    expect(webhooks.types()).toEqual([
      'customer.created',
      'payment_method.attached',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    for (const { body, signature } of webhooks.received) {
      const event = stripe.webhooks.constructEvent(body, signature, sandbox.webhookSecret);
      expect(event).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION });
      expect(event.id).toMatch(/^evt_/);
    }
    const [first] = webhooks.received;
    expect(() => stripe.webhooks.constructEvent(first!.body.replace('customer.created', 'customer.deleted'), first!.signature, sandbox.webhookSecret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(first!.body, first!.signature, 'whsec_someoneelse')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('carries the request id and idempotency key of the API call that caused the event', async () => {
    const { sandbox, stripe, webhooks } = context;
    const customer = await stripe.customers.create({ email: 'r@example.com' }, { idempotencyKey: 'create-r' });
    await sandbox.flushWebhooks();
    const [created] = webhooks.ofType('customer.created');
    expect(created!.data.object.id).toBe(customer.id);
    expect(created!.request).toEqual({ id: customer.lastResponse.requestId, idempotency_key: 'create-r' });
  });

  it("retries a failed delivery, holding back the customer's later events to keep their order", async () => {
    const { sandbox, stripe, webhooks } = context;
    webhooks.respondWith((attempt) => (attempt <= 2 ? 500 : 200));
    const customer = await stripe.customers.create({ email: 'retry@example.com' });
    await stripe.customers.update(customer.id, { name: 'Retried' });
    await sandbox.flushWebhooks();
    expect(webhooks.types()).toEqual(['customer.created', 'customer.updated']);
    const [updated] = webhooks.ofType('customer.updated');
    expect(updated!.data.previous_attributes).toEqual({ name: null });
  });

  it('lists and retrieves events through the API', async () => {
    const { stripe } = context;
    const customer = await stripe.customers.create({ email: 'events@example.com' });
    const events = await stripe.events.list({ type: 'customer.created' });
    expect(events.data).toHaveLength(1);
    const [event] = events.data;
    expect(event!.data.object).toMatchObject({ id: customer.id });
    expect(await stripe.events.retrieve(event!.id)).toMatchObject({ id: event!.id, type: 'customer.created' });
  });
});

describe('test clocks', () => {
  it('creates, retrieves and advances a Stripe test clock that its customers follow', async () => {
    const { stripe } = context;
    const start = Math.floor(Date.UTC(2030, 0, 1) / 1000);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start, name: 'January' });
    expect(clock).toMatchObject({ object: 'test_helpers.test_clock', frozen_time: start, status: 'ready', name: 'January' });
    const customer = await stripe.customers.create({ email: 'clock@example.com', test_clock: clock.id });
    expect(customer).toMatchObject({ test_clock: clock.id, created: start });

    const advanced = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 3600 });
    expect(advanced.frozen_time).toBe(start + 3600);
    expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(start + 3600);

    const backwards = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start }).catch((caught: unknown) => caught);
    expect(backwards).toMatchObject({ statusCode: 400, param: 'frozen_time' });
  });
});
