// X OAuth 2.0 (PKCE required, Basic auth, offline.access, rotation) and the v2 users endpoints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, bearer, callbackParams, get, HOUR, pkcePair, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const REDIRECT_URI = redirectUriFor('twitter');
const tokenUrl = (host = 'api.x.com') => context.sandbox.url(`https://${host}/2/oauth2/token`);
const meUrl = (query = 'user.fields=public_metrics,profile_image_url,created_at,description,verified') => context.sandbox.url(`https://api.x.com/2/users/me?${query}`);
const clientAuth = () => basicAuth(context.sandbox.credentials.twitter.clientId, context.sandbox.credentials.twitter.clientSecret);

async function consent(options: { account?: number; scope?: string; host?: string; method?: string } = {}) {
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(context.sandbox, `https://${options.host ?? 'x.com'}/i/oauth2/authorize`, {
    response_type: 'code',
    client_id: context.sandbox.credentials.twitter.clientId,
    redirect_uri: REDIRECT_URI,
    state: 'x-state',
    scope: options.scope ?? 'tweet.read users.read offline.access',
    code_challenge: challenge,
    code_challenge_method: options.method ?? 'S256',
  });
  const { redirectUrl } = await context.sandbox.authorize(url, { account: options.account ?? 0 });
  return { callback: callbackParams(redirectUrl), verifier, redirectUrl };
}

const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}, headers: Record<string, string> = clientAuth(), host?: string) =>
  postForm(tokenUrl(host), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...overrides }, headers);

async function connect(options: Parameters<typeof consent>[0] = {}) {
  const { callback, verifier } = await consent(options);
  const token = await exchange(callback.get('code')!, verifier);
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token?: string; scope: string };
}

const refresh = (refreshToken: string) => postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: refreshToken }, clientAuth());

describe('X OAuth 2.0', () => {
  it('authorizes with PKCE, exchanges with Basic auth and reads users/me', async () => {
    const { sandbox } = context;
    const { callback, verifier, redirectUrl } = await consent({ account: 1 });
    expect(redirectUrl.startsWith(`${REDIRECT_URI}?state=x-state&code=`)).toBe(true);

    const token = await exchange(callback.get('code')!, verifier);
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ token_type: 'bearer', expires_in: 7200, access_token: expect.any(String), scope: 'tweet.read users.read offline.access', refresh_token: expect.any(String) });
    expect(Buffer.from(token.body.access_token, 'base64url').toString()).toMatch(/:1:0:at:1$/);

    const me = await get(meUrl(), bearer(token.body.access_token));
    const demo = sandbox.accounts.twitter[1]!;
    expect(me.status).toBe(200);
    expect(me.headers.get('x-rate-limit-limit')).toBe('75');
    expect(me.headers.get('x-rate-limit-remaining')).toBe('74');
    expect(Number(me.headers.get('x-rate-limit-reset'))).toBe(Math.ceil((context.clock.now().getTime() + 15 * 60 * 1000) / 1000));
    expect(me.body).toEqual({
      data: {
        id: demo.id,
        name: 'Theo Park',
        username: 'theocooks',
        created_at: expect.stringMatching(/^2018-09-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
        description: expect.any(String),
        profile_image_url: expect.stringContaining('/pbs.twimg.com/'),
        verified: false,
        public_metrics: { followers_count: demo.followers, following_count: expect.any(Number), tweet_count: expect.any(Number), post_count: expect.any(Number), listed_count: expect.any(Number), like_count: expect.any(Number), media_count: expect.any(Number) },
      },
    });
    expect((await get(meUrl(''), bearer(token.body.access_token))).body).toEqual({ data: { id: demo.id, name: 'Theo Park', username: 'theocooks' } });
  });

  it('requires PKCE, and accepts lowercase s256, plain and the twitter.com / api.twitter.com hosts', async () => {
    const { sandbox } = context;
    const withoutPkce = authorizeUrl(sandbox, 'https://x.com/i/oauth2/authorize', {
      response_type: 'code',
      client_id: sandbox.credentials.twitter.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's',
      scope: 'tweet.read users.read',
    });
    expect(Object.fromEntries(callbackParams((await sandbox.authorize(withoutPkce)).redirectUrl))).toMatchObject({ error: 'invalid_request', state: 's' });

    const lower = await consent({ host: 'twitter.com', method: 's256' });
    expect((await exchange(lower.callback.get('code')!, lower.verifier, {}, clientAuth(), 'api.twitter.com')).status).toBe(200);

    const plainVerifier = pkcePair().verifier;
    const plainUrl = authorizeUrl(sandbox, 'https://x.com/i/oauth2/authorize', {
      response_type: 'code',
      client_id: sandbox.credentials.twitter.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's',
      scope: 'tweet.read users.read',
      code_challenge: plainVerifier,
      code_challenge_method: 'plain',
    });
    const plainCode = callbackParams((await sandbox.authorize(plainUrl)).redirectUrl).get('code')!;
    expect((await exchange(plainCode, plainVerifier)).status).toBe(200);
  });

  it('answers X’s errors for codes, verifiers, redirect URIs and client authentication', async () => {
    const { sandbox } = context;
    const { callback, verifier } = await consent();
    const code = callback.get('code')!;
    const invalidCode = { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' };
    expect(await exchange(code, pkcePair().verifier)).toMatchObject({ status: 400, body: invalidCode });
    expect(await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:5173/auth/twitter/callback' })).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringContaining('redirect uri') } });
    const missingVerifier = await postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, clientAuth());
    expect(missingVerifier).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'Missing required parameter [code_verifier].' } });
    // A confidential client must use Basic: client_id (and even client_secret) in the body is not enough.
    const bodyOnly = await exchange(code, verifier, { client_id: sandbox.credentials.twitter.clientId, client_secret: sandbox.credentials.twitter.clientSecret }, {});
    expect(bodyOnly).toMatchObject({ status: 401, body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' } });
    expect((await exchange(code, verifier, {}, basicAuth(sandbox.credentials.twitter.clientId, 'wrong'))).status).toBe(401);

    expect((await exchange(code, verifier)).status).toBe(200);
    expect(await exchange(code, verifier)).toMatchObject({ status: 400, body: invalidCode });
  });

  it('issues a refresh token only with offline.access', async () => {
    const tokens = await connect({ scope: 'tweet.read users.read' });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('tweet.read users.read');
  });

  it('rotates refresh tokens and revokes the family when a spent one comes back', async () => {
    const { sandbox } = context;
    const first = await connect();
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ token_type: 'bearer', expires_in: 7200, access_token: expect.any(String), scope: 'tweet.read users.read offline.access', refresh_token: expect.any(String) });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);

    expect(await refresh(first.refresh_token!)).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' } });
    expect((await refresh(third.body.refresh_token)).status).toBe(400);
    expect((await get(meUrl(''), bearer(third.body.access_token))).status).toBe(401);
    expect(sandbox.revokedTokens.filter((token) => token.reason === 'refresh_token_reuse').length).toBeGreaterThanOrEqual(2);
  });

  it('answers an expired access token with the 401 problem', async () => {
    const tokens = await connect();
    context.clock.advance(2 * HOUR);
    const expired = await get(meUrl(), bearer(tokens.access_token));
    expect(expired).toMatchObject({ status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } });
    const renewed = await refresh(tokens.refresh_token!);
    expect((await get(meUrl(), bearer(renewed.body.access_token))).status).toBe(200);
  });

  it('revokes an access token alone, or a refresh token with its grant', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    const revokeUrl = sandbox.url('https://api.x.com/2/oauth2/revoke');
    expect(await postForm(revokeUrl, { token: tokens.access_token, token_type_hint: 'access_token' })).toMatchObject({ status: 401, body: { error: 'unauthorized_client' } });
    expect(await postForm(revokeUrl, { token: tokens.access_token, token_type_hint: 'access_token' }, clientAuth())).toMatchObject({ status: 200, body: { revoked: true } });
    expect((await get(meUrl(), bearer(tokens.access_token))).status).toBe(401);
    const renewed = await refresh(tokens.refresh_token!);
    expect(renewed.status).toBe(200);
    expect(await postForm(revokeUrl, { token: renewed.body.refresh_token, token_type_hint: 'refresh_token' }, clientAuth())).toMatchObject({ status: 200, body: { revoked: true } });
    expect((await get(meUrl(), bearer(renewed.body.access_token))).status).toBe(401);
    expect(await postForm(revokeUrl, { token: 'never-issued' }, clientAuth())).toMatchObject({ status: 200, body: { revoked: true } });
  });

  it('redirects Deny as access_denied with the state', async () => {
    const { challenge } = pkcePair();
    const url = authorizeUrl(context.sandbox, 'https://x.com/i/oauth2/authorize', {
      response_type: 'code',
      client_id: context.sandbox.credentials.twitter.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'nope',
      scope: 'tweet.read users.read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(Object.fromEntries(callbackParams((await context.sandbox.authorize(url, { deny: true })).redirectUrl))).toEqual({ error: 'access_denied', state: 'nope' });
  });
});

describe('X API v2 users', () => {
  it('looks users up by username with the app bearer token', async () => {
    const { sandbox } = context;
    const app = bearer(sandbox.appKeys.twitterBearerToken);
    const found = await get(sandbox.url('https://api.x.com/2/users/by/username/MayaCreates?user.fields=public_metrics'), app);
    expect(found.status).toBe(200);
    expect(found.headers.get('x-rate-limit-limit')).toBe('300');
    expect(found.body.data).toMatchObject({ id: sandbox.accounts.twitter[0]!.id, username: 'mayacreates', public_metrics: { followers_count: sandbox.accounts.twitter[0]!.followers } });
    expect(sandbox.countCalls('twitter', 'lookup')).toBe(1);

    const missing = await get(sandbox.url('https://api.x.com/2/users/by/username/nobody_here'), app);
    expect(missing).toMatchObject({
      status: 200,
      body: { errors: [{ value: 'nobody_here', detail: 'Could not find user with username: [nobody_here].', title: 'Not Found Error', resource_type: 'user', parameter: 'username', type: 'https://api.x.com/2/problems/resource-not-found' }] },
    });
    expect((await get(sandbox.url('https://api.x.com/2/users/by/username/not-valid!'), app)).body).toMatchObject({ title: 'Invalid Request', type: 'https://api.x.com/2/problems/invalid-request' });
    expect((await get(sandbox.url('https://api.x.com/2/users/by/username/mayacreates'), bearer('AAAAwrong'))).status).toBe(401);
    expect((await get(sandbox.url('https://api.x.com/2/users/by/username/mayacreates?user.fields=followers'), app)).body).toMatchObject({ title: 'Invalid Request', errors: [{ parameters: { 'user.fields': ['followers'] } }] });
  });

  it('refuses the app bearer token on users/me and needs tweet.read and users.read', async () => {
    const { sandbox } = context;
    const appOnly = await get(meUrl(), bearer(sandbox.appKeys.twitterBearerToken));
    expect(appOnly).toMatchObject({ status: 403, body: { type: 'https://api.x.com/2/problems/unsupported-authentication' } });
    const tweetsOnly = await connect({ scope: 'tweet.read' });
    expect((await get(meUrl(), bearer(tweetsOnly.access_token))).status).toBe(403);
    const tokens = await connect();
    expect((await get(meUrl('bogus=1'), bearer(tokens.access_token))).body).toMatchObject({ title: 'Invalid Request' });
  });

  it('injects a 429 with exhausted rate-limit headers, and other failures', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    sandbox.failNext('twitter', 'profile', 'rate_limited');
    const limited = await get(meUrl(), bearer(tokens.access_token));
    expect(limited).toMatchObject({ status: 429, body: { title: 'Too Many Requests', status: 429 } });
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-rate-limit-reset'))).toBeGreaterThan(context.clock.now().getTime() / 1000);
    sandbox.failNext('twitter', 'token', 'invalid_grant');
    expect(await refresh(tokens.refresh_token!)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect((await refresh(tokens.refresh_token!)).status).toBe(200); // the injected failure consumed nothing
  });
});
