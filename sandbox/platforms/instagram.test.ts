// Instagram API with Instagram Login: dialog, short-lived exchange (both answer shapes), long-lived exchange and
// refresh, and the IG User profile on graph.instagram.com.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, bearer, callbackParams, DAY, get, HOUR, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const REDIRECT_URI = redirectUriFor('instagram');
const SCOPES = 'instagram_business_basic,instagram_business_manage_insights';
const PROFILE_FIELDS = 'user_id,username,name,account_type,profile_picture_url,followers_count,follows_count,media_count,biography,website';

function dialogUrl(params: Record<string, string> = {}, host = 'www.instagram.com') {
  return authorizeUrl(context.sandbox, `https://${host}/oauth/authorize`, {
    client_id: context.sandbox.credentials.instagram.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: SCOPES,
    state: 'ig-state',
    ...params,
  });
}

const tokenUrl = () => context.sandbox.url('https://api.instagram.com/oauth/access_token');

function exchangeFields(code: string, overrides: Record<string, string> = {}) {
  const { clientId, clientSecret } = context.sandbox.credentials.instagram;
  return { client_id: clientId, client_secret: clientSecret, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code, ...overrides };
}

/** Instagram's token endpoint takes multipart too (curl -F, as Meta's docs show). */
async function postMultipart(url: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(url, { method: 'POST', body: form });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

async function codeFor(account = 0) {
  return callbackParams((await context.sandbox.authorize(dialogUrl(), { account })).redirectUrl).get('code')!;
}

async function shortLivedToken(account = 0): Promise<string> {
  const answer = await postForm(tokenUrl(), exchangeFields(await codeFor(account)));
  expect(answer.status).toBe(200);
  return answer.body.data[0].access_token;
}

const exchangeUrl = (shortLived: string, secret = context.sandbox.credentials.instagram.clientSecret) =>
  context.sandbox.url(`https://graph.instagram.com/access_token?grant_type=ig_exchange_token&client_secret=${encodeURIComponent(secret)}&access_token=${encodeURIComponent(shortLived)}`);
const refreshUrl = (longLived: string) => context.sandbox.url(`https://graph.instagram.com/refresh_access_token?grant_type=ig_refresh_token&access_token=${encodeURIComponent(longLived)}`);
const meUrl = (token: string, fields = PROFILE_FIELDS, version = 'v25.0/') =>
  context.sandbox.url(`https://graph.instagram.com/${version}me?fields=${fields}&access_token=${encodeURIComponent(token)}`);

describe('Instagram Login', () => {
  it('authorizes with #_ on the redirect, exchanges short- then long-lived tokens and reads the profile', async () => {
    const { sandbox } = context;
    const { redirectUrl } = await sandbox.authorize(dialogUrl(), { account: 1 });
    expect(redirectUrl.endsWith('#_')).toBe(true);
    const callback = new URL(redirectUrl);
    expect(callback.hash).toBe('#_');
    expect(callback.searchParams.get('state')).toBe('ig-state');
    const code = callback.searchParams.get('code')!;
    expect(code).not.toContain('#');

    const shortLived = await postMultipart(tokenUrl(), exchangeFields(code));
    expect(shortLived.status).toBe(200);
    const demo = sandbox.accounts.instagram[1]!;
    expect(shortLived.body).toEqual({ data: [{ access_token: expect.stringMatching(/^IGQWsbx/), user_id: demo.id, permissions: SCOPES }] });

    const longLived = await get(exchangeUrl(shortLived.body.data[0].access_token));
    expect(longLived.status).toBe(200);
    expect(longLived.body).toEqual({ access_token: expect.stringMatching(/^IGAAsbx/), token_type: 'bearer', expires_in: 5184000 });

    const me = await get(meUrl(longLived.body.access_token));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user_id: expect.stringMatching(/^178414\d{11}$/),
      username: 'theocooks',
      name: 'Theo Park',
      account_type: expect.stringMatching(/^(BUSINESS|MEDIA_CREATOR)$/),
      profile_picture_url: expect.stringContaining('/scontent.cdninstagram.com/'),
      followers_count: demo.followers,
      follows_count: expect.any(Number),
      media_count: expect.any(Number),
      biography: expect.any(String),
      website: 'https://theocooks.example',
      id: demo.id,
    });
    expect(sandbox.calls.map((call) => call.endpoint)).toEqual(['authorize', 'consent', 'token', 'exchange_token', 'profile']);
  });

  it('answers the flat shape with a numeric user_id when switched', async () => {
    const { sandbox } = context;
    sandbox.instagramTokenResponse = 'flat';
    const answer = await postForm(tokenUrl(), exchangeFields(await codeFor(0)));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`"user_id":${sandbox.accounts.instagram[0]!.id},`);
    expect(typeof answer.body.user_id).toBe('number');
    expect(answer.body.permissions).toEqual(['instagram_business_basic', 'instagram_business_manage_insights']);
  });

  it('serves the dialog on api.instagram.com too and accepts space-separated scopes', async () => {
    const { redirectUrl } = await context.sandbox.authorize(dialogUrl({ scope: 'instagram_business_basic instagram_business_manage_insights' }, 'api.instagram.com'));
    expect(callbackParams(redirectUrl).get('code')).toBeTruthy();
    const old = callbackParams((await context.sandbox.authorize(dialogUrl({ scope: 'business_basic' }))).redirectUrl);
    expect(old.get('error')).toBe('invalid_scope');
  });

  it('answers token-endpoint errors in the error_type/code/error_message shape', async () => {
    const { sandbox } = context;
    const code = await codeFor();
    const errorOf = async (overrides: Record<string, string>) => (await postForm(tokenUrl(), exchangeFields(code, overrides))).body;
    expect(await errorOf({ code: `${code}#_` })).toEqual({ error_type: 'OAuthException', code: 400, error_message: 'Invalid authorization code' });
    expect((await errorOf({ redirect_uri: 'http://localhost:5174/auth/instagram/callback' })).error_message).toMatch(/redirect_uri is identical/);
    expect((await errorOf({ client_secret: 'wrong' })).error_message).toBe('Error validating client secret.');
    expect((await errorOf({ client_id: '1234' })).error_message).toBe('Invalid platform app');
    expect((await errorOf({ grant_type: 'client_credentials' })).error_message).toBe('Unsupported grant_type');
    const withoutSecret = await postForm(tokenUrl(), { client_id: sandbox.credentials.instagram.clientId, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code });
    expect(withoutSecret.body.error_message).toBe('Missing required field client_secret');

    expect((await postForm(tokenUrl(), exchangeFields(code))).status).toBe(200);
    expect(await errorOf({})).toMatchObject({ code: 400, error_message: 'This authorization code has been used' });
  });

  it('expires the short-lived token after an hour with Graph error 190/463', async () => {
    const shortLived = await shortLivedToken();
    context.clock.advance(HOUR);
    const me = await get(meUrl(shortLived));
    expect(me.status).toBe(400);
    expect(me.body.error).toMatchObject({ type: 'OAuthException', code: 190, error_subcode: 463, fbtrace_id: expect.any(String) });
    expect(me.body.error.message).toMatch(/^Error validating access token: Session has expired on \w+day, \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} P[DS]T\. The current time is /);
    expect((await get(exchangeUrl(shortLived))).body.error.code).toBe(190);
  });

  it('refreshes a long-lived token only once it is a day old, for another 60 days', async () => {
    const { clock } = context;
    const longLived = (await get(exchangeUrl(await shortLivedToken()))).body.access_token as string;
    const tooEarly = await get(refreshUrl(longLived));
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.error.message).toMatch(/24 hours/);

    clock.advance(DAY);
    const refreshed = await get(refreshUrl(longLived));
    expect(refreshed.body).toEqual({ access_token: expect.stringMatching(/^IGAAsbx/), token_type: 'bearer', expires_in: 5184000 });

    clock.advance(59 * DAY);
    expect((await get(meUrl(longLived))).body.error).toMatchObject({ code: 190, error_subcode: 463 });
    expect((await get(meUrl(refreshed.body.access_token))).status).toBe(200);
    expect((await get(refreshUrl(longLived))).body.error.code).toBe(190);
  });

  it('checks the exchange: client secret, grant type, token kind', async () => {
    const shortLived = await shortLivedToken();
    expect((await get(exchangeUrl(shortLived, 'wrong'))).body.error).toMatchObject({ code: 101, message: 'Error validating client secret.' });
    const wrongGrant = await get(context.sandbox.url(`https://graph.instagram.com/access_token?grant_type=fb_exchange_token&client_secret=x&access_token=${shortLived}`));
    expect(wrongGrant.body.error.code).toBe(100);
    const longLived = (await get(exchangeUrl(shortLived))).body.access_token as string;
    expect((await get(exchangeUrl(longLived))).body.error.code).toBe(100);
    expect((await get(context.sandbox.url(`https://graph.instagram.com/v25.0/access_token?grant_type=ig_exchange_token&client_secret=${context.sandbox.credentials.instagram.clientSecret}&access_token=${shortLived}`))).status).toBe(200);
  });

  it('answers Graph errors on the profile: missing token, unknown field, another node', async () => {
    const token = await shortLivedToken();
    expect((await get(context.sandbox.url('https://graph.instagram.com/me?fields=id'))).body.error).toMatchObject({ code: 2500 });
    expect((await get(meUrl('IGQWnope'))).body.error).toMatchObject({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
    expect((await get(meUrl(token, 'username,impressions'))).body.error).toMatchObject({ code: 100, message: expect.stringContaining('(impressions)') });
    expect((await get(context.sandbox.url(`https://graph.instagram.com/v25.0/17841400000000000?fields=id&access_token=${token}`))).body.error.code).toBe(100);
    // No fields: the id only; Bearer header and unversioned path work too.
    const bare = await get(context.sandbox.url('https://graph.instagram.com/me'), bearer(token));
    expect(bare.body).toEqual({ id: context.sandbox.accounts.instagram[0]!.id });
  });

  it('redirects Deny with error_reason and the #_ suffix', async () => {
    const { redirectUrl } = await context.sandbox.authorize(dialogUrl(), { deny: true });
    const callback = new URL(redirectUrl);
    expect(Object.fromEntries(callback.searchParams)).toEqual({ error: 'access_denied', error_reason: 'user_denied', error_description: 'The user denied your request.', state: 'ig-state' });
    expect(callback.hash).toBe('#_');
  });

  it('injects failures in each host’s own error shape', async () => {
    const { sandbox } = context;
    const code = await codeFor();
    sandbox.failNext('instagram', 'token', 'rate_limited');
    expect(await postForm(tokenUrl(), exchangeFields(code))).toMatchObject({ status: 429, body: { error_type: 'OAuthRateLimitException', code: 429 } });
    const shortLived = (await postForm(tokenUrl(), exchangeFields(code))).body.data[0].access_token as string;

    sandbox.failNext('instagram', 'token', 'invalid_grant');
    expect((await get(exchangeUrl(shortLived))).body.error).toMatchObject({ code: 190, error_subcode: 460 });
    sandbox.failNext('instagram', 'profile', 'rate_limited');
    const limited = await get(meUrl(shortLived));
    expect(limited.status).toBe(400);
    expect(limited.body.error).toMatchObject({ code: 4, is_transient: true });
    expect(JSON.parse(limited.headers.get('x-app-usage')!)).toMatchObject({ call_count: 100 });
    sandbox.failNext('instagram', 'profile', 'server_error');
    expect(await get(meUrl(shortLived))).toMatchObject({ status: 500, body: { error: { code: 2 } } });
  });
});
