// Personal API tokens (decision 020): created, listed and revoked from Settings with a session; used as read-only
// bearer credentials by the user's scripts, under their own rate limit and the same access rules as a session.
import type { FastifyBaseLogger } from 'fastify';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, type ApiToken, type CreatedApiToken, MAX_API_TOKENS_PER_USER } from '#contract/api-tokens.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import type { SessionContext } from '../accounts/accounts.repository.ts';
import { API_TOKEN_REFUSALS, apiTokenRefusal } from './api-token-scope.ts';
import type { ApiTokensRepository } from './api-tokens.repository.ts';

/** last_used_at is written at most this often per token: a script's burst costs one write, not one per request. */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000;
/** Characters of the secret kept in clear after `ahp_`, to recognise a token in the list. */
const VISIBLE_SECRET_CHARACTERS = 8;

export interface ApiTokensServiceDeps {
  repository: ApiTokensRepository;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Requests one token may make per window (config API_TOKEN_RATE_LIMIT, API_TOKEN_RATE_WINDOW_SECONDS). */
  rateLimit: { limit: number; windowMs: number };
}

const UNAUTHORIZED = 'Authentication required. Please sign in.';

export function createApiTokensService({ repository, rateLimiter, clock, logger, rateLimit }: ApiTokensServiceDeps) {
  const toApiToken = (row: { id: number; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }): ApiToken => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  });

  async function list(userId: number): Promise<ApiToken[]> {
    return (await repository.listLive(userId)).map(toApiToken);
  }

  /** Makes a token; the answer is the only time it is ever shown. */
  async function create(userId: number, { name }: { name: string }): Promise<CreatedApiToken> {
    const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const row = await repository.insertWithinLimit(
      { userId, name, tokenHash: sha256(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + VISIBLE_SECRET_CHARACTERS), createdAt: clock.now() },
      MAX_API_TOKENS_PER_USER,
    );
    if (!row) {
      throw new AppError('conflict', `You already have ${MAX_API_TOKENS_PER_USER} API tokens, the most an account can hold. Revoke one you no longer use first.`);
    }
    logger.info({ event: 'api_token.created', userId, tokenId: row.id }, 'personal API token created');
    return { apiToken: toApiToken(row), token, message: 'Copy your token now: it will not be shown again.' };
  }

  async function revoke(userId: number, tokenId: number) {
    if (!(await repository.revokeOfUser(userId, tokenId, clock.now()))) throw new AppError('not_found', 'That API token does not exist or was already revoked.');
    logger.info({ event: 'api_token.revoked', userId, tokenId }, 'personal API token revoked');
    return { message: 'The token is revoked: it no longer works.' };
  }

  /**
   * Signs a request in with a personal token, or refuses it: 401 for an unknown or revoked token (as a bad session),
   * 429 past the token's rate limit, 403 for anything but a read of the routes in api-token-scope.ts.
   */
  async function authenticate(token: string, request: { method: string; routePattern: string | undefined }): Promise<SessionContext> {
    const found = API_TOKEN_PATTERN.test(token) ? await repository.findContextByHash(sha256(token)) : undefined;
    if (!found || found.token.revokedAt) throw new AppError('unauthorized', UNAUTHORIZED);
    const tokenId = found.token.id;
    const decision = await rateLimiter.hit(`api-token:${tokenId}`, rateLimit.limit, rateLimit.windowMs);
    if (!decision.allowed) {
      logger.warn({ event: 'api_token.rate_limited', userId: found.user.id, tokenId }, 'personal API token rate limited');
      throw new AppError('rate_limited', `This API token made more than ${rateLimit.limit} requests in ${Math.round(rateLimit.windowMs / 60_000)} minutes. Wait and try again.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
        details: { retryAfter: decision.retryAfterSeconds },
      });
    }
    const now = clock.now();
    if (!found.token.lastUsedAt || now.getTime() - found.token.lastUsedAt.getTime() >= API_TOKEN_TOUCH_INTERVAL_MS) await repository.touch(tokenId, now);
    const refusal = apiTokenRefusal(request.method, request.routePattern);
    // The code names the refusal (the body's `code`), so a script can tell it from a missing subscription or a 403 of another kind.
    if (refusal) throw new AppError('forbidden', API_TOKEN_REFUSALS[refusal], { details: { code: refusal } });
    // A session id no session can have (those are 22 base64url characters): nothing keyed on it ever matches a session.
    return { sessionId: `api-token:${tokenId}`, apiTokenId: tokenId, user: found.user, subscription: found.subscription, dataFingerprint: found.dataFingerprint };
  }

  return { list, create, revoke, authenticate };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
