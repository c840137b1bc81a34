// TikTok Login Kit and Display API: client_key, comma scopes, rotation of refresh tokens, the user-info envelope.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, bearer, callbackParams, get, HOUR, pkcePair, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const REDIRECT_URI = redirectUriFor('tiktok');
const WEB_REDIRECT_URI = 'https://app.example/auth/tiktok/callback';
const ALL_FIELDS = 'open_id,union_id,avatar_url,display_name,username,bio_description,profile_deep_link,is_verified,follower_count,following_count,likes_count,video_count';

const tokenUrl = () => context.sandbox.url('https://open.tiktokapis.com/v2/oauth/token/');
const userInfoUrl = (fields = ALL_FIELDS) => context.sandbox.url(`https://open.tiktokapis.com/v2/user/info/?fields=${fields}`);
const clientFields = () => ({ client_key: context.sandbox.credentials.tiktok.clientId, client_secret: context.sandbox.credentials.tiktok.clientSecret });

async function consent(options: { account?: number; scope?: string; scopes?: string[]; path?: string } = {}) {
  const { verifier, challenge } = pkcePair('hex');
  const url = authorizeUrl(context.sandbox, `https://www.tiktok.com${options.path ?? '/v2/auth/authorize/'}`, {
    client_key: context.sandbox.credentials.tiktok.clientId,
    response_type: 'code',
    scope: options.scope ?? 'user.info.basic,user.info.profile,user.info.stats,video.list',
    redirect_uri: REDIRECT_URI,
    state: 'tt-state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const { redirectUrl } = await context.sandbox.authorize(url, { account: options.account ?? 0, ...(options.scopes ? { scopes: options.scopes } : {}) });
  return { callback: callbackParams(redirectUrl), verifier };
}

const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}) =>
  postForm(tokenUrl(), { ...clientFields(), code, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code_verifier: verifier, ...overrides });

async function connect(options: Parameters<typeof consent>[0] = {}) {
  const { callback, verifier } = await consent(options);
  const token = await exchange(callback.get('code')!, verifier);
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token: string; open_id: string; scope: string };
}

const refresh = (refreshToken: string) => postForm(tokenUrl(), { ...clientFields(), grant_type: 'refresh_token', refresh_token: refreshToken });

describe('TikTok', () => {
  it('authorizes with client_key, exchanges with PKCE and reads user info in its envelope', async () => {
    const { sandbox } = context;
    const { callback, verifier } = await consent({ account: 2 });
    expect(Object.fromEntries(callback)).toEqual({ code: expect.stringMatching(/^sbx.+\*0!\d{4}\.va$/), scopes: 'user.info.basic,user.info.profile,user.info.stats,video.list', state: 'tt-state' });

    const token = await exchange(callback.get('code')!, verifier);
    const demo = sandbox.accounts.tiktok[2]!;
    expect(token.status).toBe(200);
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^act\.sbx-/),
      expires_in: 7200,
      open_id: demo.id,
      refresh_expires_in: 15552000,
      refresh_token: expect.stringMatching(/^rft\.sbx-/),
      scope: 'user.info.basic,user.info.profile,user.info.stats,video.list',
      token_type: 'Bearer',
    });

    const info = await get(userInfoUrl(), bearer(token.body.access_token));
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      data: {
        user: {
          open_id: demo.id,
          union_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          avatar_url: expect.stringContaining('/p16-sign-va.tiktokcdn.com/'),
          display_name: 'Ivy Chen',
          username: 'ivysketches',
          bio_description: expect.any(String),
          profile_deep_link: expect.stringMatching(/^https:\/\/vm\.tiktok\.com\//),
          is_verified: false,
          follower_count: demo.followers,
          following_count: expect.any(Number),
          likes_count: expect.any(Number),
          video_count: expect.any(Number),
        },
      },
      error: { code: 'ok', message: '', log_id: expect.stringMatching(/^20260504100000[0-9A-F]{20}$/) },
    });
    // Only what was asked for.
    expect((await get(userInfoUrl('open_id,display_name'), bearer(token.body.access_token))).body.data.user).toEqual({ open_id: demo.id, display_name: 'Ivy Chen' });
  });

  it('serves the authorize page without the trailing slash too; corrections row 7: an https (web) redirect works without PKCE', async () => {
    const web = await startTestSandbox({ allowedRedirectUris: [WEB_REDIRECT_URI] });
    try {
      const url = authorizeUrl(web.sandbox, 'https://www.tiktok.com/v2/auth/authorize', {
        client_key: web.sandbox.credentials.tiktok.clientId,
        response_type: 'code',
        scope: 'user.info.basic',
        redirect_uri: WEB_REDIRECT_URI,
        state: 's',
      });
      const code = callbackParams((await web.sandbox.authorize(url)).redirectUrl).get('code')!;
      const { clientId, clientSecret } = web.sandbox.credentials.tiktok;
      const token = await postForm(web.sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), { client_key: clientId, client_secret: clientSecret, code, grant_type: 'authorization_code', redirect_uri: WEB_REDIRECT_URI });
      expect(token.status).toBe(200);
    } finally {
      await web.close();
    }
    // API paths need their trailing slash.
    expect((await postForm(context.sandbox.url('https://open.tiktokapis.com/v2/oauth/token'), {})).status).toBe(404);
  });

  it('corrections row 7: a loopback (desktop-type) redirect without code_challenge is refused before consent', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
      client_key: context.sandbox.credentials.tiktok.clientId,
      response_type: 'code',
      scope: 'user.info.basic',
      redirect_uri: REDIRECT_URI,
      state: 'no-pkce',
    });
    const callback = callbackParams((await context.sandbox.authorize(url)).redirectUrl);
    expect(Object.fromEntries(callback)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('code_challenge'), state: 'no-pkce' });
  });

  it('corrections row 8: verifies the lower-case hex of SHA-256 (S256), and refuses an RFC 7636 base64url challenge at the token exchange', async () => {
    const hex = await consent();
    expect((await exchange(hex.callback.get('code')!, hex.verifier)).status).toBe(200);

    const { verifier, challenge } = pkcePair('base64url');
    const url = authorizeUrl(context.sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
      client_key: context.sandbox.credentials.tiktok.clientId,
      response_type: 'code',
      scope: 'user.info.basic',
      redirect_uri: REDIRECT_URI,
      state: 'b64',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = callbackParams((await context.sandbox.authorize(url)).redirectUrl).get('code')!;
    expect(await exchange(code, verifier)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Code verifier or code challenge is invalid.', log_id: expect.any(String) },
    });
  });

  it('answers OAuth errors for reused codes, wrong verifiers, redirect URIs and client credentials', async () => {
    const { sandbox } = context;
    const { callback, verifier } = await consent();
    const code = callback.get('code')!;
    expect(await exchange(code, pkcePair().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'Code verifier or code challenge is invalid.', log_id: expect.any(String) } });
    expect(await exchange(code, verifier, { redirect_uri: 'http://localhost:5173/auth/tiktok/callback2' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(code, verifier, { client_secret: 'wrong' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    // Credentials belong in the body: client_id or Basic auth is not TikTok's way.
    const withBasic = await postForm(tokenUrl(), { code, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code_verifier: verifier }, basicAuth(sandbox.credentials.tiktok.clientId, sandbox.credentials.tiktok.clientSecret));
    expect(withBasic).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringContaining('client_key') } });

    expect((await exchange(code, verifier)).status).toBe(200);
    expect(await exchange(code, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Authorization code has been used.' } });
  });

  it('rotates refresh tokens: the old one dies, and replaying it revokes the family', async () => {
    const { sandbox } = context;
    const first = await connect();
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toMatch(/^rft\.sbx-/);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.body.access_token).not.toBe(first.access_token);
    expect(rotated.body.open_id).toBe(first.open_id);

    const replay = await refresh(first.refresh_token);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The whole family is gone, including the successor and its access token.
    expect(await refresh(rotated.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await get(userInfoUrl('open_id'), bearer(rotated.body.access_token))).toMatchObject({ status: 401, body: { error: { code: 'access_token_invalid' } } });
    expect(sandbox.revokedTokens.every((token) => token.reason === 'refresh_token_reuse')).toBe(true);
    expect(sandbox.isRevoked(rotated.body.refresh_token)).toBe(true);
  });

  it('answers an expired access token with 401 access_token_invalid', async () => {
    const tokens = await connect();
    context.clock.advance(2 * HOUR);
    const expired = await get(userInfoUrl('open_id'), bearer(tokens.access_token));
    expect(expired).toMatchObject({ status: 401, body: { data: {}, error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.' } } });
    const renewed = await refresh(tokens.refresh_token);
    expect((await get(userInfoUrl('open_id'), bearer(renewed.body.access_token))).status).toBe(200);
  });

  it('requires fields, known field names and the scope of each field', async () => {
    const tokens = await connect({ scopes: ['user.info.profile'] });
    expect(tokens.scope).toBe('user.info.basic,user.info.profile');
    expect(await get(context.sandbox.url('https://open.tiktokapis.com/v2/user/info/'), bearer(tokens.access_token))).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    expect(await get(userInfoUrl('open_id,subscriber_count'), bearer(tokens.access_token))).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    expect(await get(userInfoUrl('open_id,follower_count'), bearer(tokens.access_token))).toMatchObject({ status: 401, body: { error: { code: 'scope_not_authorized' } } });
    expect(await get(userInfoUrl('open_id,username'), bearer(tokens.access_token))).toMatchObject({ status: 200 });
  });

  it('revokes every token of the authorization', async () => {
    const tokens = await connect();
    const revokeUrl = context.sandbox.url('https://open.tiktokapis.com/v2/oauth/revoke/');
    expect(await postForm(revokeUrl, { ...clientFields(), token: tokens.access_token, client_secret: 'wrong' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((await postForm(revokeUrl, { ...clientFields(), token: tokens.access_token })).status).toBe(200);
    expect(await refresh(tokens.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await postForm(revokeUrl, { ...clientFields(), token: tokens.access_token })).status).toBe(400);
  });

  it('redirects Deny as access_denied', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
      client_key: context.sandbox.credentials.tiktok.clientId,
      response_type: 'code',
      scope: 'user.info.basic',
      redirect_uri: REDIRECT_URI,
      state: 'deny',
      code_challenge: pkcePair('hex').challenge,
      code_challenge_method: 'S256',
    });
    const callback = callbackParams((await context.sandbox.authorize(url, { deny: true })).redirectUrl);
    expect(Object.fromEntries(callback)).toEqual({ error: 'access_denied', error_description: expect.any(String), state: 'deny' });
  });

  it('injects API failures in the envelope', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    sandbox.failNext('tiktok', 'profile', 'rate_limited');
    sandbox.failNext('tiktok', 'profile', 'server_error');
    sandbox.failNext('tiktok', 'profile', 'invalid_grant');
    expect(await get(userInfoUrl('open_id'), bearer(tokens.access_token))).toMatchObject({ status: 429, body: { error: { code: 'rate_limit_exceeded' } } });
    expect(await get(userInfoUrl('open_id'), bearer(tokens.access_token))).toMatchObject({ status: 500, body: { error: { code: 'internal_error' } } });
    expect(await get(userInfoUrl('open_id'), bearer(tokens.access_token))).toMatchObject({ status: 401, body: { error: { code: 'access_token_invalid' } } });
    sandbox.failNext('tiktok', 'revoke', 'server_error');
    expect((await postForm(context.sandbox.url('https://open.tiktokapis.com/v2/oauth/revoke/'), { ...clientFields(), token: tokens.access_token })).status).toBe(500);
    expect(sandbox.countCalls('tiktok', 'revoke')).toBe(1);
  });
});
