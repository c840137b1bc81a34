// X API v2 with OAuth 2.0 Authorization Code and PKCE (docs/platforms/x.md#oauth, 4.2, 4.5): PKCE is mandatory,
// a confidential client authenticates with HTTP Basic, `offline.access` is what yields a refresh token, and a
// refresh answers with a new refresh token that replaces the old one.
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody } from './http-client.ts';
import { basicAuthTokenGrants, basicAuthorization, DEAD_GRANT_ERRORS, standardRefresh } from './oauth-tokens.ts';
import { PlatformError } from './platform-error.ts';
import { type PlatformProfile, type Provider } from './provider.ts';

const AUTHORIZE_URL = 'https://x.com/i/oauth2/authorize';
const TOKEN_URL = 'https://api.x.com/2/oauth2/token';
const REVOKE_URL = 'https://api.x.com/2/oauth2/revoke';
const ME_URL = 'https://api.x.com/2/users/me';
const BY_USERNAME_URL = 'https://api.x.com/2/users/by/username/';
/** users/me needs tweet.read and users.read; offline.access brings the refresh token. */
export const TWITTER_SCOPES = ['tweet.read', 'users.read', 'offline.access'];
const USER_FIELDS = 'profile_image_url,public_metrics';

const userBody = z.looseObject({
  data: z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    username: z.string(),
    profile_image_url: z.string().optional(),
    public_metrics: z.looseObject({ followers_count: count }).optional(),
  }),
});

function toProfile(user: z.infer<typeof userBody>['data']): PlatformProfile {
  return { id: user.id, username: user.username, displayName: user.name, followers: user.public_metrics?.followers_count ?? null, avatarUrl: user.profile_image_url ?? null };
}

/** `@name`, `name`, or an x.com / twitter.com profile URL. */
export function parseTwitterUsername(input: string): string | undefined {
  let value = input.trim();
  const url = /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/([^/?#]+)/i.exec(value);
  if (url) value = url[1]!;
  return /^@?([A-Za-z0-9_]{1,15})$/.exec(value)?.[1];
}

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const twitter: Omit<Provider, 'sync'> = {
  platform: 'twitter',
  // offline.access is always asked for, so a grant without a refresh token is broken.
  issuesRefreshToken: true,
  pkce: () => 'base64url',
  ...standardRefresh,

  authorizeUrl(context, { state, codeChallenge }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      response_type: 'code',
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      scope: TWITTER_SCOPES.join(' '),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
  },

  // X answers invalid_request for a dead code or refresh token (docs/platforms/x.md#oauth).
  ...basicAuthTokenGrants('twitter', TOKEN_URL, DEAD_GRANT_ERRORS.invalidRequestToo),

  async profile(context, accessToken) {
    const response = await callPlatform(context, {
      platform: 'twitter',
      operation: 'profile',
      url: buildUrl(ME_URL, { 'user.fields': USER_FIELDS }),
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (response.status !== 200) throw apiError(response, 'twitter', 'profile');
    return toProfile(parseBody(userBody, response, 'twitter', 'profile').data);
  },

  // Revoking the refresh token (where there is one) ends the grant; otherwise the access token.
  async revoke(context, tokens) {
    const response = await callPlatform(context, {
      platform: 'twitter',
      operation: 'revoke',
      method: 'POST',
      url: REVOKE_URL,
      headers: { authorization: basicAuthorization(context.clientId, context.clientSecret) },
      form: tokens.refreshToken
        ? { token: tokens.refreshToken, token_type_hint: 'refresh_token' }
        : { token: tokens.accessToken, token_type_hint: 'access_token' },
    });
    if (response.status !== 200) throw apiError(response, 'twitter', 'revoke');
  },

  async lookupPublicProfile(context, handleOrUrl) {
    const username = parseTwitterUsername(handleOrUrl);
    if (!username) throw new PlatformError('not_found', 'twitter', 'lookup', 'Not an X username or profile URL');
    const bearer = context.appKeys.twitterBearerToken;
    if (!bearer) throw new PlatformError('unavailable', 'twitter', 'lookup', 'No X app bearer token is configured');
    const response = await callPlatform(context, {
      platform: 'twitter',
      operation: 'lookup',
      url: buildUrl(`${BY_USERNAME_URL}${encodeURIComponent(username)}`, { 'user.fields': USER_FIELDS }),
      headers: { authorization: `Bearer ${bearer}` },
    });
    if (response.status !== 200) throw apiError(response, 'twitter', 'lookup');
    // X answers 200 with an `errors` array and no `data` for an unknown username.
    const body = response.body as { data?: unknown } | undefined;
    if (!body || body.data === undefined) throw new PlatformError('not_found', 'twitter', 'lookup', 'No X account with that username');
    return toProfile(parseBody(userBody, response, 'twitter', 'lookup').data);
  },
};
