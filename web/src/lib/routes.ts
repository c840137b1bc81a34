// Paths the shared code redirects to; the router in app/ defines the full table.
export const LOGIN_ROUTE = '/login';
export const DASHBOARD_ROUTE = '/dashboard';
/** Where a deleted account's browser lands: the confirmation, and where to remove the app at the platforms. */
export const ACCOUNT_DELETED_ROUTE = '/account-deleted';
/** Where a user without an active subscription or trial is sent (guard and 402 responses). */
export const UPGRADE_ROUTE = '/billing?upgrade=true';

/** Router state the guard passes to /login, so signing in returns to the page that asked for it. */
export interface LoginRedirectState {
  from: string;
}

export function loginRedirectState(pathname: string, search: string): LoginRedirectState {
  return { from: `${pathname}${search}` };
}

/** Where to go after signing in: the page the guard came from (same-origin paths only), else the dashboard. */
export function returnPathAfterLogin(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as Partial<LoginRedirectState>).from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/login')) {
    return DASHBOARD_ROUTE;
  }
  return from;
}
