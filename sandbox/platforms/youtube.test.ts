// YouTube through Google OAuth and the Data API channels resource, as the product's adapter would drive them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, bearer, callbackParams, get, pkcePair, postForm, redirectUriFor, SECOND, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const MONETARY = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';
const REDIRECT_URI = redirectUriFor('youtube');

const tokenUrl = () => context.sandbox.url('https://oauth2.googleapis.com/token');
const channelsUrl = (query: string) => context.sandbox.url(`https://www.googleapis.com/youtube/v3/channels?${query}`);
const clientAuth = () => basicAuth(context.sandbox.credentials.youtube.clientId, context.sandbox.credentials.youtube.clientSecret);

/** Runs the consent flow as the product would; returns the callback parameters and the PKCE verifier. */
async function consent(options: { account?: number; params?: Record<string, string>; scopes?: string[] } = {}) {
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(context.sandbox, 'https://accounts.google.com/o/oauth2/v2/auth', {
    response_type: 'code',
    client_id: context.sandbox.credentials.youtube.clientId,
    redirect_uri: REDIRECT_URI,
    state: 'yt-state',
    scope: `${READONLY} ${ANALYTICS}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    ...options.params,
  });
  const { redirectUrl } = await context.sandbox.authorize(url, { account: options.account ?? 0, ...(options.scopes ? { scopes: options.scopes } : {}) });
  return { callback: callbackParams(redirectUrl), verifier, redirectUrl };
}

async function exchange(code: string, verifier: string, overrides: Record<string, string> = {}, headers: Record<string, string> = clientAuth()) {
  return postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...overrides }, headers);
}

async function connect(options: Parameters<typeof consent>[0] = {}) {
  const { callback, verifier } = await consent(options);
  const token = await exchange(callback.get('code')!, verifier);
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token?: string; scope: string; expires_in: number; token_type: string };
}

describe('YouTube OAuth', () => {
  it('authorizes, exchanges the code with Basic auth and PKCE, and reads the channel', async () => {
    const { sandbox } = context;
    const { callback, verifier, redirectUrl } = await consent({ account: 1 });
    expect(redirectUrl.startsWith(`${REDIRECT_URI}?state=yt-state&iss=`)).toBe(true);
    expect(callback.get('iss')).toBe('https://accounts.google.com');
    expect(callback.get('code')).toMatch(/^4\/0Asbx/);
    expect(callback.get('scope')).toBe(`${READONLY} ${ANALYTICS}`);

    const token = await exchange(callback.get('code')!, verifier);
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ access_token: expect.stringMatching(/^ya29\.sbx-/), expires_in: 3599, refresh_token: expect.stringMatching(/^1\/\/0sbx-/), scope: `${READONLY} ${ANALYTICS}`, token_type: 'Bearer' });

    const channels = await get(channelsUrl('part=snippet,statistics,contentDetails&mine=true'), bearer(token.body.access_token));
    expect(channels.status).toBe(200);
    const demo = sandbox.accounts.youtube[1]!;
    expect(channels.body).toMatchObject({ kind: 'youtube#channelListResponse', pageInfo: { totalResults: 1, resultsPerPage: 5 } });
    const [channel] = channels.body.items;
    expect(channel).toMatchObject({
      kind: 'youtube#channel',
      id: demo.id,
      snippet: { title: 'Theo Park', customUrl: '@theocooks', country: 'CA' },
      contentDetails: { relatedPlaylists: { uploads: `UU${demo.id.slice(2)}` } },
      statistics: { subscriberCount: String(demo.followers), hiddenSubscriberCount: false },
    });
    expect(channel.id).toMatch(/^UC[A-Za-z0-9_-]{21}[AQgw]$/);
    // Data API counts are strings; subscribers are rounded to three significant figures.
    expect(typeof channel.statistics.viewCount).toBe('string');
    expect(typeof channel.statistics.videoCount).toBe('string');
    expect(Number(channel.statistics.subscriberCount)).toBe(demo.followers);
    expect(String(demo.followers).replace(/0+$/, '').length).toBeLessThanOrEqual(3);
    expect((await get(channel.snippet.thumbnails.default.url)).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('also accepts client credentials in the body, and without PKCE when none was sent', async () => {
    const { sandbox } = context;
    const url = authorizeUrl(sandbox, 'https://accounts.google.com/o/oauth2/v2/auth', {
      response_type: 'code',
      client_id: sandbox.credentials.youtube.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's',
      scope: READONLY,
    });
    const code = callbackParams((await sandbox.authorize(url)).redirectUrl).get('code')!;
    const token = await postForm(tokenUrl(), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: sandbox.credentials.youtube.clientId,
      client_secret: sandbox.credentials.youtube.clientSecret,
    });
    expect(token.status).toBe(200);
    // access_type=online (the default): no refresh token.
    expect(token.body.refresh_token).toBeUndefined();
  });

  it('rejects a wrong verifier, a missing verifier, a wrong redirect_uri and wrong client credentials without using the code up', async () => {
    const { sandbox } = context;
    const { callback, verifier } = await consent();
    const code = callback.get('code')!;

    expect(await exchange(code, pkcePair().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' } });
    const withoutVerifier = await postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, clientAuth());
    expect(withoutVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Missing code verifier.' } });
    expect(await exchange(code, verifier, { redirect_uri: 'http://localhost:5173/auth/youtube/callback/' })).toMatchObject({ status: 400, body: { error: 'redirect_uri_mismatch' } });
    expect(await exchange(code, verifier, {}, basicAuth(sandbox.credentials.youtube.clientId, 'GOCSPX-wrong'))).toMatchObject({ status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } });
    expect(await exchange(code, verifier, {}, basicAuth('123-other.apps.googleusercontent.com', 'x'))).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await exchange(code, verifier, {}, {})).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'Could not determine client ID from request.' } });

    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it('refuses a reused code and revokes what the first exchange issued', async () => {
    const { sandbox } = context;
    const { callback, verifier } = await consent();
    const first = await exchange(callback.get('code')!, verifier);
    expect(first.status).toBe(200);
    const replay = await exchange(callback.get('code')!, verifier);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(sandbox.isRevoked(first.body.access_token)).toBe(true);
    expect(sandbox.revokedTokens.map((token) => token.reason)).toEqual(['code_reuse', 'code_reuse']);
  });

  it('refreshes without resending the refresh token, which keeps working', async () => {
    const tokens = await connect();
    const refresh = () => postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, clientAuth());
    const first = await refresh();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.stringMatching(/^ya29\.sbx-/), expires_in: 3599, scope: tokens.scope, token_type: 'Bearer' });
    expect(first.body.access_token).not.toBe(tokens.access_token);
    const second = await refresh();
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).toBeUndefined();
    expect((await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: '1//0sbx-made-up' }, clientAuth())).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('sends a refresh token on first offline consent, on new scopes, or with prompt=consent only', async () => {
    const withoutPrompt = { params: { prompt: 'select_account' } };
    expect((await connect(withoutPrompt)).refresh_token).toBeDefined(); // first consent
    expect((await connect(withoutPrompt)).refresh_token).toBeUndefined(); // consented before
    expect((await connect({ params: { prompt: 'select_account', scope: `${READONLY} ${MONETARY}` } })).refresh_token).toBeDefined(); // new scope
    expect((await connect()).refresh_token).toBeDefined(); // prompt=consent
    expect((await connect({ account: 2, params: { access_type: 'online' } })).refresh_token).toBeUndefined();
  });

  it('lets the user untick scopes, and unions earlier grants with include_granted_scopes', async () => {
    const partial = await connect({ params: { scope: `${READONLY} ${MONETARY} openid email` }, scopes: [READONLY] });
    expect(partial.scope.split(' ').sort()).toEqual(['https://www.googleapis.com/auth/userinfo.email', READONLY, 'openid'].sort());

    const later = await connect({ params: { scope: ANALYTICS } });
    expect(later.scope.split(' ')).toEqual(expect.arrayContaining([READONLY, ANALYTICS, 'openid']));
    const alone = await connect({ account: 1, params: { scope: ANALYTICS, include_granted_scopes: 'false' } });
    expect(alone.scope).toBe(ANALYTICS);
    // Without youtube.readonly the channel cannot be read.
    const forbidden = await get(channelsUrl('part=id&mine=true'), bearer(alone.access_token));
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 403, errors: [{ reason: 'insufficientPermissions' }], status: 'PERMISSION_DENIED' } } });
  });

  it('answers an expired access token with Google 401 authError, and a refreshed one works', async () => {
    const { clock } = context;
    const tokens = await connect();
    clock.advance(3599 * SECOND);
    const expired = await get(channelsUrl('part=id&mine=true'), bearer(tokens.access_token));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    expect(expired.body).toMatchObject({ error: { code: 401, errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }], status: 'UNAUTHENTICATED' } });
    const refreshed = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, clientAuth());
    expect((await get(channelsUrl('part=id&mine=true'), bearer(refreshed.body.access_token))).status).toBe(200);
  });

  it('expires codes after ten minutes', async () => {
    const { callback, verifier } = await consent();
    context.clock.advance(10 * 60 * SECOND);
    expect(await exchange(callback.get('code')!, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revokes the whole grant from either token', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    const revokeUrl = sandbox.url('https://oauth2.googleapis.com/revoke');
    expect(await postForm(revokeUrl, { token: tokens.access_token })).toMatchObject({ status: 200, body: {} });
    expect(await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, clientAuth())).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
    expect((await get(channelsUrl('part=id&mine=true'), bearer(tokens.access_token))).status).toBe(401);
    expect(await postForm(revokeUrl, { token: tokens.refresh_token! })).toMatchObject({ status: 400, body: { error: 'invalid_token' } });
    expect(sandbox.countCalls('youtube', 'revoke')).toBe(2);
  });

  it('redirects Deny as access_denied with the state', async () => {
    const url = authorizeUrl(context.sandbox, 'https://accounts.google.com/o/oauth2/v2/auth', {
      response_type: 'code',
      client_id: context.sandbox.credentials.youtube.clientId,
      redirect_uri: REDIRECT_URI,
      state: 'deny-me',
      scope: READONLY,
    });
    const callback = callbackParams((await context.sandbox.authorize(url, { deny: true })).redirectUrl);
    expect(Object.fromEntries(callback)).toEqual({ error: 'access_denied', state: 'deny-me' });
  });

  it('turns prompt=none into interaction_required', async () => {
    const { callback } = await consent({ params: { prompt: 'none' } });
    expect(callback.get('error')).toBe('interaction_required');
  });
});

describe('YouTube Data API channels', () => {
  it('looks up public channels by handle or id with the API key', async () => {
    const { sandbox } = context;
    const key = sandbox.appKeys.youtubeApiKey;
    const [maya, , ivy] = sandbox.accounts.youtube;
    const byHandle = await get(channelsUrl(`part=snippet,statistics&forHandle=${encodeURIComponent('@MayaCreates')}&key=${key}`));
    expect(byHandle.status).toBe(200);
    expect(byHandle.body.items.map((item: { id: string }) => item.id)).toEqual([maya!.id]);
    expect(byHandle.body.items[0].contentDetails).toBeUndefined(); // only the requested parts
    expect(sandbox.countCalls('youtube', 'lookup')).toBe(1);

    const byIds = await get(channelsUrl(`part=id&id=${ivy!.id},${maya!.id},UCnope&key=${key}`));
    expect(byIds.body.items.map((item: { id: string }) => item.id)).toEqual([ivy!.id, maya!.id]);
    const viaHeader = await get(channelsUrl('part=id&forHandle=ivysketches'), { 'x-goog-api-key': key });
    expect(viaHeader.body.pageInfo.totalResults).toBe(1);

    const none = await get(channelsUrl(`part=id&forHandle=nobody&key=${key}`));
    expect(none.body).toEqual({ kind: 'youtube#channelListResponse', etag: expect.any(String), pageInfo: { totalResults: 0, resultsPerPage: 5 } });
  });

  it('answers Google errors for keys, parts and filters', async () => {
    const key = context.sandbox.appKeys.youtubeApiKey;
    expect(await get(channelsUrl('part=id&forHandle=x&key=AIzaSyWRONG'))).toMatchObject({ status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } });
    expect(await get(channelsUrl('part=id&forHandle=x'))).toMatchObject({ status: 403, body: { error: { errors: [{ reason: 'forbidden' }] } } });
    expect(await get(channelsUrl(`part=id&mine=true&key=${key}`))).toMatchObject({ status: 401, body: { error: { errors: [{ reason: 'required' }] } } });
    expect(await get(channelsUrl(`forHandle=x&key=${key}`))).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'required', location: 'part' }] } } });
    expect(await get(channelsUrl(`part=snippet,bogus&forHandle=x&key=${key}`))).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'unknownPart' }] } } });
    expect(await get(channelsUrl(`part=id&key=${key}`))).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'missingRequiredParameter' }] } } });
    expect(await get(channelsUrl(`part=id&forHandle=x&id=y&key=${key}`))).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'incompatibleParameters' }] } } });
  });

  it('injects quota, credential and backend failures on the profile endpoint', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    const mine = () => get(channelsUrl('part=id&mine=true'), bearer(tokens.access_token));
    sandbox.failNext('youtube', 'profile', 'rate_limited');
    sandbox.failNext('youtube', 'profile', 'invalid_grant');
    sandbox.failNext('youtube', 'profile', 'server_error');
    expect(await mine()).toMatchObject({ status: 403, body: { error: { errors: [{ domain: 'youtube.quota', reason: 'quotaExceeded' }] } } });
    expect(await mine()).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED' } } });
    expect(await mine()).toMatchObject({ status: 500, body: { error: { errors: [{ reason: 'backendError' }] } } });
    expect((await mine()).status).toBe(200);

    sandbox.failNext('youtube', 'revoke', 'server_error');
    expect((await postForm(sandbox.url('https://oauth2.googleapis.com/revoke'), { token: tokens.access_token })).status).toBe(500);
    expect(sandbox.isRevoked(tokens.access_token)).toBe(false);
  });
});
