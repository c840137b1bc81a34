// OAuth 2.0 token endpoints (RFC 6749): the standard code exchange and refresh, their answers and their errors.
import { z } from 'zod';
import type { PlatformName } from '#contract/platforms.ts';
import { callPlatform, parseBody, type PlatformRequest, type PlatformResponse } from './http-client.ts';
import { retryAfterSeconds } from './http-date.ts';
import { PlatformError } from './platform-error.ts';
import type { Provider, ProviderContext, StoredTokens, TokenSet } from './provider.ts';

export const basicAuthorization = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;

/** RFC 6749 §5.2 error body (Google, TikTok, X, LinkedIn, Patreon token endpoints). */
export const oauthErrorBody = z.looseObject({ error: z.string(), error_description: z.string().optional() });

/** Standard token response (RFC 6749 §5.1); `expires_in` sometimes arrives as a string. */
export const oauthTokenBody = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

/**
 * The error for a non-2xx answer of an OAuth token endpoint. `invalid_grant` (the code or refresh token is
 * not valid, or not for this client/verifier) is the user's to fix; everything else is the platform's problem.
 */
/**
 * The token-endpoint error codes that mean the code or refresh token is dead (the user's to fix by connecting
 * again). RFC 6749 says `invalid_grant`; X and LinkedIn answer `invalid_request` for a dead, used or mismatched code
 * and X for a dead refresh token too (docs/platforms/x.md#oauth, docs/platforms/linkedin.md#oauth). Our requests
 * always carry every parameter, so there it can mean nothing else.
 */
export const DEAD_GRANT_ERRORS: Readonly<Record<'rfc6749' | 'invalidRequestToo', readonly string[]>> = {
  rfc6749: ['invalid_grant'],
  invalidRequestToo: ['invalid_grant', 'invalid_request'],
};

export function tokenEndpointError(response: PlatformResponse, platform: PlatformName, operation: string, deadGrantErrors: readonly string[] = DEAD_GRANT_ERRORS.rfc6749): PlatformError {
  const parsed = oauthErrorBody.safeParse(response.body);
  const errorCode = parsed.success ? parsed.data.error : undefined;
  const details = { status: response.status, errorCode, retryAfterSeconds: retryAfterSeconds(response) };
  if (response.status === 429) return new PlatformError('rate_limited', platform, operation, 'The platform is rate limiting us', details);
  if (errorCode !== undefined && deadGrantErrors.includes(errorCode)) return new PlatformError('invalid_grant', platform, operation, 'The platform refused the authorization grant', details);
  return new PlatformError('unavailable', platform, operation, 'The platform refused the token request', details);
}

/** A standard authorization-code or refresh-token call to an RFC 6749 token endpoint. */
export async function requestTokens(
  context: ProviderContext,
  request: Omit<PlatformRequest, 'method'> & { form: Record<string, string | undefined>; deadGrantErrors?: readonly string[] },
): Promise<TokenSet> {
  const { deadGrantErrors, ...call } = request;
  const response = await callPlatform(context, { ...call, method: 'POST' });
  if (response.status < 200 || response.status >= 300) throw tokenEndpointError(response, request.platform, request.operation, deadGrantErrors);
  // Some token endpoints answer 200 with an error body (TikTok has been seen doing it).
  if (oauthErrorBody.safeParse(response.body).success && !oauthTokenBody.safeParse(response.body).success) {
    throw tokenEndpointError({ ...response, status: 400 }, request.platform, request.operation, deadGrantErrors);
  }
  const body = parseBody(oauthTokenBody, response, request.platform, request.operation);
  return toTokenSet(body, context.now());
}

export function toTokenSet(body: z.infer<typeof oauthTokenBody>, now: Date): TokenSet {
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: body.expires_in !== undefined ? new Date(now.getTime() + body.expires_in * 1000) : undefined,
    scope: body.scope,
  };
}

/** Default: renew a minute before expiry, when there is a refresh token. */
export const standardRefresh = {
  refreshAheadMs: 60_000,
  canRefresh: (tokens: StoredTokens) => tokens.refreshToken !== null,
};

/**
 * Code exchange and refresh for platforms whose confidential clients authenticate with HTTP Basic at the
 * token endpoint (Google, X). A refresh answer without a refresh token keeps the stored one (the caller).
 */
export function basicAuthTokenGrants(platform: PlatformName, tokenUrl: string, deadGrantErrors: readonly string[] = DEAD_GRANT_ERRORS.rfc6749): Pick<Provider, 'exchangeCode' | 'refresh'> {
  const post = (context: ProviderContext, operation: 'token' | 'refresh', form: Record<string, string | undefined>) =>
    requestTokens(context, {
      platform,
      operation,
      url: tokenUrl,
      headers: { authorization: basicAuthorization(context.clientId, context.clientSecret) },
      form,
      deadGrantErrors,
    });
  return {
    exchangeCode: (context, { code, codeVerifier }) =>
      post(context, 'token', { grant_type: 'authorization_code', code, redirect_uri: context.redirectUri, code_verifier: codeVerifier }),
    refresh: (context, tokens) => post(context, 'refresh', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken ?? undefined }),
  };
}
