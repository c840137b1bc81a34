// Bearer authentication: routes that need a user list `requireUser` as a preHandler and read the result with
// `currentUser(request)`. The bearer is a session token, or a personal API token (`ahp_…`, decision 020), which
// signs in as its user for the reads api-tokens/api-token-scope.ts allows and answers 403 to everything else.
import type { FastifyRequest } from 'fastify';
import { API_TOKEN_PATTERN } from '#contract/api-tokens.ts';
import { AppError } from '../lib/app-error.ts';
import type { AccountsService } from '../modules/accounts/accounts.service.ts';
import type { SessionContext, UserRow } from '../modules/accounts/accounts.repository.ts';
import type { ApiTokensService } from '../modules/api-tokens/api-tokens.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: SessionContext;
  }
}

const MAX_AUTHORIZATION_LENGTH = 200;

/** The token from `Authorization: Bearer <token>`; never from the query string (RFC 6750 §2.3). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const match = /^Bearer ([^\s]+)$/.exec(header);
  return match?.[1];
}

export function createRequireUser(accounts: AccountsService, apiTokens: Pick<ApiTokensService, 'authenticate'>) {
  return async function requireUser(request: FastifyRequest) {
    // Already signed in by the access gate (a premium route that lists requireUser too): once per request, so a
    // personal token's request counts once against its rate limit.
    if (request.auth) return;
    const token = bearerToken(request);
    // Session tokens are `<id>.<secret>`: the dot keeps them from ever matching a personal token's pattern.
    if (token && API_TOKEN_PATTERN.test(token)) {
      // Decided on the route pattern, not the URL: what the route is, whatever its parameters say.
      request.auth = await apiTokens.authenticate(token, { method: request.method, routePattern: request.routeOptions.url });
      return;
    }
    const auth = token ? await accounts.authenticate(token) : undefined;
    if (!auth) throw new AppError('unauthorized', 'Authentication required. Please sign in.');
    request.auth = auth;
  };
}

export function currentUser(request: FastifyRequest): UserRow {
  return currentSession(request).user;
}

/** The caller's whole session context: user, subscription and platform data fingerprint. */
export function currentSession(request: FastifyRequest): SessionContext {
  if (!request.auth) throw new AppError('unauthorized', 'Authentication required. Please sign in.');
  return request.auth;
}
