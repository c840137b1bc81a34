// The OAuth 2.0 flow of each of the six platforms, end to end over real HTTP: the real server and database,
// the Stripe sandbox for access, and the platform sandbox speaking each platform's wire format.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE, PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import { oauthStates, platformConnections } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import { createTokenCrypto, rowBinding } from '../../lib/token-crypto.ts';
import { type Account, authorizeAt, authUrl, platformSandboxOf, postCallback, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { pkceChallenge } from './platforms.service.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What each platform's real authorize request must carry (docs/platforms/). */
const AUTHORIZE: Record<PlatformName, { url: string; clientParam: string; scope: string; pkce: false | 'base64url' | 'hex'; extra?: Record<string, string> }> = {
  youtube: {
    url: 'https://accounts.google.com/o/oauth2/v2/auth',
    clientParam: 'client_id',
    scope: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/yt-analytics.readonly https://www.googleapis.com/auth/yt-analytics-monetary.readonly',
    pkce: 'base64url',
    extra: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  },
  instagram: { url: 'https://www.instagram.com/oauth/authorize', clientParam: 'client_id', scope: 'instagram_business_basic,instagram_business_manage_insights', pkce: false },
  tiktok: { url: 'https://www.tiktok.com/v2/auth/authorize/', clientParam: 'client_key', scope: 'user.info.basic,user.info.profile,user.info.stats,video.list', pkce: 'hex' }, // a non-https redirect (tiktok-pkce.test.ts)
  twitter: { url: 'https://x.com/i/oauth2/authorize', clientParam: 'client_id', scope: 'tweet.read users.read offline.access', pkce: 'base64url' },
  linkedin: { url: 'https://www.linkedin.com/oauth/v2/authorization', clientParam: 'client_id', scope: 'r_basicprofile r_member_profileAnalytics r_member_postAnalytics', pkce: false },
  patreon: { url: 'https://www.patreon.com/oauth2/authorize', clientParam: 'client_id', scope: 'identity campaigns campaigns.members', pkce: false },
};

/** The sandbox endpoints (as `calls` names them) a refresh of each platform goes to. */
const REFRESH_ENDPOINT: Record<PlatformName, string> = {
  youtube: 'token',
  instagram: 'refresh_token',
  tiktok: 'token',
  twitter: 'token',
  linkedin: 'token',
  patreon: 'token',
};
/** Platforms whose refresh answer carries a new refresh token that replaces the old one. */
const ROTATES = new Set<PlatformName>(['tiktok', 'twitter', 'patreon']);
const REVOCABLE = new Set<PlatformName>(['youtube', 'tiktok', 'twitter']);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function connectionRow(id: number) {
  const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, id));
  return row;
}

function decryptTokens(row: typeof platformConnections.$inferSelect) {
  const crypto = createTokenCrypto(server.config.encryptionKeys);
  return {
    accessToken: crypto.decrypt(row.accessToken!, rowBinding('platform_connections', row.id, 'access_token')),
    refreshToken: row.refreshToken ? crypto.decrypt(row.refreshToken, rowBinding('platform_connections', row.id, 'refresh_token')) : null,
  };
}

/** A fresh session after the clock moved past the session lifetime. */
async function signInAgain(account: Account): Promise<Account> {
  const login = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  expect(login.status).toBe(200);
  return { ...account, token: login.body.token };
}

describe('GET /api/platforms', () => {
  it('lists the six platforms with fixed ids, all available through the sandbox', async () => {
    const account = await signUpWithAccess(server);
    const response = await server.request('GET', '/api/platforms', { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body.map((platform: { id: number; name: string }) => [platform.id, platform.name])).toEqual([
      [1, 'YouTube'],
      [2, 'Instagram'],
      [3, 'TikTok'],
      [4, 'Twitter'],
      [5, 'LinkedIn'],
      [6, 'Patreon'],
    ]);
    for (const platform of response.body) {
      expect(platform).toMatchObject({ available: true, description: expect.any(String), supportsManualConnect: ['youtube', 'twitter'].includes(platform.key) });
    }
  });
});

describe.each(PLATFORM_NAMES.map((platform) => [platform] as const))('%s', (platform) => {
  const expected = AUTHORIZE[platform];
  let account: Account;
  let connectionId: number;

  beforeAll(async () => {
    server.clock.advance(60 * MINUTE); // fresh per-network sign-up windows
    account = await signUpWithAccess(server);
  });

  it('checklist 19: auth-url carries every parameter the platform requires, the documented scopes, the exact redirect URI under a spoofed Host, a fresh 256-bit state, S256 PKCE where supported, no secret or verifier, and a pending state for 10 minutes', async () => {
    const sandbox = platformSandboxOf(server);
    // A spoofed Host or X-Forwarded-Host never reaches the redirect URI.
    const response = await server.request('GET', `/api/oauth/${platform}/auth-url`, {
      token: account.token,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['authUrl']);
    const url = new URL(response.body.authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(sandbox.url(expected.url));
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      [expected.clientParam]: sandbox.credentials[platform].clientId,
      redirect_uri: `${TEST_PUBLIC_URL}/auth/${platform}/callback`,
      scope: expected.scope,
      ...expected.extra,
    });
    if (expected.clientParam === 'client_key') expect(params.client_id).toBeUndefined();
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43,}$/); // 256 random bits
    if (expected.pkce) {
      expect(params.code_challenge_method).toBe('S256');
      expect(params.code_challenge).toMatch(expected.pkce === 'hex' ? /^[0-9a-f]{64}$/ : /^[A-Za-z0-9_-]{43}$/);
    } else {
      expect(params.code_challenge).toBeUndefined();
      expect(params.code_challenge_method).toBeUndefined();
    }
    expect(response.body.authUrl).not.toContain(sandbox.credentials[platform].clientSecret);

    const [pending] = await server.db.select().from(oauthStates).where(eq(oauthStates.stateHash, sha256(params.state!)));
    expect(pending).toMatchObject({ userId: account.user.id, platform, redirectUri: `${TEST_PUBLIC_URL}/auth/${platform}/callback` });
    expect(pending!.expiresAt.getTime() - server.clock.now().getTime()).toBe(10 * MINUTE);
    if (expected.pkce) {
      // The verifier is stored encrypted, and is the one behind the challenge.
      expect(pending!.codeVerifier).toMatch(/^v1:/);
      const verifier = createTokenCrypto(server.config.encryptionKeys).decrypt(pending!.codeVerifier!, rowBinding('oauth_states', pending!.stateHash, 'code_verifier'));
      expect(pkceChallenge(verifier, expected.pkce)).toBe(params.code_challenge);
      expect(JSON.stringify(response.body)).not.toContain(verifier);
    } else {
      expect(pending!.codeVerifier).toBeNull();
    }

    const again = new URL(await authUrl(server, account, platform));
    expect(again.searchParams.get('state')).not.toBe(params.state);
    if (expected.pkce) expect(again.searchParams.get('code_challenge')).not.toBe(params.code_challenge);
  });

  it('connects through the consent page: code exchange, profile, connection listed with its profile data (checklist 26: the tokens rest as v1: envelopes)', async () => {
    const sandbox = platformSandboxOf(server);
    const demo = sandbox.accounts[platform][1]!;
    const tokenCallsBefore = sandbox.countCalls(platform, 'token');
    const { path, code, state } = await authorizeAt(server, account, platform, { account: 1 });
    expect(path).toBe(`/auth/${platform}/callback`);
    expect(code).toBeTruthy();

    const response = await postCallback(server, account, platform, { code, state });
    expect(response.status).toBe(200);
    expect(sandbox.countCalls(platform, 'token')).toBe(tokenCallsBefore + 1);
    expect(response.body).toMatchObject({
      platformId: PLATFORM_CATALOGUE[platform].id,
      platformName: PLATFORM_CATALOGUE[platform].name,
      platform,
      platformUserId: demo.id,
      platformUsername: demo.username,
      displayName: expect.any(String),
      followers: demo.followers ?? 0,
      isActive: true,
      manual: false,
      needsReconnect: false,
      // The first sync is queued by the connection itself (issue 25): no Sync click needed.
      syncStatus: 'queued',
      lastSyncedAt: null,
      connectedAt: server.clock.now().toISOString(),
    });
    connectionId = response.body.id;

    const list = await server.request('GET', '/api/platformconnections', { token: account.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([response.body]);

    // Tokens rest encrypted, bound to this row.
    const row = (await connectionRow(connectionId))!;
    expect(row.accessToken).toMatch(/^v1:/);
    if (row.refreshToken) expect(row.refreshToken).toMatch(/^v1:/);
    expect(sandbox.isRevoked(decryptTokens(row).accessToken)).toBe(false);

    const summary = await server.request('GET', '/api/analytics/summary', { token: account.token });
    expect(summary.body).toMatchObject({ totalFollowers: demo.followers ?? 0, connectedPlatforms: 1 });
  });

  it('refreshes an expired access token before using it, storing what the platform answers', async () => {
    const sandbox = platformSandboxOf(server);
    const before = (await connectionRow(connectionId))!;
    const tokensBefore = decryptTokens(before);
    expect(before.tokenExpiresAt).not.toBeNull();
    // Instagram is extended ahead of its 60 days; everyone else once the token has expired.
    const target = platform === 'instagram' ? before.tokenExpiresAt!.getTime() - 3 * DAY : before.tokenExpiresAt!.getTime() + MINUTE;
    server.clock.set(new Date(target));
    if (target - Date.parse(before.connectedAt.toISOString()) > 6 * DAY) account = await signInAgain(account);

    const refreshesBefore = sandbox.countCalls(platform, REFRESH_ENDPOINT[platform]);
    const { trigger, status: synced } = await syncNow(server, account.token, connectionId);
    expect(trigger.status).toBe(202);
    const after = (await connectionRow(connectionId))!;
    const tokensAfter = decryptTokens(after);

    if (platform === 'linkedin' && tokensBefore.refreshToken === null) {
      // No refresh token (LinkedIn issues them to approved partners only): the user must connect again.
      expect(synced).toMatchObject({ connectionId, status: 'failed', message: expect.stringContaining('Connect it again') });
      expect(after.needsReconnect).toBe(true);
      const list = await server.request('GET', '/api/platformconnections', { token: account.token });
      expect(list.body[0]).toMatchObject({ needsReconnect: true, syncStatus: 'failed' });
      return;
    }
    expect(synced).toMatchObject({ connectionId, status: 'idle', lastSyncedAt: server.clock.now().toISOString(), message: null });
    expect(sandbox.countCalls(platform, REFRESH_ENDPOINT[platform])).toBe(refreshesBefore + 1);
    expect(tokensAfter.accessToken).not.toBe(tokensBefore.accessToken);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(server.clock.now().getTime());
    if (ROTATES.has(platform)) {
      expect(tokensAfter.refreshToken).toBeTruthy();
      expect(tokensAfter.refreshToken).not.toBe(tokensBefore.refreshToken);
    } else {
      // Google (and LinkedIn) do not resend the refresh token: the stored one is kept.
      expect(tokensAfter.refreshToken).toBe(tokensBefore.refreshToken);
    }
    const list = await server.request('GET', '/api/platformconnections', { token: account.token });
    expect(list.body[0]).toMatchObject({ id: connectionId, needsReconnect: false, syncStatus: 'idle', lastSyncedAt: server.clock.now().toISOString() });

    // A second sync right away needs no refresh.
    await syncNow(server, account.token, connectionId);
    expect(sandbox.countCalls(platform, REFRESH_ENDPOINT[platform])).toBe(refreshesBefore + 1);
  });

  it('disconnects: revokes at the platform where it can, and keeps no token', async () => {
    const sandbox = platformSandboxOf(server);
    const row = (await connectionRow(connectionId))!;
    const tokens = decryptTokens(row);
    const revokesBefore = sandbox.countCalls(platform, 'revoke');

    const response = await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ disconnected: 1 });
    expect(sandbox.countCalls(platform, 'revoke')).toBe(revokesBefore + (REVOCABLE.has(platform) ? 1 : 0));
    // TikTok revokes the access token it is given; Google and X the refresh token (and with it the grant).
    if (REVOCABLE.has(platform)) expect(sandbox.isRevoked(platform === 'tiktok' ? tokens.accessToken : (tokens.refreshToken ?? tokens.accessToken))).toBe(true);
    expect(await connectionRow(connectionId)).toBeUndefined();
    expect((await server.request('GET', '/api/platformconnections', { token: account.token })).body).toEqual([]);
    expect((await server.request('DELETE', `/api/platformconnections/${connectionId}`, { token: account.token })).status).toBe(404);
  });

  it('disconnects every account of the platform through DELETE /api/oauth/{platform}/disconnect', async () => {
    const sandbox = platformSandboxOf(server);
    for (const index of [0, 2]) {
      const { code, state } = await authorizeAt(server, account, platform, { account: index });
      expect((await postCallback(server, account, platform, { code, state })).status).toBe(200);
    }
    const revokesBefore = sandbox.countCalls(platform, 'revoke');
    const response = await server.request('DELETE', `/api/oauth/${platform}/disconnect`, { token: account.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ disconnected: 2 });
    expect(sandbox.countCalls(platform, 'revoke')).toBe(revokesBefore + (REVOCABLE.has(platform) ? 2 : 0));
    expect((await server.request('GET', '/api/platformconnections', { token: account.token })).body).toEqual([]);
  });
});
