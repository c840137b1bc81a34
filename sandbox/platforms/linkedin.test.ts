// LinkedIn: one product set per app (corrections rows 1–2, rules 1–4), body-only client credentials, 60-day tokens
// without refresh, /v2/me under Community Management and OIDC userinfo under Sign In, the versioned follower count.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, bearer, callbackParams, DAY, get, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const REDIRECT_URI = redirectUriFor('linkedin');
const VERSION = { 'linkedin-version': '202605', 'x-restli-protocol-version': '2.0.0' };
const UNABLE = 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';
const COMMUNITY_MANAGEMENT = 'r_basicprofile r_member_profileAnalytics r_member_postAnalytics';

const tokenUrl = () => context.sandbox.url('https://www.linkedin.com/oauth/v2/accessToken');
const userinfoUrl = () => context.sandbox.url('https://api.linkedin.com/v2/userinfo');
const meUrl = (query = '') => context.sandbox.url(`https://api.linkedin.com/v2/me${query}`);
const followersUrl = (query = 'q=me') => context.sandbox.url(`https://api.linkedin.com/rest/memberFollowersCount?${query}`);

const authorizeFor = (scope: string, sandbox = context.sandbox) =>
  authorizeUrl(sandbox, 'https://www.linkedin.com/oauth/v2/authorization', {
    response_type: 'code',
    client_id: sandbox.credentials.linkedin.clientId,
    redirect_uri: REDIRECT_URI,
    state: 'li-state',
    scope,
  });

async function codeFor(options: { account?: number; scope?: string } = {}) {
  const callback = callbackParams((await context.sandbox.authorize(authorizeFor(options.scope ?? 'r_basicprofile r_member_profileAnalytics'), { account: options.account ?? 0 })).redirectUrl);
  expect(callback.get('state')).toBe('li-state');
  return callback.get('code')!;
}

const exchange = (code: string, overrides: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  postForm(
    tokenUrl(),
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: context.sandbox.credentials.linkedin.clientId, client_secret: context.sandbox.credentials.linkedin.clientSecret, ...overrides },
    headers,
  );

async function accessToken(options: Parameters<typeof codeFor>[0] = {}) {
  const token = await exchange(await codeFor(options));
  expect(token.status).toBe(200);
  return token.body.access_token as string;
}

describe('LinkedIn', () => {
  it('authorizes on a Community Management app, exchanges with body credentials and reads /v2/me and the follower count', async () => {
    const { sandbox } = context;
    const token = await exchange(await codeFor({ account: 2 }));
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ access_token: expect.stringMatching(/^AQVsbx/), expires_in: 5184000, scope: 'r_basicprofile,r_member_profileAnalytics', token_type: 'Bearer' });

    const demo = sandbox.accounts.linkedin[2]!;
    // Rule 3: the Basic Profile fields, as the profile API reference and the captured answer list them.
    const me = await get(meUrl(), bearer(token.body.access_token));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: demo.id,
      localizedFirstName: 'Ivy',
      localizedLastName: 'Chen',
      localizedHeadline: expect.any(String),
      vanityName: demo.username,
      firstName: { localized: { en_GB: 'Ivy' }, preferredLocale: { country: 'GB', language: 'en' } },
      lastName: { localized: { en_GB: 'Chen' }, preferredLocale: { country: 'GB', language: 'en' } },
      headline: { localized: { en_GB: me.body.localizedHeadline }, preferredLocale: { country: 'GB', language: 'en' } },
      profilePicture: { displayImage: expect.stringMatching(/^urn:li:digitalmediaAsset:/) },
    });

    const followers = await get(followersUrl(), { ...bearer(token.body.access_token), ...VERSION });
    expect(followers).toMatchObject({ status: 200, body: { elements: [{ memberFollowersCount: demo.followers }], paging: { count: 10, start: 0, links: [] } } });
    expect(sandbox.countCalls('linkedin', 'followers')).toBe(1);
  });

  it('rule 1: a Community Management app refuses openid, profile and email with unauthorized_scope_error and no code (Postiz PR #1658)', async () => {
    for (const [scope, named] of [
      [`openid profile ${COMMUNITY_MANAGEMENT}`, 'openid'],
      [`${COMMUNITY_MANAGEMENT} profile`, 'profile'],
      ['r_basicprofile,email', 'email'],
    ] as const) {
      const { redirectUrl } = await context.sandbox.authorize(authorizeFor(scope));
      expect(redirectUrl.startsWith(REDIRECT_URI), scope).toBe(true);
      expect(Object.fromEntries(callbackParams(redirectUrl)), scope).toEqual({
        error: 'unauthorized_scope_error',
        error_description: `Scope "${named}" is not authorized for your application`,
        state: 'li-state',
      });
    }
    expect(context.sandbox.countCalls('linkedin', 'consent')).toBe(0);
  });

  it('rule 2: a Sign In with LinkedIn app refuses the Community Management scopes, naming the first, and serves userinfo', async () => {
    context.sandbox.linkedin.appProducts = 'sign_in_with_linkedin';
    for (const [scope, named] of [
      ['openid profile r_member_postAnalytics r_basicprofile', 'r_member_postAnalytics'],
      ['openid r_member_profileAnalytics', 'r_member_profileAnalytics'],
      ['r_basicprofile', 'r_basicprofile'],
    ] as const) {
      const { redirectUrl } = await context.sandbox.authorize(authorizeFor(scope));
      expect(Object.fromEntries(callbackParams(redirectUrl)), scope).toEqual({ error: 'unauthorized_scope_error', error_description: `Scope "${named}" is not authorized for your application`, state: 'li-state' });
    }
    const token = await accessToken({ scope: 'openid profile email', account: 2 });
    const userinfo = await get(userinfoUrl(), bearer(token));
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toEqual({
      sub: expect.stringMatching(/^[A-Za-z0-9_-]{10}$/),
      name: 'Ivy Chen',
      given_name: 'Ivy',
      family_name: 'Chen',
      picture: expect.stringContaining('/media.licdn.com/'),
      locale: { country: 'GB', language: 'en' },
      email: 'ivy.chen@example.com',
      email_verified: true,
    });
    // The OIDC sub is not the Community Management app's /v2/me id (corrections row 2: their equality is unverified).
    expect(userinfo.body.sub).not.toBe(context.sandbox.accounts.linkedin[2]!.id);
    // No r_basicprofile on this app: /v2/me is refused.
    expect(await get(meUrl(), bearer(token))).toMatchObject({ status: 403, body: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED' } });
  });

  it('rule 3: /v2/me needs r_basicprofile and ignores LinkedIn-Version; userinfo needs openid (403 ACCESS_DENIED)', async () => {
    const token = await accessToken({ scope: 'r_member_profileAnalytics' });
    expect(await get(meUrl(), bearer(token))).toMatchObject({ status: 403, body: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: me.GET.NO_VERSION' } });
    expect(await get(userinfoUrl(), bearer(token))).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', message: 'Not enough permissions to access: userinfo.GET.NO_VERSION' } });
    const profileToken = await accessToken({ scope: 'r_basicprofile' });
    // The unversioned v2 surface: no version, an inactive one or a malformed one make no difference.
    for (const headers of [{}, { 'linkedin-version': '202001' }, { 'linkedin-version': 'nonsense' }] as Record<string, string>[]) {
      expect((await get(meUrl(), { ...bearer(profileToken), ...headers })).status).toBe(200);
    }
  });

  it('rule 3: the picture URL comes only with the profilePicture(displayImage~:playableStreams) projection, which keeps only the named fields', async () => {
    const token = await accessToken({ scope: 'r_basicprofile', account: 1 });
    const projected = await get(meUrl('?projection=(id,localizedFirstName,vanityName,profilePicture(displayImage~:playableStreams))'), bearer(token));
    expect(projected.status).toBe(200);
    expect(Object.keys(projected.body).sort()).toEqual(['id', 'localizedFirstName', 'profilePicture', 'vanityName']);
    const elements = projected.body.profilePicture['displayImage~'].elements;
    expect(elements.map((element: any) => element.data['com.linkedin.digitalmedia.mediaartifact.StillImage'].storageSize.width)).toEqual([100, 400]);
    expect(elements[1].identifiers[0]).toMatchObject({ identifier: expect.stringContaining('/media.licdn.com/'), identifierType: 'EXTERNAL_URL' });
    const plain = await get(meUrl('?projection=(id,profilePicture)'), bearer(token));
    expect(plain.body).toEqual({ id: context.sandbox.accounts.linkedin[1]!.id, profilePicture: { displayImage: expect.stringMatching(/^urn:li:digitalmediaAsset:/) } });
    expect((await get(meUrl('?projection=(id,profilePicture(displayImage~'), bearer(token))).status).toBe(400);
  });

  it('rule 4: one member has a different /v2/me id on another app', async () => {
    const other = await startTestSandbox();
    try {
      const here = await get(meUrl(), bearer(await accessToken({ scope: 'r_basicprofile' })));
      const code = callbackParams((await other.sandbox.authorize(authorizeFor('r_basicprofile', other.sandbox))).redirectUrl).get('code')!;
      const { clientId, clientSecret } = other.sandbox.credentials.linkedin;
      const token = await postForm(other.sandbox.url('https://www.linkedin.com/oauth/v2/accessToken'), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, client_secret: clientSecret });
      const there = await get(other.sandbox.url('https://api.linkedin.com/v2/me'), bearer(token.body.access_token));
      expect(there.body.localizedFirstName).toBe(here.body.localizedFirstName);
      expect(there.body.id).not.toBe(here.body.id);
    } finally {
      await other.close();
    }
  });

  it('accepts comma-separated scopes and leaves out what was not granted', async () => {
    const token = await accessToken({ scope: 'r_basicprofile,r_member_postAnalytics' });
    expect((await get(meUrl(), bearer(token))).body.localizedFirstName).toBe('Maya');
    // No r_member_profileAnalytics: no follower count.
    expect(await get(followersUrl(), { ...bearer(token), ...VERSION })).toMatchObject({ status: 403, body: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED' } });
  });

  it('gives the same token error for wrong redirect URIs, reused codes and unknown codes; 401 for client errors', async () => {
    const { sandbox } = context;
    const code = await codeFor();
    expect(await exchange(code, { redirect_uri: 'http://localhost:9999/auth/linkedin/callback' })).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: UNABLE } });
    expect(await exchange(code, { client_secret: 'WPL_AP1.wrong' })).toMatchObject({ status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } });
    // HTTP Basic is not read: the body must carry the credentials.
    const basicOnly = await postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, basicAuth(sandbox.credentials.linkedin.clientId, sandbox.credentials.linkedin.clientSecret));
    expect(basicOnly).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'A required parameter "client_id" is missing' } });

    expect((await exchange(code)).status).toBe(200);
    expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: UNABLE } });
    expect(await exchange('AQTmadeup')).toMatchObject({ status: 400, body: { error_description: UNABLE } });
    expect(await exchange(code, { grant_type: 'refresh_token', refresh_token: 'x' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('expires tokens after 60 days with EXPIRED_ACCESS_TOKEN; other bad tokens get their own codes', async () => {
    const token = await accessToken();
    expect(await get(meUrl())).toMatchObject({ status: 401, body: { serviceErrorCode: 65604, code: 'EMPTY_ACCESS_TOKEN' } });
    expect(await get(meUrl(), bearer('AQVnope'))).toMatchObject({ status: 401, body: { serviceErrorCode: 65600, message: 'Invalid access token', status: 401 } });
    context.clock.advance(60 * DAY - 1000);
    expect((await get(meUrl(), bearer(token))).status).toBe(200);
    context.clock.advance(1000);
    expect(await get(meUrl(), bearer(token))).toMatchObject({ status: 401, body: { status: 401, serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN' } });
  });

  it('needs an active LinkedIn-Version on /rest calls', async () => {
    const token = await accessToken();
    expect(await get(followersUrl(), bearer(token))).toMatchObject({ status: 400, body: { code: 'VERSION_MISSING' } });
    expect(await get(followersUrl(), { ...bearer(token), 'linkedin-version': '202405' })).toMatchObject({ status: 426, body: { code: 'NONEXISTENT_VERSION', message: 'Requested version 202405 is not active' } });
    expect(await get(followersUrl(), { ...bearer(token), 'linkedin-version': '202612' })).toMatchObject({ status: 426 });
    expect((await get(followersUrl(), { ...bearer(token), 'linkedin-version': '202506' })).status).toBe(200);
    // No December version exists, though 202512 lies inside the active year.
    expect(await get(followersUrl(), { ...bearer(token), 'linkedin-version': '202512' })).toMatchObject({ status: 426, body: { code: 'NONEXISTENT_VERSION', message: 'Requested version 202512 is not active' } });
    expect((await get(followersUrl(), { ...bearer(token), 'linkedin-version': '202511' })).status).toBe(200);
    expect((await get(followersUrl('q=other'), { ...bearer(token), ...VERSION })).status).toBe(400);
  });

  it('introspects tokens', async () => {
    const { sandbox } = context;
    const token = await accessToken();
    const introspectUrl = sandbox.url('https://www.linkedin.com/oauth/v2/introspectToken');
    const fields = { client_id: sandbox.credentials.linkedin.clientId, client_secret: sandbox.credentials.linkedin.clientSecret };
    expect((await postForm(introspectUrl, { ...fields, token })).body).toMatchObject({ active: true, status: 'active', auth_type: '3L', scope: 'r_basicprofile,r_member_profileAnalytics' });
    context.clock.advance(60 * DAY);
    expect((await postForm(introspectUrl, { ...fields, token })).body).toEqual({ active: false, status: 'expired' });
  });

  it('redirects Deny as access_denied', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.linkedin.com/oauth/v2/authorization', {
      response_type: 'code',
      client_id: context.sandbox.credentials.linkedin.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'st',
      scope: COMMUNITY_MANAGEMENT,
    });
    expect(Object.fromEntries(callbackParams((await context.sandbox.authorize(url, { deny: true })).redirectUrl))).toEqual({ error: 'access_denied', error_description: expect.any(String), state: 'st' });
  });

  it('injects failures in LinkedIn’s shapes', async () => {
    const { sandbox } = context;
    const code = await codeFor();
    sandbox.failNext('linkedin', 'token', 'server_error');
    expect((await exchange(code)).status).toBe(500);
    const token = (await exchange(code)).body.access_token as string;
    sandbox.failNext('linkedin', 'profile', 'rate_limited');
    expect(await get(meUrl(), bearer(token))).toMatchObject({ status: 429, body: { status: 429, code: 'TOO_MANY_REQUESTS' } });
    sandbox.failNext('linkedin', 'profile', 'invalid_grant');
    expect(await get(followersUrl(), { ...bearer(token), ...VERSION })).toMatchObject({ status: 401, body: { code: 'REVOKED_ACCESS_TOKEN' } });
  });
});
