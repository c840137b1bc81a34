// LinkedIn (docs/platforms/linkedin.md, 5.5): no PKCE for web apps, credentials in the body (no Basic), the OIDC
// userinfo for identity, and the versioned REST API for the follower count. Refresh tokens exist only for
// partner-approved apps; without one, a connection needs the user again when its 60-day token ends.
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody } from './http-client.ts';
import { DEAD_GRANT_ERRORS, requestTokens, standardRefresh } from './oauth-tokens.ts';
import { type Provider } from './provider.ts';
import { sendVersioned } from './linkedin-version.ts';

const AUTHORIZE_URL = 'https://www.linkedin.com/oauth/v2/authorization';
const TOKEN_URL = 'https://www.linkedin.com/oauth/v2/accessToken';
const USERINFO_URL = 'https://api.linkedin.com/v2/userinfo';
const FOLLOWERS_URL = 'https://api.linkedin.com/rest/memberFollowersCount';
/** Sign-in (id, name, picture) and the member's own follower and post analytics. */
export const LINKEDIN_SCOPES = ['openid', 'profile', 'r_member_profileAnalytics', 'r_member_postAnalytics'];

const userinfoBody = z.looseObject({ sub: z.string().min(1), name: z.string().optional(), picture: z.string().optional() });
const followersBody = z.looseObject({ elements: z.array(z.looseObject({ memberFollowersCount: count })) });

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const linkedin: Omit<Provider, 'sync'> = {
  platform: 'linkedin',
  // Refresh tokens only for partners LinkedIn approves: a 60-day token without one is normal.
  issuesRefreshToken: false,
  pkce: () => null,
  ...standardRefresh,

  authorizeUrl(context, { state }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      response_type: 'code',
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      state,
      scope: LINKEDIN_SCOPES.join(' '),
    });
  },

  exchangeCode(context, { code }) {
    return requestTokens(context, {
      platform: 'linkedin',
      operation: 'token',
      url: TOKEN_URL,
      form: { grant_type: 'authorization_code', code, redirect_uri: context.redirectUri, client_id: context.clientId, client_secret: context.clientSecret },
      // LinkedIn answers invalid_request for a dead or used code (docs/platforms/linkedin.md#oauth).
      deadGrantErrors: DEAD_GRANT_ERRORS.invalidRequestToo,
    });
  },

  refresh(context, tokens) {
    return requestTokens(context, {
      platform: 'linkedin',
      operation: 'refresh',
      url: TOKEN_URL,
      form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken ?? undefined, client_id: context.clientId, client_secret: context.clientSecret },
      deadGrantErrors: DEAD_GRANT_ERRORS.invalidRequestToo,
    });
  },

  async profile(context, accessToken) {
    const authorization = `Bearer ${accessToken}`;
    const identity = await callPlatform(context, { platform: 'linkedin', operation: 'profile', url: USERINFO_URL, headers: { authorization } });
    if (identity.status !== 200) throw apiError(identity, 'linkedin', 'profile');
    const user = parseBody(userinfoBody, identity, 'linkedin', 'profile');
    const followers = await sendVersioned(context, (version) =>
      callPlatform(context, {
        platform: 'linkedin',
        operation: 'profile',
        url: buildUrl(FOLLOWERS_URL, { q: 'me' }),
        headers: { authorization, 'LinkedIn-Version': version, 'X-Restli-Protocol-Version': '2.0.0' },
      }),
    );
    if (followers.status !== 200) throw apiError(followers, 'linkedin', 'profile');
    const followerCount = parseBody(followersBody, followers, 'linkedin', 'profile').elements[0]?.memberFollowersCount ?? null;
    // OIDC has no public username: the member id stands in where the spec shows "@username or platform user id".
    return { id: user.sub, username: null, displayName: user.name ?? null, followers: followerCount, avatarUrl: user.picture ?? null };
  },
};
