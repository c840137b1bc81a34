// TikTok Login Kit and Display API v2 (docs/platforms/tiktok.md#oauth, 3.2, 3.4): `client_key` instead of client_id,
// comma-separated scopes, PKCE as TikTok verifies it (below), credentials in the body, and refresh tokens that rotate
// on every refresh.
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody } from './http-client.ts';
import { requestTokens, standardRefresh } from './oauth-tokens.ts';
import { PlatformError } from './platform-error.ts';
import { hasScope, type OptionalScope, type Provider } from './provider.ts';

const AUTHORIZE_URL = 'https://www.tiktok.com/v2/auth/authorize/';
const TOKEN_URL = 'https://open.tiktokapis.com/v2/oauth/token/';
const REVOKE_URL = 'https://open.tiktokapis.com/v2/oauth/revoke/';
const USER_INFO_URL = 'https://open.tiktokapis.com/v2/user/info/';
export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list'];
/**
 * TikTok's consent page lets the user untick every scope but user.info.basic; each user-info field needs its
 * scope, and asking for one outside the grant fails the whole call (scope_not_authorized).
 */
export const TIKTOK_OPTIONAL_SCOPES: readonly OptionalScope[] = [
  { scope: 'user.info.profile', label: 'Read your profile details', provides: ['username'] },
  { scope: 'user.info.stats', label: 'Read your profile statistics', provides: ['followers'] },
  { scope: 'video.list', label: 'Read your public videos', provides: ['videos', 'views', 'likes', 'comments', 'shares'] },
];
const BASIC_FIELDS = ['open_id', 'union_id', 'avatar_url', 'display_name'];

/** The user-info fields this grant may ask for (every field when the grant is unknown). */
function userFields(grantedScope: string | null | undefined): string {
  return [
    ...BASIC_FIELDS,
    ...(hasScope(grantedScope, 'user.info.profile') ? ['username'] : []),
    ...(hasScope(grantedScope, 'user.info.stats') ? ['follower_count'] : []),
  ].join(',');
}

const userInfoBody = z.looseObject({
  data: z.looseObject({
    user: z.looseObject({
      open_id: z.string().min(1),
      display_name: z.string().optional(),
      username: z.string().optional(),
      avatar_url: z.string().optional(),
      follower_count: count.optional(),
    }),
  }),
  error: z.looseObject({ code: z.string() }).optional(),
});
const errorEnvelope = z.looseObject({ error: z.looseObject({ code: z.string() }) });

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const tiktok: Omit<Provider, 'sync'> = {
  platform: 'tiktok',
  issuesRefreshToken: true,
  // TikTok's code_verifier is "Required for mobile and desktop app only": a web app's https redirect sends no PKCE,
  // while a localhost/127.0.0.1 redirect (a desktop-type app, as in development) is refused without a challenge.
  // TikTok checks the lower-case hex of SHA-256 of the verifier, not RFC 7636 base64url (docs/platforms/tiktok.md#pkce).
  pkce: (redirectUri) => (new URL(redirectUri).protocol === 'https:' ? null : 'hex'),
  optionalScopes: TIKTOK_OPTIONAL_SCOPES,
  ...standardRefresh,

  authorizeUrl(context, { state, codeChallenge }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      client_key: context.clientId,
      response_type: 'code',
      scope: TIKTOK_SCOPES.join(','),
      redirect_uri: context.redirectUri,
      state,
      ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}),
    });
  },

  exchangeCode(context, { code, codeVerifier }) {
    return requestTokens(context, {
      platform: 'tiktok',
      operation: 'token',
      url: TOKEN_URL,
      form: {
        client_key: context.clientId,
        client_secret: context.clientSecret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: context.redirectUri,
        code_verifier: codeVerifier,
      },
    });
  },

  // The answer carries a new refresh token and the old one stops working: the caller stores it.
  refresh(context, tokens) {
    return requestTokens(context, {
      platform: 'tiktok',
      operation: 'refresh',
      url: TOKEN_URL,
      form: { client_key: context.clientId, client_secret: context.clientSecret, grant_type: 'refresh_token', refresh_token: tokens.refreshToken ?? undefined },
    });
  },

  async profile(context, accessToken, grantedScope) {
    const response = await callPlatform(context, {
      platform: 'tiktok',
      operation: 'profile',
      url: buildUrl(USER_INFO_URL, { fields: userFields(grantedScope) }),
      headers: { authorization: `Bearer ${accessToken}` },
    });
    // Success still carries an error object, with code "ok".
    const envelope = errorEnvelope.safeParse(response.body);
    const errorCode = envelope.success ? envelope.data.error.code : undefined;
    if (response.status !== 200 || (errorCode !== undefined && errorCode !== 'ok')) {
      if (errorCode === 'access_token_invalid') throw new PlatformError('unauthorized', 'tiktok', 'profile', 'TikTok refused the access token', { status: response.status, errorCode });
      if (errorCode === 'rate_limit_exceeded') throw new PlatformError('rate_limited', 'tiktok', 'profile', 'TikTok is rate limiting us', { status: response.status, errorCode });
      throw apiError(response, 'tiktok', 'profile', errorCode);
    }
    const user = parseBody(userInfoBody, response, 'tiktok', 'profile').data.user;
    return {
      id: user.open_id,
      username: user.username ?? null,
      displayName: user.display_name ?? null,
      followers: user.follower_count ?? null,
      avatarUrl: user.avatar_url ?? null,
    };
  },

  async revoke(context, tokens) {
    const response = await callPlatform(context, {
      platform: 'tiktok',
      operation: 'revoke',
      method: 'POST',
      url: REVOKE_URL,
      form: { client_key: context.clientId, client_secret: context.clientSecret, token: tokens.accessToken },
    });
    if (response.status !== 200) throw apiError(response, 'tiktok', 'revoke');
  },
};
