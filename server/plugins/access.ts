// The 402 gate: premium API calls need an active subscription or a running trial (spec sections 6 and 8).
// Every API route is premium unless it is listed below with the reason a user without access needs it: the gate
// attaches itself to every route as it is registered, so a route added later is premium until someone decides
// otherwise (server/plugins/access.test.ts walks the route table and holds each route to its side).
import type { FastifyInstance, FastifyRequest, onRouteHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { SessionContext } from '../modules/accounts/accounts.repository.ts';
import { currentSession } from './authentication.ts';

/**
 * The API routes open to every caller whatever their subscription ("METHOD /route/pattern" → why): what a user whose
 * trial or subscription ended needs to see and to leave (their connections and disconnecting them, the sync status,
 * the exports of their own data, account deletion, sign-in and sign-out), how they get access again, and the
 * routes that need no session at all. Each route still authenticates as it always did; only the access check is
 * skipped. A GET's HEAD follows its GET.
 */
export const LAPSED_ALLOWLIST: Readonly<Record<string, string>> = {
  // Leaving: what a lapsed user must be able to see and undo (Google, Meta and TikTok require that consent can be withdrawn).
  'GET /api/platformconnections': 'a lapsed user sees which platforms are connected, to disconnect them',
  'DELETE /api/platformconnections/:id': 'withdrawing a platform’s grant must never need a card',
  'DELETE /api/oauth/:platform/disconnect': 'withdrawing a platform’s grant must never need a card',
  'GET /api/sync/status': 'says that syncing is paused because the subscription ended',
  'GET /api/analytics/export': 'the user’s own data, exported while it is kept',
  'GET /api/youtubeanalytics/export': 'the user’s own data, exported while it is kept',
  'GET /api/content/export': 'the user’s own data, exported while it is kept',
  'GET /api/income/export': 'the user’s own data, exported while it is kept',
  // Getting access again: billing is how a user without access gets it.
  'GET /api/stripe/subscription-status': 'billing: how a user without access gets it',
  'POST /api/stripe/sync': 'billing: how a user without access gets it',
  'POST /api/stripe/create-checkout-session': 'billing: how a user without access gets it',
  'POST /api/stripe/create-portal-session': 'billing: how a user without access gets it',
  'POST /api/stripe/cancel-subscription': 'billing: how a user without access gets it',
  'POST /api/stripe/resume-subscription': 'billing: how a user without access gets it',
  'GET /api/stripe/payment-methods': 'billing: how a user without access gets it',
  'GET /api/stripe/invoices': 'billing: how a user without access gets it',
  'POST /api/stripe/webhook': 'Stripe calls it, with no session: the signature is its authentication',
  // Signing up, in and out, and the account itself (decision 007: nobody pays to manage or delete their account).
  'POST /api/auth/register': 'signing up: no session yet',
  'POST /api/auth/resend-confirmation': 'signing up: no session yet',
  'POST /api/auth/confirm-email': 'signing up: no session yet',
  'POST /api/auth/login': 'signing in, whatever the subscription',
  'POST /api/auth/logout': 'signing out, whatever the subscription',
  'POST /api/auth/password-reset': 'signing in: no session yet',
  'POST /api/auth/password-reset/confirm': 'signing in: no session yet',
  'GET /api/auth/me': 'who is signed in: the app asks before it knows the subscription',
  'GET /api/settings/account': 'the account itself (decision 007)',
  'POST /api/settings/account/delete': 'deleting the account must never need a card (decision 007)',
  'PATCH /api/settings/profile': 'the account itself (decision 007)',
  'POST /api/settings/password': 'the account itself (decision 007)',
  'POST /api/settings/email': 'the account itself (decision 007)',
  'POST /api/settings/email/confirm': 'the account itself (decision 007)',
  'GET /api/settings/sessions': 'signing out other devices (decision 007)',
  'DELETE /api/settings/sessions': 'signing out other devices (decision 007)',
  'DELETE /api/settings/sessions/:id': 'signing out other devices (decision 007)',
  'GET /api/settings/api-tokens': 'revoking a personal API token (decision 020); a token still meets this gate on every premium read',
  'POST /api/settings/api-tokens': 'Settings is open to every account (decision 020); a token still meets this gate on every premium read',
  'DELETE /api/settings/api-tokens/:id': 'revoking a personal API token (decision 020)',
  'GET /api/settings/alerts': 'turning alert emails off (decision 015)',
  'PATCH /api/settings/alerts': 'turning alert emails off (decision 015)',
  'GET /api/notifications': 'notices already sent, such as a connection to reconnect (decision 015)',
  'POST /api/notifications/:id/read': 'notices already sent (decision 015)',
  'POST /api/unsubscribe': 'the one-click unsubscribe link of an email (RFC 8058): no session',
  // No session at all: operations and the API's own description.
  'GET /api/health': 'liveness, for the load balancer',
  'GET /api/ready': 'readiness, for the load balancer',
  'GET /api/config/public': 'the app’s public configuration, read before sign-in',
  'GET /api/openapi.json': 'the API’s own description',
};

/** Swagger UI's pages and assets (registered by @fastify/swagger-ui under this prefix): the API's own description. */
export const OPEN_PREFIXES: readonly string[] = ['/api/docs'];

const routeKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/** Premium: an API route that is neither on the lapsed allowlist nor under an open prefix. */
export function isPremiumRoute(method: string, url: string): boolean {
  if (!url.startsWith('/api/')) return false;
  if (OPEN_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`))) return false;
  return !Object.hasOwn(LAPSED_ALLOWLIST, routeKey(method, url));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How a premium route authenticates when it cannot use the bearer session (the event stream: EventSource sends
     * no headers, so it brings a single-use ticket). It must set `request.auth`; the access check follows as usual.
     */
    authenticate?: (request: FastifyRequest) => Promise<void>;
  }
}

export const PAYMENT_REQUIRED_MESSAGE = 'An active subscription or trial is required';
export const UPGRADE_URL = '/billing?upgrade=true';

/**
 * Answers 402 unless the signed-in user has access. Entitlement comes from our database only: the subscription row
 * read with the session, in the same query.
 */
export function createRequireAccess({ grantsAccess }: { grantsAccess: (subscription: SessionContext['subscription']) => boolean }) {
  return async function requireAccess(request: FastifyRequest) {
    if (!grantsAccess(currentSession(request).subscription)) {
      throw new AppError('payment_required', PAYMENT_REQUIRED_MESSAGE, { details: { upgradeUrl: UPGRADE_URL } });
    }
  };
}

/**
 * Gates every premium route registered after this call (each method apart: a route added with several methods is
 * premium when one of them is). Authentication, then access, run on request, before
 * the body is read or validated: a caller without a session always gets 401 and one without access 402,
 * whatever they send. (A route's own `requireUser`, if it lists one, just finds the same session again.)
 */
export function registerAccessGate(
  app: FastifyInstance,
  { requireUser, requireAccess }: { requireUser: preHandlerAsyncHookHandler; requireAccess: (request: FastifyRequest) => Promise<void> },
) {
  const gate: onRouteHookHandler = (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => isPremiumRoute(method, route.url))) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const authenticate = (route.config as { authenticate?: (request: FastifyRequest) => Promise<void> } | undefined)?.authenticate ?? requireUser;
    route.onRequest = [authenticate, requireAccess, ...existing] as typeof route.onRequest;
  };
  app.addHook('onRoute', gate);
}
