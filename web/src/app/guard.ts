// The navigation guard of spec sections 2 and 4 as a pure decision, so every case is unit-tested.
import { DASHBOARD_ROUTE, LOGIN_ROUTE, UPGRADE_ROUTE } from '../lib/routes';

export const AUTH_ROUTES = ['/dashboard', '/analytics', '/youtube', '/income', '/platforms', '/billing', '/settings'] as const;
export const PUBLIC_ROUTES = ['/', '/login', '/confirm-email', '/resend-confirmation', '/forgot-password', '/reset-password'] as const;
export const BILLING_ROUTE = '/billing';
/** Account management (and deletion) works for every signed-in user, subscribed or not. */
export const SETTINGS_ROUTE = '/settings';

export type SessionState = 'checking' | 'signed-in' | 'signed-out';

/** The subscription verdict for the guard: `error` when the status could not be loaded. */
export type AccessState = 'loading' | 'valid' | 'invalid' | 'error';

export type GuardDecision = { kind: 'render' } | { kind: 'wait' } | { kind: 'redirect'; to: string };

/** '/dashboard/' and '/dashboard' are the same route. */
export function normalisePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** OAuth providers return to /auth/{platform}/callback; those pages run without the login guard. */
export function isOAuthCallback(pathname: string): boolean {
  return pathname.startsWith('/auth/') && pathname.includes('/callback');
}

export function isAuthRoute(pathname: string): boolean {
  const path = normalisePath(pathname);
  return AUTH_ROUTES.some((route) => path === route || path.startsWith(`${route}/`));
}

/** Every signed-in route except billing and settings needs an active subscription or a running trial. */
export function requiresValidAccess(pathname: string): boolean {
  const path = normalisePath(pathname);
  const open = [BILLING_ROUTE, SETTINGS_ROUTE].some((route) => path === route || path.startsWith(`${route}/`));
  return isAuthRoute(path) && !open;
}

interface GuardInput {
  pathname: string;
  session: SessionState;
  /** Only consulted for signed-in users on routes that require valid access. */
  access: AccessState;
  /** Where a signed-in user on /login goes: the page that sent them to sign in, by default the dashboard. */
  returnPath?: string;
}

export function decideNavigation({ pathname, session, access, returnPath = DASHBOARD_ROUTE }: GuardInput): GuardDecision {
  if (isOAuthCallback(pathname)) return { kind: 'render' };
  const path = normalisePath(pathname);
  const authRoute = isAuthRoute(path);
  const redirectsWhenSignedIn = path === '/' || path === LOGIN_ROUTE;

  if (session === 'checking') return authRoute || redirectsWhenSignedIn ? { kind: 'wait' } : { kind: 'render' };

  if (session === 'signed-out') return authRoute ? { kind: 'redirect', to: LOGIN_ROUTE } : { kind: 'render' };

  if (path === LOGIN_ROUTE) return { kind: 'redirect', to: returnPath };
  if (path === '/') return { kind: 'redirect', to: DASHBOARD_ROUTE };
  if (!requiresValidAccess(path)) return { kind: 'render' };
  if (access === 'loading') return { kind: 'wait' };
  if (access === 'invalid') return { kind: 'redirect', to: UPGRADE_ROUTE };
  // Valid, or the status call failed: the server still answers premium calls with 402, which the api
  // client turns into the same upgrade redirect, so a flaky status call does not lock the user out.
  return { kind: 'render' };
}
