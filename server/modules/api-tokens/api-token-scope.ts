// What a personal API token may call (decision 020). An allowlist, so that a route added later is closed to tokens
// until someone decides otherwise: reads of the user's own numbers and content, never anything that changes state,
// hands out credentials (OAuth links, event-stream tickets) or manages the account, its sessions, billing or tokens.

/** GET (and HEAD) routes a personal token may read: these patterns exactly, or any route under the prefixes. */
export const API_TOKEN_READABLE_ROUTES: readonly string[] = [
  '/api/auth/me',
  '/api/analytics',
  '/api/platforms',
  '/api/platformconnections',
  '/api/sync/status',
  '/api/notifications',
  '/api/forecasts',
  '/api/income',
];
/** Areas a personal token may read: every route under each, and the area's own route (`/api/content` lists the posts). */
export const API_TOKEN_READABLE_PREFIXES: readonly string[] = ['/api/analytics/', '/api/youtubeanalytics/', '/api/content/', '/api/income/'];

const READ_METHODS = new Set(['GET', 'HEAD']);

export type ApiTokenRefusal = 'read_only_token' | 'session_required';

/** Why a personal token may not call this route (its method and route pattern), or undefined when it may. */
export function apiTokenRefusal(method: string, routePattern: string | undefined): ApiTokenRefusal | undefined {
  if (!READ_METHODS.has(method.toUpperCase())) return 'read_only_token';
  if (routePattern === undefined) return 'session_required';
  const readable =
    API_TOKEN_READABLE_ROUTES.includes(routePattern) || API_TOKEN_READABLE_PREFIXES.some((prefix) => routePattern.startsWith(prefix) || routePattern === prefix.slice(0, -1));
  return readable ? undefined : 'session_required';
}

export const API_TOKEN_REFUSALS: Record<ApiTokenRefusal, string> = {
  read_only_token: 'Personal API tokens are read-only: sign in to change anything.',
  session_required: 'Personal API tokens cannot call this: it needs you signed in (account, sessions, billing and tokens are managed in the app).',
};
