// Bearer-session authentication: routes that need a user list `requireUser` as a preHandler and read
// the result with `currentUser(request)`.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { AccountsService } from '../modules/accounts/accounts.service.ts';
import type { SessionContext, UserRow } from '../modules/accounts/accounts.repository.ts';

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

export function createRequireUser(accounts: AccountsService) {
  return async function requireUser(request: FastifyRequest) {
    const token = bearerToken(request);
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
