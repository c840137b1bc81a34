// Test helpers for billing against the Stripe sandbox: an SDK client of our own (to play the customer or the
// Stripe dashboard), the hosted checkout form submitted like a browser, signed webhook deliveries, and waits
// on conditions instead of sleeps.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { StripeSandbox } from '../../sandbox/stripe/stripe-sandbox.ts';
import type { TestServer } from './test-server.ts';

export const GOOD_CARD = { card_number: '4242 4242 4242 4242', card_expiry: '12 / 34', card_cvc: '123' };
/** Attaches, then every charge fails. */
export const FAILING_CARD = { card_number: '4000 0000 0000 0341', card_expiry: '12 / 34', card_cvc: '123' };
/** Stripe's test US bank account (ACH Direct Debit): a delayed-notification method, debits settle days later. */
export const TEST_BANK_ACCOUNT = { bank_routing_number: '110000000', bank_account_number: '000123456789' };
/** Asks for 3-D Secure on every charge: paid on a page, needs action when charged off-session (renewals). */
export const AUTHENTICATION_CARD = { card_number: '4000 0027 6000 3184', card_expiry: '12 / 34', card_cvc: '123' };

export function sandboxOf(server: TestServer): StripeSandbox {
  if (!server.stripeSandbox) throw new Error('start the test server with { stripe: true }');
  return server.stripeSandbox;
}

/** An SDK client of the test's own, as the Stripe dashboard or the customer's browser would act on Stripe. */
export function stripeClient(sandbox: StripeSandbox): Stripe {
  return new Stripe(sandbox.secretKey, { host: sandbox.host, port: sandbox.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
}

/** A hosted page's URL (built for browsers on `localhost`) reached at the address the sandbox listens on. */
function onSandbox(sandbox: StripeSandbox, url: string): string {
  const parsed = new URL(url);
  return new URL(`${parsed.pathname}${parsed.search}`, sandbox.baseUrl).toString();
}

/**
 * Fills in and submits the hosted checkout (or payment link) form like a browser; answers where the page
 * redirects to. No card fields: a trial started without a card.
 */
export async function submitHostedForm(sandbox: StripeSandbox, url: string, fields: Record<string, string> = {}): Promise<string> {
  const page = await fetch(onSandbox(sandbox, url));
  if (!page.ok) throw new Error(`hosted page answered ${page.status}`);
  const action = /<form method="post" action="([^"]+)">/.exec(await page.text())?.[1];
  if (!action) throw new Error('no form on the hosted page');
  const response = await fetch(new URL(action.replaceAll('&amp;', '&'), sandbox.baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  if (response.status !== 303) throw new Error(`checkout form answered ${response.status}: ${await response.text()}`);
  return response.headers.get('location') ?? '';
}

/** Polls `check` until it returns something truthy; for state that arrives asynchronously (webhooks). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, { timeoutMs = 10_000, what = 'a condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Moves time for the app and for Stripe (the sandbox runs on the server's clock), lets Stripe do what fell due
 * meanwhile (it catches up before answering any request, as Stripe would have done in real time), and
 * delivers the resulting webhooks.
 */
export async function advanceTime(server: TestServer, to: Date): Promise<void> {
  const sandbox = sandboxOf(server);
  server.clock.set(to);
  await stripeClient(sandbox).customers.list({ limit: 1 });
  await sandbox.flushWebhooks();
}

export interface SignedDelivery {
  payload: string;
  signature: string;
}

/** Signs a payload as Stripe does, with the real time (the sender's clock) unless told otherwise. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): SignedDelivery {
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
}

/** A minimal event for a customer: the app only reads its id, type and the customer it names. */
export function customerEvent(type: string, customerId: string, object: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      id: `evt_test_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: { object: type.split('.').slice(0, -1).join('.').replace('customer.', ''), customer: customerId, ...object } },
    },
    null,
    2,
  );
}

export function deliverWebhook(server: TestServer, delivery: Partial<SignedDelivery> & { payload: string }, headers: Record<string, string> = {}) {
  return server.request('POST', '/api/stripe/webhook', {
    rawBody: delivery.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(delivery.signature ? { 'stripe-signature': delivery.signature } : {}), ...headers },
  });
}

/**
 * Makes every write to stripe_events fail, as a database outage in the middle of a webhook would; answers
 * the function that repairs it.
 */
export async function breakEventRecording(server: TestServer): Promise<() => Promise<void>> {
  await server.db.execute(
    sql.raw(`create or replace function fail_stripe_event_insert() returns trigger language plpgsql as $$ begin raise exception 'stripe_events is unavailable'; end $$`),
  );
  await server.db.execute(sql.raw('create trigger fail_stripe_event_insert before insert on stripe_events for each row execute function fail_stripe_event_insert()'));
  return async () => {
    await server.db.execute(sql.raw('drop trigger fail_stripe_event_insert on stripe_events'));
    await server.db.execute(sql.raw('drop function fail_stripe_event_insert()'));
  };
}
