// LinkedIn (docs/platforms/linkedin.md): a Community Management app, so the member is identified by `/v2/me` under
// `r_basicprofile` and not by OIDC (the two products cannot share an app; corrections rows 1–2). No PKCE for web
// apps, credentials in the body (no Basic). Refresh tokens exist only for partner-approved apps; without one, a
// connection needs the user again when its 60-day token ends.
import { apiError, buildUrl, callPlatform, parseBody } from './http-client.ts';
import { AUTHORIZE_URL, FOLLOWERS_URL, followersNowBody, LINKEDIN_SCOPES, ME_PROJECTION, ME_URL, meBody, pictureUrl, SIGN_IN_SCOPES, TOKEN_URL, versionedHeaders } from './linkedin-api.ts';
import { sendVersioned } from './linkedin-version.ts';
import { DEAD_GRANT_ERRORS, requestTokens, standardRefresh } from './oauth-tokens.ts';
import { grantedScopes, hasScope, type Provider } from './provider.ts';

export { LINKEDIN_SCOPES } from './linkedin-api.ts';

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const linkedin: Omit<Provider, 'sync'> = {
  platform: 'linkedin',
  // Refresh tokens only for partners LinkedIn approves: a 60-day token without one is normal.
  issuesRefreshToken: false,
  pkce: () => null,
  ...standardRefresh,

  // A grant made under Sign In with LinkedIn (`openid`), before the app became Community Management only: its
  // stored id is an OIDC `sub`, which nothing this app may call can read again.
  supersededGrant: {
    matches: (scope) => SIGN_IN_SCOPES.some((signIn) => grantedScopes(scope)?.has(signIn) ?? false),
    reconnectMessage: 'LinkedIn now connects through its Community Management product only: connect LinkedIn again once to keep syncing. Your history is kept.',
  },

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

  async profile(context, accessToken, grantedScope) {
    // The projection's parentheses must reach LinkedIn unencoded (Rest.li syntax).
    const identity = await callPlatform(context, { platform: 'linkedin', operation: 'profile', url: `${ME_URL}?projection=${ME_PROJECTION}`, headers: { authorization: `Bearer ${accessToken}` } });
    if (identity.status !== 200) throw apiError(identity, 'linkedin', 'profile');
    const member = parseBody(meBody, identity, 'linkedin', 'profile');
    let followers: number | null = null;
    if (hasScope(grantedScope, 'r_member_profileAnalytics')) {
      const answer = await sendVersioned(context, (version) =>
        callPlatform(context, { platform: 'linkedin', operation: 'profile', url: buildUrl(FOLLOWERS_URL, { q: 'me' }), headers: versionedHeaders(accessToken, version) }),
      );
      if (answer.status !== 200) throw apiError(answer, 'linkedin', 'profile');
      followers = parseBody(followersNowBody, answer, 'linkedin', 'profile').elements[0]?.memberFollowersCount ?? null;
    }
    // The name shown: the localized first and last name, else the vanity name (the public profile's /in/ path).
    const name = [member.localizedFirstName, member.localizedLastName].filter((part) => part && part.trim() !== '').join(' ');
    return { id: member.id, username: member.vanityName ?? null, displayName: name || member.vanityName || null, followers, avatarUrl: pictureUrl(member) };
  },
};
