// A Stripe-compatible sandbox: a small HTTP server that answers the official `stripe` SDK the way api.stripe.com
// would (same paths, form-encoded parameters, JSON objects, errors, idempotency), hosts stand-ins for Checkout,
// the customer portal, payment links and invoices, and sends signed webhooks to the product. The product's billing
// code cannot tell it from Stripe, which is the point: it is only pointed at another host.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiRoutes, type ApiRoute } from './api-routes.ts';
import { createBillingEngine } from './billing-engine.ts';
import { authenticationFailed, invalidRequest, StripeApiError } from './errors.ts';
import { FormEncodingError, parseStripeForm, type FormObject } from './form-encoding.ts';
import { messagePage } from './hosted-pages.ts';
import { createHostedRoutes, type HostedResponse, type HostedRoute } from './hosted-routes.ts';
import { API_VERSION, createRenderer } from './objects.ts';
import { newId, openStore } from './state.ts';
import { createWebhookDispatcher } from './webhooks.ts';

export interface StripeSandboxOptions {
  /**
   * Where to POST signed events (the app's /api/stripe/webhook), or how to find it at delivery time: a test server
   * listens on a port the system picks, known only after the app (which needs this sandbox's key) is built.
   */
  webhookUrl: string | (() => string);
  /** Default: a generated `whsec_…`. */
  webhookSecret?: string;
  /** Default: `sk_test_sandbox`. */
  secretKey?: string;
  /** Listen host; default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Base URL browsers use for hosted pages; default `http://localhost:<port>`. */
  publicBaseUrl?: string;
  /** If set, state is loaded from and saved to this JSON file, so it survives restarts. */
  stateFile?: string;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** Wall clock for new objects when no test clock applies; default Date. */
  now?: () => Date;
}

export interface StripeSandbox {
  host: string;
  port: number;
  /** e.g. http://127.0.0.1:41234 — what the SDK talks to. */
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** The one plan: product 'Pro', $20.00 (2000 usd cents) per month, recurring. */
  priceId: string;
  /** The hosted payment link page for the plan (accepts ?prefilled_email=). */
  paymentLinkUrl: string;
  close(): Promise<void>;
  /** Advances the customer's clock (its test clock, if it has one); also `POST /v1/test_helpers/customers/:id/advance_clock`. */
  advanceClock(customerId: string, to: Date): Promise<void>;
  /** Resolves when every webhook queued so far was delivered (or given up on). */
  flushWebhooks(): Promise<void>;
  /**
   * The next `times` (default 1) API requests to this route (`method` and the route's path, e.g. 'DELETE',
   * '/v1/customers/:id') answer 500 `api_error`, as Stripe does when it has trouble; the SDK retries those, so an
   * outage that outlasts its retries takes `times` = its retries + 1.
   */
  failNext(method: ApiRoute['method'], routePath: string, options?: { times?: number }): void;
}

/** How often the sandbox catches customer clocks up with the wall clock when no request arrives. */
const SETTLE_INTERVAL_MS = 60_000;
const MAX_BODY_BYTES = 1_000_000;
/** Stripe keeps idempotency keys for 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

const defaultLogger: Required<StripeSandboxOptions>['logger'] = {
  info() {},
  warn(obj, msg) {
    process.stderr.write(`${msg ?? 'stripe sandbox'} ${JSON.stringify(obj)}\n`);
  },
};

interface Route<H> {
  method: string;
  pattern: RegExp;
  names: string[];
  route: H;
}

/** Compiles `/v1/customers/:id` into a matcher for the named segments. */
function compileRoutes<H extends { method: string; path: string }>(routes: H[]): Route<H>[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/:([a-z_]+)/g, (_match, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { method: route.method, pattern: new RegExp(`^${source}$`), names, route };
  });
}

function matchRoute<H>(routes: Route<H>[], method: string, pathname: string): { route: H; path: Record<string, string> } | 'wrong_method' | null {
  let pathMatched = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(pathname);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    try {
      const path = Object.fromEntries(candidate.names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
      return { route: candidate.route, path };
    } catch {
      return null; // malformed percent-encoding: no such object
    }
  }
  return pathMatched ? 'wrong_method' : null;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw invalidRequest('The request body is too large.', { status: 413 });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The key from `Authorization: Bearer sk_…` or from Basic auth with the key as user name (curl -u sk_…:). */
function apiKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return value.trim();
  if (scheme?.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0] ?? null;
  return null;
}

/** `sk_test_****…wxyz`, as Stripe echoes a wrong key: enough to recognise it, not enough to use it. */
const redactKey = (key: string) => (key.length <= 12 ? '*'.repeat(key.length) : `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`);

export async function startStripeSandbox(options: StripeSandboxOptions): Promise<StripeSandbox> {
  const logger = options.logger ?? defaultLogger;
  const wallClock = options.now ?? (() => new Date());
  const secretKey = options.secretKey ?? 'sk_test_sandbox';
  const webhookSecret = options.webhookSecret ?? newId('whsec', 32);
  const host = options.host ?? '127.0.0.1';

  const store = openStore(options.stateFile, Math.floor(wallClock().getTime() / 1000));
  const { state } = store;

  // The hosted pages' URLs need the port, which is only known once listening; requests cannot arrive before.
  let handleRequest: (request: IncomingMessage, response: ServerResponse) => Promise<void> = async (_request, response) => {
    response.writeHead(503).end();
  };
  const server = createServer((request, response) => void handleRequest(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicBaseUrl = (options.publicBaseUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const renderer = createRenderer(state, publicBaseUrl);
  const webhooks = createWebhookDispatcher({
    url: options.webhookUrl,
    secret: webhookSecret,
    logger,
    onDelivered(eventId) {
      const event = state.events[eventId];
      if (event) event.pending_webhooks = 0;
      store.markChanged();
    },
  });
  const engine = createBillingEngine({ store, renderer, wallClock, publish: (event, orderingKey) => webhooks.enqueue(event, orderingKey) });
  const apiRoutes = compileRoutes<ApiRoute>(createApiRoutes({ engine, renderer, state }));
  /** failNext: failures still to answer, by `<method> <route path>`. */
  const pendingFailures = new Map<string, number>();
  const hostedRoutes = compileRoutes<HostedRoute>(createHostedRoutes({ engine, renderer, state, wallClock }));

  function sendJson(response: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
    response.writeHead(status, { 'content-type': 'application/json', 'stripe-version': API_VERSION, ...headers }).end(body);
  }

  const errorJson = (error: StripeApiError) => JSON.stringify({ error: error.body }, null, 2);

  function pruneIdempotencyKeys(nowMs: number): void {
    for (const [key, record] of Object.entries(state.idempotency)) {
      if (nowMs - record.createdAtMs > IDEMPOTENCY_TTL_MS) delete state.idempotency[key];
    }
  }

  function handleApi(request: IncomingMessage, response: ServerResponse, url: URL, body: string): void {
    const method = request.method ?? 'GET';
    const requestId = newId('req', 14);
    const idempotencyKey = method === 'POST' ? (request.headers['idempotency-key'] as string | undefined) ?? null : null;
    const headers: Record<string, string> = { 'request-id': requestId, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
    try {
      const key = apiKeyOf(request.headers.authorization);
      if (!key) {
        throw authenticationFailed(
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        );
      }
      if (key !== secretKey) throw authenticationFailed(`Invalid API Key provided: ${redactKey(key)}`);

      const matched = matchRoute(apiRoutes, method, url.pathname);
      if (matched === null || matched === 'wrong_method') {
        throw invalidRequest(`Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs.`, { status: 404 });
      }
      const failureKey = `${method} ${matched.route.path}`;
      const failuresLeft = pendingFailures.get(failureKey) ?? 0;
      if (failuresLeft > 0) {
        pendingFailures.set(failureKey, failuresLeft - 1);
        throw new StripeApiError(500, { type: 'api_error', message: 'An unknown error occurred (Stripe sandbox: failNext).' });
      }
      const query = url.search.slice(1);
      const params: FormObject = method === 'POST' ? parseStripeForm(body) : { ...parseStripeForm(query), ...parseStripeForm(body) };

      const fingerprint = JSON.stringify(params);
      if (idempotencyKey) {
        const previous = state.idempotency[idempotencyKey];
        if (previous) {
          if (previous.method !== method || previous.path !== url.pathname || previous.params !== fingerprint) {
            throw new StripeApiError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          }
          sendJson(response, 200, previous.body, { ...headers, 'idempotent-replayed': 'true', 'original-request': previous.requestId });
          return;
        }
      }

      const result = engine.onBehalfOf({ id: requestId, idempotencyKey }, () => matched.route.handle({ params, path: matched.path }));
      const json = JSON.stringify(result, null, 2);
      if (idempotencyKey) {
        // Only successes are replayed; a request that failed may be retried with the same key.
        const nowMs = Date.now();
        pruneIdempotencyKeys(nowMs);
        state.idempotency[idempotencyKey] = { method, path: url.pathname, params: fingerprint, createdAtMs: nowMs, requestId, body: json };
        store.markChanged();
      }
      sendJson(response, 200, json, headers);
    } catch (error) {
      const apiError =
        error instanceof StripeApiError ? error : error instanceof FormEncodingError ? invalidRequest(error.message, { param: error.param }) : null;
      if (apiError) {
        sendJson(response, apiError.statusCode, errorJson(apiError), headers);
        return;
      }
      logger.warn({ err: error instanceof Error ? error.stack : String(error), method, path: url.pathname }, 'stripe sandbox: internal error');
      sendJson(response, 500, errorJson(new StripeApiError(500, { type: 'api_error', message: 'The Stripe sandbox failed to handle this request.' })), headers);
    }
  }

  const PAGE_HEADERS = {
    // Inline styles, no scripts, nothing from elsewhere; forms may still redirect to the app's success_url.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };

  function sendHosted(response: ServerResponse, outcome: HostedResponse): void {
    switch (outcome.kind) {
      case 'html':
        response.writeHead(outcome.status, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS }).end(outcome.html);
        return;
      case 'pdf':
        response
          .writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${outcome.filename}"`, ...PAGE_HEADERS })
          .end(outcome.body);
        return;
      case 'redirect':
        response.writeHead(303, { location: outcome.location, ...PAGE_HEADERS }).end();
        return;
    }
  }

  function handleHosted(request: IncomingMessage, response: ServerResponse, url: URL, body: string): void {
    const method = request.method ?? 'GET';
    const matched = matchRoute(hostedRoutes, method, url.pathname);
    if (matched === null) return sendHosted(response, { kind: 'html', status: 404, html: messagePage('Not found', 'There is no page here.') });
    if (matched === 'wrong_method') return sendHosted(response, { kind: 'html', status: 405, html: messagePage('Not allowed', 'This page does not accept that request.') });
    try {
      sendHosted(response, matched.route.handle({ path: matched.path, query: url.searchParams, form: method === 'POST' ? parseStripeForm(body) : {} }));
    } catch (error) {
      if (error instanceof StripeApiError || error instanceof FormEncodingError) {
        const status = error instanceof StripeApiError ? error.statusCode : 400;
        return sendHosted(response, { kind: 'html', status, html: messagePage('Something went wrong', error.message) });
      }
      throw error;
    }
  }

  handleRequest = async (request, response) => {
    const url = new URL(request.url ?? '/', baseUrl);
    try {
      const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await readBody(request);
      // Whatever fell due on anyone's clock since the last request happens first, as it would have at Stripe.
      engine.settleAll();
      if (url.pathname.startsWith('/v1/')) handleApi(request, response, url, body);
      else handleHosted(request, response, url, body);
    } catch (error) {
      if (error instanceof StripeApiError) {
        sendJson(response, error.statusCode, errorJson(error), {});
      } else {
        logger.warn({ err: error instanceof Error ? error.stack : String(error), path: url.pathname }, 'stripe sandbox: internal error');
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' }).end('Stripe sandbox internal error');
      }
    } finally {
      store.persist();
    }
  };

  const settleTimer = setInterval(() => {
    try {
      engine.settleAll();
      store.persist();
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.stack : String(error) }, 'stripe sandbox: settling clocks failed');
    }
  }, SETTLE_INTERVAL_MS);
  settleTimer.unref();

  logger.info({ baseUrl, publicBaseUrl, webhookUrl: typeof options.webhookUrl === 'function' ? options.webhookUrl() : options.webhookUrl }, 'stripe sandbox listening');

  return {
    host,
    port,
    baseUrl,
    secretKey,
    webhookSecret,
    priceId: state.catalog.priceId,
    paymentLinkUrl: renderer.hostedUrls.paymentLink(),
    async close() {
      clearInterval(settleTimer);
      await webhooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      store.persist();
    },
    async advanceClock(customerId, to) {
      engine.advanceCustomerClock(customerId, Math.floor(to.getTime() / 1000));
      store.persist();
    },
    flushWebhooks: () => webhooks.flush(),
    failNext(method, routePath, { times = 1 } = {}) {
      if (!apiRoutes.some((candidate) => candidate.route.method === method && candidate.route.path === routePath)) {
        throw new Error(`the Stripe sandbox has no route ${method} ${routePath}`);
      }
      pendingFailures.set(`${method} ${routePath}`, (pendingFailures.get(`${method} ${routePath}`) ?? 0) + times);
    },
  };
}
