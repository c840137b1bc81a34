// Sends events the way Stripe does: a JSON POST signed with `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">` under the endpoint secret, so the product's `stripe.webhooks.constructEvent` accepts it. Events of
// one customer go out one after another in creation order; a failed delivery is retried a few times with backoff
// before the sandbox gives up on it (and later events of that customer wait meanwhile, to keep the order).
import { createHmac } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type Stripe from 'stripe';

/** Where failed deliveries are reported. */
export interface WebhookLogger {
  warn(obj: object, msg?: string): void;
}

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export interface WebhookDispatcher {
  /** Queues the event behind earlier events with the same ordering key (the customer id). */
  enqueue(event: Stripe.Event, orderingKey: string): void;
  /** Resolves once every event queued so far was delivered or given up on. */
  flush(): Promise<void>;
  /** Stops retrying and abandons deliveries still in flight. */
  close(): Promise<void>;
}

export interface WebhookDispatcherOptions {
  /** The endpoint, or how to find it at delivery time (an app whose port is known only once it listens). */
  url: string | (() => string);
  secret: string;
  logger: WebhookLogger;
  onDelivered(eventId: string): void;
  /** Waits before each retry; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

const DEFAULT_RETRY_DELAYS_MS = [100, 500, 2_000];

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { secret, logger, onDelivered, retryDelaysMs = DEFAULT_RETRY_DELAYS_MS, timeoutMs = 10_000 } = options;
  const endpoint = () => (typeof options.url === 'function' ? options.url() : options.url);
  const queues = new Map<string, Promise<void>>();
  const stop = new AbortController();

  /** One POST; resolves to the failure reason, or null when the endpoint answered 2xx. */
  async function attempt(payload: string): Promise<string | null> {
    try {
      const response = await fetch(endpoint(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signatureHeader(payload, secret, Math.floor(Date.now() / 1000)),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body?.cancel();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  async function deliver(event: Stripe.Event): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    for (let retry = 0; !stop.signal.aborted; retry += 1) {
      const failure = await attempt(payload);
      if (failure === null) {
        onDelivered(event.id);
        return;
      }
      if (stop.signal.aborted) return;
      const wait = retryDelaysMs[retry];
      if (wait === undefined) {
        logger.warn({ eventId: event.id, type: event.type, url: endpoint(), failure, attempts: retry + 1 }, 'stripe sandbox: webhook delivery failed; giving up');
        return;
      }
      logger.warn({ eventId: event.id, type: event.type, url: endpoint(), failure, retryInMs: wait }, 'stripe sandbox: webhook delivery failed; retrying');
      try {
        await delay(wait, undefined, { signal: stop.signal });
      } catch {
        return; // closed while waiting
      }
    }
  }

  return {
    enqueue(event, orderingKey) {
      const previous = queues.get(orderingKey) ?? Promise.resolve();
      const next = previous.then(() => deliver(event));
      queues.set(orderingKey, next);
      void next.then(() => {
        if (queues.get(orderingKey) === next) queues.delete(orderingKey);
      });
    },
    async flush() {
      while (queues.size > 0) await Promise.all(queues.values());
    },
    async close() {
      stop.abort();
      await Promise.all(queues.values());
    },
  };
}
