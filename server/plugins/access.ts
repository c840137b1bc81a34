// The 402 gate: premium API calls need an active subscription or a running trial (spec sections 6 and 8).
// It is applied by path prefix to every route as it is registered, so a premium route added later is gated
// without anyone remembering to do it.
import type { FastifyInstance, FastifyRequest, onRouteHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { SessionContext } from '../modules/accounts/accounts.repository.ts';
import { currentSession } from './authentication.ts';

/** Every route under these paths is premium. */
export const PREMIUM_ROUTE_PREFIXES = [
  '/api/platforms',
  '/api/platformconnections',
  '/api/oauth',
  '/api/sync',
  '/api/analytics',
  '/api/youtubeanalytics',
  '/api/content',
  '/api/reports',
  '/api/events',
  '/api/income',
] as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How a premium route authenticates when it cannot use the bearer session (the event stream: EventSource sends
     * no headers, so it brings a single-use ticket). It must set `request.auth`; the access check follows as usual.
     */
    authenticate?: (request: FastifyRequest) => Promise<void>;
  }
}

export function isPremiumPath(path: string): boolean {
  return PREMIUM_ROUTE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
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
 * Gates every premium route registered after this call. Authentication, then access, run on request, before
 * the body is read or validated: a caller without a session always gets 401 and one without access 402,
 * whatever they send. (A route's own `requireUser`, if it lists one, just finds the same session again.)
 */
export function registerAccessGate(
  app: FastifyInstance,
  { requireUser, requireAccess }: { requireUser: preHandlerAsyncHookHandler; requireAccess: (request: FastifyRequest) => Promise<void> },
) {
  const gate: onRouteHookHandler = (route) => {
    if (!isPremiumPath(route.url)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const authenticate = (route.config as { authenticate?: (request: FastifyRequest) => Promise<void> } | undefined)?.authenticate ?? requireUser;
    route.onRequest = [authenticate, requireAccess, ...existing] as typeof route.onRequest;
  };
  app.addHook('onRoute', gate);
}
