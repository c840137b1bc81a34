// What every platform shares: addressing, the consent page and its validation, the authorize() helper, injected
// failures, the call log and determinism of the demo data.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPlatformSandbox, tokenFingerprint } from './platform-sandbox.ts';
import { authorizeUrl, bearer, callbackParams, get, newState, pkcePair, postForm, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
/** A web app's https redirect, on which TikTok lets PKCE be left out (corrections row 7): these tests are not about PKCE. */
const TIKTOK_WEB_REDIRECT = 'https://app.example/auth/tiktok/callback';

beforeEach(async () => {
  context = await startTestSandbox({ allowedRedirectUris: [TIKTOK_WEB_REDIRECT] });
});

afterEach(async () => {
  await context.close();
});

const tiktokAuthorizeUrl = (params: Record<string, string> = {}) =>
  authorizeUrl(context.sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
    client_key: context.sandbox.credentials.tiktok.clientId,
    response_type: 'code',
    scope: 'user.info.basic,user.info.stats',
    redirect_uri: TIKTOK_WEB_REDIRECT,
    state: 'state-123',
    ...params,
  });

describe('addressing', () => {
  it('rewrites a real URL to <baseUrl>/<host><path>?<query>', () => {
    const { sandbox } = context;
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url('https://oauth2.googleapis.com/token')).toBe(`${sandbox.baseUrl}/oauth2.googleapis.com/token`);
    expect(sandbox.url('https://www.tiktok.com/v2/auth/authorize/?client_key=a&scope=b,c')).toBe(`${sandbox.baseUrl}/www.tiktok.com/v2/auth/authorize/?client_key=a&scope=b,c`);
    expect(() => sandbox.url('http://example.com/')).toThrow(TypeError);
  });

  it('answers 404 JSON for hosts and paths it does not serve', async () => {
    const unknownHost = await get(`${context.sandbox.baseUrl}/example.com/anything`);
    expect(unknownHost.status).toBe(404);
    expect(unknownHost.body).toMatchObject({ error: 'not_found' });
    const unknownPath = await get(context.sandbox.url('https://open.tiktokapis.com/v2/nothing/'));
    expect(unknownPath.status).toBe(404);
    expect(context.sandbox.countCalls('tiktok', 'unknown')).toBe(1);
  });

  it('lists the platforms on its index page', async () => {
    const index = await get(`${context.sandbox.baseUrl}/`);
    expect(index.status).toBe(200);
    for (const label of ['YouTube', 'Instagram', 'TikTok', 'X', 'LinkedIn', 'Patreon']) expect(index.text).toContain(label);
  });
});

describe('consent page', () => {
  it('is labelled, accessible, script-free HTML listing the demo accounts and requested scopes', async () => {
    const page = await get(tiktokAuthorizeUrl());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('Sandbox TikTok — no real account');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('name="viewport"');
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain('<legend>Choose a demo account</legend>');
    for (const account of context.sandbox.accounts.tiktok) expect(page.text).toContain(`${account.detail} · ${account.audience}`);
    expect(page.text).toContain('user.info.stats');
    expect(page.text).toMatch(/<button[^>]*value="allow">Authorize<\/button>/);
    expect(page.text).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
  });

  it('shows an error page, and does not redirect, for an unknown client or an unregistered redirect URI', async () => {
    const { sandbox } = context;
    const unknownClient = await get(tiktokAuthorizeUrl({ client_key: 'nope' }));
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.text).toContain('invalid_client');
    await expect(sandbox.authorize(tiktokAuthorizeUrl({ client_key: 'nope' }))).rejects.toThrow(/invalid_client|not registered/);

    for (const redirectUri of ['https://evil.example/auth/tiktok/callback', 'http://localhost:5173/auth/youtube/callback', 'http://localhost:5173/auth/tiktok/callback?x=1', 'http://localhost.evil.example/auth/tiktok/callback']) {
      await expect(sandbox.authorize(tiktokAuthorizeUrl({ redirect_uri: redirectUri })), redirectUri).rejects.toThrow(/redirect_uri/);
    }
    // Product bugs surface loudly: TikTok wants client_key, not client_id.
    const wrongParameter = tiktokAuthorizeUrl({ client_id: sandbox.credentials.tiktok.clientId });
    const url = new URL(wrongParameter);
    url.searchParams.delete('client_key');
    await expect(sandbox.authorize(url.href)).rejects.toThrow(/client_key/);
  });

  it('accepts any loopback port and path prefix, and exact allowedRedirectUris', async () => {
    const { sandbox } = context;
    for (const redirectUri of ['http://127.0.0.1:41999/auth/tiktok/callback', 'http://localhost:3000/app/auth/tiktok/callback']) {
      const { redirectUrl } = await sandbox.authorize(tiktokAuthorizeUrl({ redirect_uri: redirectUri }));
      expect(redirectUrl.startsWith(`${redirectUri}?`)).toBe(true);
    }
    const extra = await startPlatformSandbox({ allowedRedirectUris: ['https://staging.example.com/auth/tiktok/callback'] });
    try {
      const url = authorizeUrl(extra, 'https://www.tiktok.com/v2/auth/authorize/', {
        client_key: extra.credentials.tiktok.clientId,
        response_type: 'code',
        scope: 'user.info.basic',
        redirect_uri: 'https://staging.example.com/auth/tiktok/callback',
        state: 's',
      });
      const { redirectUrl } = await extra.authorize(url);
      expect(redirectUrl).toMatch(/^https:\/\/staging\.example\.com\/auth\/tiktok\/callback\?code=/);
    } finally {
      await extra.close();
    }
  });

  it('redirects request errors to the app: response_type, scopes, state, PKCE method', async () => {
    const { sandbox } = context;
    const errorOf = async (params: Record<string, string>) => Object.fromEntries(callbackParams((await sandbox.authorize(tiktokAuthorizeUrl(params))).redirectUrl));

    expect(await errorOf({ response_type: 'token' })).toMatchObject({ error: 'unsupported_response_type', state: 'state-123' });
    expect(await errorOf({ scope: 'user.info.basic,user.read' })).toMatchObject({ error: 'invalid_scope', error_description: expect.stringContaining('user.read') });
    // Space-separated is one unknown scope at TikTok.
    expect(await errorOf({ scope: 'user.info.basic user.info.stats' })).toMatchObject({ error: 'invalid_scope' });
    expect(await errorOf({ state: '' })).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('state') });
    expect(await errorOf({ code_challenge: pkcePair().challenge, code_challenge_method: 'MD5' })).toMatchObject({ error: 'invalid_request' });
  });

  it('answers each consent form once', async () => {
    const page = await get(tiktokAuthorizeUrl());
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)![1]!;
    const form = { request_id: requestId, account: '0', decision: 'allow', scope: 'user.info.basic' };
    const first = await fetch(tiktokAuthorizeUrl(), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    expect(first.status).toBe(302);
    const second = await postForm(tiktokAuthorizeUrl(), form);
    expect(second.status).toBe(400);
    expect(second.text).toContain('expired');
  });
});

describe('authorize()', () => {
  it('accepts URLs built on publicBaseUrl and links avatars there', async () => {
    const sandbox = await startPlatformSandbox({ publicBaseUrl: 'http://localhost:4010/sandbox/', allowedRedirectUris: [TIKTOK_WEB_REDIRECT] });
    try {
      const url = `http://localhost:4010/sandbox/www.tiktok.com/v2/auth/authorize/?${new URLSearchParams({
        client_key: sandbox.credentials.tiktok.clientId,
        response_type: 'code',
        scope: 'user.info.basic',
        redirect_uri: TIKTOK_WEB_REDIRECT,
        state: 'pub',
      })}`;
      const { redirectUrl } = await sandbox.authorize(url);
      expect(callbackParams(redirectUrl).get('state')).toBe('pub');
      const page = await get(sandbox.url(url.replace('http://localhost:4010/sandbox/', 'https://')));
      expect(page.text).toContain('src="http://localhost:4010/sandbox/p16-sign-va.tiktokcdn.com/sandbox-avatars/maya.svg"');
      await expect(sandbox.authorize('http://example.com/www.tiktok.com/v2/auth/authorize/')).rejects.toThrow(/Not a URL of this sandbox/);
    } finally {
      await sandbox.close();
    }
  });

  it('chooses the requested demo account and reports Deny as access_denied with the state', async () => {
    const { sandbox } = context;
    const denied = callbackParams((await sandbox.authorize(tiktokAuthorizeUrl(), { deny: true })).redirectUrl);
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('error_description')).toBeTruthy();
    expect(denied.get('state')).toBe('state-123');
    expect(denied.get('code')).toBeNull();

    await expect(sandbox.authorize(tiktokAuthorizeUrl(), { account: 3 })).rejects.toThrow(RangeError);
    await expect(sandbox.authorize(tiktokAuthorizeUrl(), { scopes: ['video.list'] })).rejects.toThrow(/cannot be chosen/);
  });
});

describe('failNext', () => {
  async function tiktokToken() {
    const { sandbox } = context;
    const { redirectUrl } = await sandbox.authorize(tiktokAuthorizeUrl());
    return { code: callbackParams(redirectUrl).get('code')!, credentials: sandbox.credentials.tiktok };
  }
  const exchange = (code: string) =>
    postForm(context.sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), {
      client_key: context.sandbox.credentials.tiktok.clientId,
      client_secret: context.sandbox.credentials.tiktok.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: TIKTOK_WEB_REDIRECT,
    });

  it('queues failures per platform and endpoint, first in first out, without consuming the code', async () => {
    const { sandbox } = context;
    const { code } = await tiktokToken();
    sandbox.failNext('tiktok', 'token', 'server_error');
    sandbox.failNext('tiktok', 'token', 'malformed_json');
    sandbox.failNext('tiktok', 'token', 'rate_limited');
    sandbox.failNext('tiktok', 'token', 'invalid_grant');

    const serverError = await exchange(code);
    expect(serverError.status).toBe(500);
    expect(serverError.body).toMatchObject({ error: 'server_error' });
    const malformed = await exchange(code);
    expect(malformed.status).toBe(200);
    expect(malformed.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(malformed.text)).toThrow(SyntaxError);
    const limited = await exchange(code);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limit_exceeded' });
    const invalid = await exchange(code);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'invalid_grant' });

    // The injected failures never reached the real handler, so the code still works once.
    const ok = await exchange(code);
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toMatch(/^act\.sbx-/);
    expect(sandbox.countCalls('tiktok', 'token')).toBe(5);
  });

  it('holds the response open for timeout, until the client gives up', async () => {
    const { sandbox } = context;
    const { code } = await tiktokToken();
    sandbox.failNext('tiktok', 'token', 'timeout');
    const attempt = fetch(sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_key: sandbox.credentials.tiktok.clientId, client_secret: sandbox.credentials.tiktok.clientSecret, code, grant_type: 'authorization_code', redirect_uri: TIKTOK_WEB_REDIRECT }),
      signal: AbortSignal.timeout(150),
    });
    await expect(attempt).rejects.toThrow(/aborted|timeout/i);
    expect(sandbox.countCalls('tiktok', 'token')).toBe(1);
    expect((await exchange(code)).status).toBe(200);
  });

  it('refuses endpoints a platform does not have', () => {
    expect(() => context.sandbox.failNext('linkedin', 'revoke', 'server_error')).toThrow(/no revoke endpoint/);
    expect(() => context.sandbox.failNext('instagram', 'revoke', 'server_error')).toThrow(/no revoke endpoint/);
    expect(() => context.sandbox.failNext('patreon', 'revoke', 'server_error')).toThrow(/no revoke endpoint/);
  });
});

describe('call log and secrets', () => {
  it('records every request with its endpoint, but never query strings, codes or tokens', async () => {
    const { sandbox, clock } = context;
    const { verifier, challenge } = pkcePair('hex');
    const state = newState();
    const { redirectUrl } = await sandbox.authorize(tiktokAuthorizeUrl({ state, code_challenge: challenge, code_challenge_method: 'S256' }));
    const code = callbackParams(redirectUrl).get('code')!;
    const token = await postForm(sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), {
      client_key: sandbox.credentials.tiktok.clientId,
      client_secret: sandbox.credentials.tiktok.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: TIKTOK_WEB_REDIRECT,
      code_verifier: verifier,
    });
    await get(sandbox.url('https://open.tiktokapis.com/v2/user/info/?fields=open_id'), bearer(token.body.access_token));

    expect(sandbox.calls.map((call) => `${call.method} ${call.endpoint} ${call.path}`)).toEqual([
      'GET authorize /www.tiktok.com/v2/auth/authorize/',
      'POST consent /www.tiktok.com/v2/auth/authorize/',
      'POST token /open.tiktokapis.com/v2/oauth/token/',
      'GET profile /open.tiktokapis.com/v2/user/info/',
    ]);
    expect(sandbox.calls.every((call) => call.platform === 'tiktok' && call.at.getTime() === clock.now().getTime())).toBe(true);
    const logged = JSON.stringify(sandbox.calls);
    for (const secret of [code, token.body.access_token, token.body.refresh_token, verifier, state, sandbox.credentials.tiktok.clientSecret]) expect(logged).not.toContain(secret);
    expect(sandbox.countCalls('tiktok', 'profile')).toBe(1);
  });

  it('keeps the sandbox silent about secrets in its logs', async () => {
    const lines: string[] = [];
    const logger = { info: (o: object, m?: string) => lines.push(`${m} ${JSON.stringify(o)}`), warn: (o: object, m?: string) => lines.push(`${m} ${JSON.stringify(o)}`) };
    const sandbox = await startPlatformSandbox({ logger, allowedRedirectUris: [TIKTOK_WEB_REDIRECT] });
    try {
      const url = authorizeUrl(sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
        client_key: sandbox.credentials.tiktok.clientId,
        response_type: 'code',
        scope: 'user.info.basic',
        redirect_uri: TIKTOK_WEB_REDIRECT,
        state: 'st',
      });
      const code = callbackParams((await sandbox.authorize(url)).redirectUrl).get('code')!;
      const token = await postForm(sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), {
        client_key: sandbox.credentials.tiktok.clientId,
        client_secret: sandbox.credentials.tiktok.clientSecret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: TIKTOK_WEB_REDIRECT,
      });
      expect(lines.length).toBeGreaterThan(0);
      const text = lines.join('\n');
      for (const secret of [code, token.body.access_token, token.body.refresh_token, sandbox.credentials.tiktok.clientSecret]) expect(text).not.toContain(secret);
    } finally {
      await sandbox.close();
    }
  });

  it('lists revoked tokens by fingerprint', async () => {
    const { sandbox } = context;
    const code = callbackParams((await sandbox.authorize(tiktokAuthorizeUrl())).redirectUrl).get('code')!;
    const token = await postForm(sandbox.url('https://open.tiktokapis.com/v2/oauth/token/'), {
      client_key: sandbox.credentials.tiktok.clientId,
      client_secret: sandbox.credentials.tiktok.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: TIKTOK_WEB_REDIRECT,
    });
    expect(sandbox.isRevoked(token.body.access_token)).toBe(false);
    const revoked = await postForm(sandbox.url('https://open.tiktokapis.com/v2/oauth/revoke/'), {
      client_key: sandbox.credentials.tiktok.clientId,
      client_secret: sandbox.credentials.tiktok.clientSecret,
      token: token.body.access_token,
    });
    expect(revoked.status).toBe(200);
    expect(sandbox.isRevoked(token.body.access_token)).toBe(true);
    expect(sandbox.isRevoked(token.body.refresh_token)).toBe(true);
    expect(sandbox.revokedTokens).toEqual([
      expect.objectContaining({ platform: 'tiktok', tokenType: 'access_token', account: 0, reason: 'revoked', fingerprint: tokenFingerprint(token.body.access_token) }),
      expect.objectContaining({ platform: 'tiktok', tokenType: 'refresh_token', account: 0, reason: 'revoked', fingerprint: tokenFingerprint(token.body.refresh_token) }),
    ]);
  });
});

describe('demo data', () => {
  it('is the same on every start; credentials and tokens are not', async () => {
    // On the same clock: Patreon's patron count is the paying members at the clock, and moves from day to day.
    const other = await startPlatformSandbox({ now: context.clock.now });
    try {
      // LinkedIn's member ids are app-scoped (corrections rule 4): another start is another app, with other ids.
      const withoutLinkedinIds = (accounts: typeof other.accounts) => ({ ...accounts, linkedin: accounts.linkedin.map(({ id: _id, ...account }) => account) });
      expect(withoutLinkedinIds(other.accounts)).toEqual(withoutLinkedinIds(context.sandbox.accounts));
      expect(other.accounts.linkedin[0]!.id).not.toBe(context.sandbox.accounts.linkedin[0]!.id);
      expect(other.credentials.youtube.clientSecret).not.toBe(context.sandbox.credentials.youtube.clientSecret);
      expect(other.appKeys.twitterBearerToken).not.toBe(context.sandbox.appKeys.twitterBearerToken);
    } finally {
      await other.close();
    }
    for (const accounts of Object.values(context.sandbox.accounts)) {
      expect(accounts).toHaveLength(3);
      expect(new Set(accounts.map((account) => account.id)).size).toBe(3);
    }
  });

  it('serves the avatar images it links to', async () => {
    const url = /<img src="([^"]+)"/.exec((await get(tiktokAuthorizeUrl())).text)![1]!;
    const image = await get(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(image.text).toContain('<svg');
    expect(context.sandbox.countCalls('tiktok', 'avatar')).toBe(1);
  });
});
