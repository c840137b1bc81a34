// Shared by the sandbox's tests: a sandbox with an SDK client pointed at it, a local webhook endpoint that
// records what arrives, and a browser-like way to submit the hosted forms.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startStripeSandbox, type StripeSandbox, type StripeSandboxOptions } from './stripe-sandbox.ts';

export interface ReceivedWebhook {
  body: string;
  signature: string;
  event: Stripe.Event;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Events received so far, by type, in arrival order. */
  types(): string[];
  ofType<T extends Stripe.Event['type']>(type: T): Extract<Stripe.Event, { type: T }>[];
  /** Decides the HTTP status of the next deliveries (default 200). */
  respondWith(status: (attempt: number) => number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let attempts = 0;
  let statusFor = (_attempt: number) => 200;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      attempts += 1;
      const status = statusFor(attempts);
      const body = Buffer.concat(chunks).toString('utf8');
      if (status < 300) received.push({ body, signature: String(request.headers['stripe-signature']), event: JSON.parse(body) as Stripe.Event });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/stripe/webhook`,
    received,
    types: () => received.map(({ event }) => event.type),
    ofType: <T extends Stripe.Event['type']>(type: T) =>
      received.map(({ event }) => event).filter((event): event is Extract<Stripe.Event, { type: T }> => event.type === type),
    respondWith(next) {
      statusFor = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface TestSandbox {
  sandbox: StripeSandbox;
  stripe: Stripe;
  webhooks: WebhookReceiver;
  close(): Promise<void>;
}

export async function startTestSandbox(options: Partial<StripeSandboxOptions> = {}): Promise<TestSandbox> {
  const webhooks = await startWebhookReceiver();
  const sandbox = await startStripeSandbox({ webhookUrl: webhooks.url, logger: { info() {}, warn() {} }, ...options });
  const stripe = new Stripe(sandbox.secretKey, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  return {
    sandbox,
    stripe,
    webhooks,
    async close() {
      await sandbox.close();
      await webhooks.close();
    },
  };
}

/** A hosted-page URL (built on publicBaseUrl, `localhost`) reached through the address the sandbox listens on. */
export function onSandbox(sandbox: StripeSandbox, url: string): string {
  const parsed = new URL(url);
  return new URL(`${parsed.pathname}${parsed.search}`, sandbox.baseUrl).toString();
}

/** Submits a hosted form like a browser would, without following the redirect. */
export function submitForm(sandbox: StripeSandbox, url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(onSandbox(sandbox, url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

export const GOOD_CARD = { card_number: '4242 4242 4242 4242', card_expiry: '12 / 34', card_cvc: '123' };
export const FAILING_CARD = { card_number: '4000 0000 0000 0341', card_expiry: '12 / 34', card_cvc: '123' };
export const DECLINED_CARD = { card_number: '4000 0000 0000 0002', card_expiry: '12 / 34', card_cvc: '123' };
/** Stripe's test US bank account for ACH Direct Debit: debits settle successfully, days later. */
export const TEST_BANK_ACCOUNT = { bank_routing_number: '110000000', bank_account_number: '000123456789' };
/** Asks for 3-D Secure on every charge: fine on a page, needs action when charged off-session. */
export const AUTHENTICATION_CARD = { card_number: '4000 0027 6000 3184', card_expiry: '12 / 34', card_cvc: '123' };

/** The deliveries of one event type, each checked against the endpoint secret as the product checks them. */
export function signedEventsOf<T extends Stripe.Event['type']>({ sandbox, webhooks }: TestSandbox, type: T): Extract<Stripe.Event, { type: T }>[] {
  return webhooks.received
    .filter(({ event }) => event.type === type)
    .map(({ body, signature }) => Stripe.webhooks.constructEvent(body, signature, sandbox.webhookSecret) as Extract<Stripe.Event, { type: T }>);
}

export interface TrialCheckoutOptions {
  card: Record<string, string> | null;
  missingPaymentMethod?: 'cancel' | 'pause' | 'create_invoice';
  trialDays?: number | null;
}

/** What the billing server does: a customer, then a subscription Checkout Session, completed on the hosted page. */
export async function subscribeThroughCheckout(
  { sandbox, stripe }: TestSandbox,
  { card, missingPaymentMethod = 'cancel', trialDays = 7 }: TrialCheckoutOptions,
): Promise<{ customer: Stripe.Customer; session: Stripe.Checkout.Session; subscription: Stripe.Subscription }> {
  const customer = await stripe.customers.create({ email: 'creator@example.com', metadata: { userId: 'user-1' } });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: 'user-1',
    line_items: [{ price: sandbox.priceId, quantity: 1 }],
    success_url: 'http://app.example/billing?success=true&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.example/billing?canceled=true',
    payment_method_collection: 'if_required',
    subscription_data: {
      ...(trialDays ? { trial_period_days: trialDays } : {}),
      trial_settings: { end_behavior: { missing_payment_method: missingPaymentMethod } },
      metadata: { userId: 'user-1' },
    },
  });
  const response = await submitForm(sandbox, session.url!, card ?? {});
  if (response.status !== 303) throw new Error(`checkout failed with ${response.status}: ${await response.text()}`);
  const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
  return { customer, session: completed, subscription: completed.subscription as Stripe.Subscription };
}
