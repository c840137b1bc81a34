import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, signatureHeader } from './webhooks.ts';
import { startWebhookReceiver, type WebhookReceiver } from './test-helpers.ts';

const secret = 'whsec_test_secret';

function fakeEvent(id: string): Stripe.Event {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: 1_800_000_000,
    data: { object: { id: 'cus_1', object: 'customer' } as unknown as Stripe.Customer },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'customer.created',
  } as Stripe.CustomerCreatedEvent;
}

describe('signatureHeader', () => {
  it("matches the SDK's own test header for the same payload, secret and time", () => {
    const payload = JSON.stringify({ hello: 'world' });
    const timestamp = 1_800_000_000;
    expect(signatureHeader(payload, secret, timestamp)).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }));
  });
});

describe('webhook dispatcher', () => {
  let receiver: WebhookReceiver;
  const warnings: Array<{ details: object; message: string | undefined }> = [];
  const logger = { info() {}, warn: (details: object, message?: string) => warnings.push({ details, message }) };

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    warnings.length = 0;
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('delivers in order per key and reports each delivery', async () => {
    const delivered: string[] = [];
    const dispatcher = createWebhookDispatcher({ url: receiver.url, secret, logger, onDelivered: (id) => delivered.push(id), retryDelaysMs: [1] });
    receiver.respondWith((attempt) => (attempt === 1 ? 500 : 200));
    dispatcher.enqueue(fakeEvent('evt_1'), 'cus_1');
    dispatcher.enqueue(fakeEvent('evt_2'), 'cus_1');
    await dispatcher.flush();
    expect(receiver.received.map(({ event }) => event.id)).toEqual(['evt_1', 'evt_2']);
    expect(delivered).toEqual(['evt_1', 'evt_2']);
    for (const { body, signature } of receiver.received) expect(Stripe.webhooks.constructEvent(body, signature, secret).type).toBe('customer.created');
  });

  it('gives up after the last retry and logs every failure', async () => {
    const delivered: string[] = [];
    const dispatcher = createWebhookDispatcher({ url: receiver.url, secret, logger, onDelivered: (id) => delivered.push(id), retryDelaysMs: [1, 1, 1] });
    receiver.respondWith(() => 503);
    dispatcher.enqueue(fakeEvent('evt_lost'), 'cus_1');
    await dispatcher.flush();
    expect(delivered).toEqual([]);
    expect(warnings.map(({ message }) => message)).toEqual([
      'stripe sandbox: webhook delivery failed; retrying',
      'stripe sandbox: webhook delivery failed; retrying',
      'stripe sandbox: webhook delivery failed; retrying',
      'stripe sandbox: webhook delivery failed; giving up',
    ]);
    expect(warnings.at(-1)!.details).toMatchObject({ eventId: 'evt_lost', failure: 'HTTP 503', attempts: 4 });
  });

  it('treats a refused connection as a failure', async () => {
    const dispatcher = createWebhookDispatcher({ url: 'http://127.0.0.1:9/unreachable', secret, logger, onDelivered() {}, retryDelaysMs: [] });
    dispatcher.enqueue(fakeEvent('evt_nowhere'), 'cus_1');
    await dispatcher.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('giving up');
  });
});
