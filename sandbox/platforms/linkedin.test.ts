// LinkedIn: body-only client credentials, 60-day tokens without refresh, OIDC userinfo, the versioned follower count.
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

const tokenUrl = () => context.sandbox.url('https://www.linkedin.com/oauth/v2/accessToken');
const userinfoUrl = () => context.sandbox.url('https://api.linkedin.com/v2/userinfo');
const followersUrl = (query = 'q=me') => context.sandbox.url(`https://api.linkedin.com/rest/memberFollowersCount?${query}`);

async function codeFor(options: { account?: number; scope?: string } = {}) {
  const url = authorizeUrl(context.sandbox, 'https://www.linkedin.com/oauth/v2/authorization', {
    response_type: 'code',
    client_id: context.sandbox.credentials.linkedin.clientId,
    redirect_uri: REDIRECT_URI,
    state: 'li-state',
    scope: options.scope ?? 'openid profile email r_member_profileAnalytics',
  });
  const callback = callbackParams((await context.sandbox.authorize(url, { account: options.account ?? 0 })).redirectUrl);
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
  it('authorizes, exchanges with body credentials and reads userinfo and the follower count', async () => {
    const { sandbox } = context;
    const token = await exchange(await codeFor({ account: 2 }));
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ access_token: expect.stringMatching(/^AQVsbx/), expires_in: 5184000, scope: 'email,openid,profile,r_member_profileAnalytics', token_type: 'Bearer' });

    const demo = sandbox.accounts.linkedin[2]!;
    const userinfo = await get(userinfoUrl(), bearer(token.body.access_token));
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toEqual({
      sub: demo.id,
      name: 'Ivy Chen',
      given_name: 'Ivy',
      family_name: 'Chen',
      picture: expect.stringContaining('/media.licdn.com/'),
      locale: { country: 'GB', language: 'en' },
      email: 'ivy.chen@example.com',
      email_verified: true,
    });

    const followers = await get(followersUrl(), { ...bearer(token.body.access_token), ...VERSION });
    expect(followers).toMatchObject({ status: 200, body: { elements: [{ memberFollowersCount: demo.followers }], paging: { count: 10, start: 0, links: [] } } });
    expect(sandbox.countCalls('linkedin', 'followers')).toBe(1);
  });

  it('accepts comma-separated scopes and leaves out what was not granted', async () => {
    const token = await accessToken({ scope: 'openid,profile' });
    const userinfo = await get(userinfoUrl(), bearer(token));
    expect(userinfo.body.email).toBeUndefined();
    expect(userinfo.body.name).toBe('Maya Lopez');
    // No r_member_profileAnalytics: no follower count.
    expect(await get(followersUrl(), { ...bearer(token), ...VERSION })).toMatchObject({ status: 403, body: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED' } });
    const noOpenid = await accessToken({ scope: 'r_member_profileAnalytics' });
    expect(await get(userinfoUrl(), bearer(noOpenid))).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', message: 'Not enough permissions to access: userinfo.GET.NO_VERSION' } });
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
    expect(await get(userinfoUrl())).toMatchObject({ status: 401, body: { serviceErrorCode: 65604, code: 'EMPTY_ACCESS_TOKEN' } });
    expect(await get(userinfoUrl(), bearer('AQVnope'))).toMatchObject({ status: 401, body: { serviceErrorCode: 65600, message: 'Invalid access token', status: 401 } });
    context.clock.advance(60 * DAY - 1000);
    expect((await get(userinfoUrl(), bearer(token))).status).toBe(200);
    context.clock.advance(1000);
    expect(await get(userinfoUrl(), bearer(token))).toMatchObject({ status: 401, body: { status: 401, serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN' } });
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
    expect((await postForm(introspectUrl, { ...fields, token })).body).toMatchObject({ active: true, status: 'active', auth_type: '3L', scope: 'email,openid,profile,r_member_profileAnalytics' });
    context.clock.advance(60 * DAY);
    expect((await postForm(introspectUrl, { ...fields, token })).body).toEqual({ active: false, status: 'expired' });
  });

  it('redirects Deny as access_denied', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.linkedin.com/oauth/v2/authorization', {
      response_type: 'code',
      client_id: context.sandbox.credentials.linkedin.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'st',
      scope: 'openid profile',
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
    expect(await get(userinfoUrl(), bearer(token))).toMatchObject({ status: 429, body: { status: 429, code: 'TOO_MANY_REQUESTS' } });
    sandbox.failNext('linkedin', 'profile', 'invalid_grant');
    expect(await get(followersUrl(), { ...bearer(token), ...VERSION })).toMatchObject({ status: 401, body: { code: 'REVOKED_ACCESS_TOKEN' } });
  });
});
