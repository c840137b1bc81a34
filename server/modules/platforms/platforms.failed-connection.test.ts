// A connection that fails after the code exchange: the platform already holds a new grant for us, and where it offers
// revocation (Google, X, TikTok) that grant is revoked, exactly once, unless a stored connection may share it. The
// platform sandbox records every revoke call and which tokens it revoked.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_PLATFORM, type PlatformName } from '#contract/platforms.ts';
import { platformConnections } from '../../db/schema.ts';
import { createTokenCrypto, rowBinding } from '../../lib/token-crypto.ts';
import { type Account, authorizeAt, connect, platformSandboxOf, postCallback, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function newAccount() {
  server.clock.advance(60 * 60_000); // fresh per-network sign-up windows
  return signUpWithAccess(server);
}

const rowsOf = (account: Account) => server.db.select().from(platformConnections).where(eq(platformConnections.userId, account.user.id));

/** Revoke calls made to the platform, and tokens its revoke endpoint revoked (not replay families), from now on. */
function watchRevocations(platform: PlatformName) {
  const sandbox = platformSandboxOf(server);
  const calls = sandbox.countCalls(platform, 'revoke');
  const revoked = sandbox.revokedTokens.filter((token) => token.platform === platform && token.reason === 'revoked').length;
  return {
    calls: () => sandbox.countCalls(platform, 'revoke') - calls,
    revokedTokens: () => sandbox.revokedTokens.filter((token) => token.platform === platform && token.reason === 'revoked').length - revoked,
  };
}

function storedAccessToken(row: typeof platformConnections.$inferSelect) {
  return createTokenCrypto(server.config.encryptionKeys).decrypt(row.accessToken!, rowBinding('platform_connections', row.id, 'access_token'));
}

describe('a connection failing after the token exchange', () => {
  it.each(['youtube', 'twitter', 'tiktok'] as const)('%s: a profile read failing revokes the new grant with exactly one revoke call; nothing is stored', async (platform) => {
    const account = await newAccount();
    const revocations = watchRevocations(platform);
    const { code, state } = await authorizeAt(server, account, platform, { account: 0 });
    platformSandboxOf(server).failNext(platform, 'profile', 'server_error');
    const answer = await postCallback(server, account, platform, { code, state });
    expect(answer.status).toBe(502);
    expect(await rowsOf(account)).toEqual([]);
    expect(revocations.calls()).toBe(1);
    // The grant is gone at the platform: its access and refresh tokens (TikTok and Google revoke both; X's refresh token takes its access token).
    expect(revocations.revokedTokens()).toBeGreaterThanOrEqual(1);
    expect(server.logLines.some((line) => line.includes('"event":"platform.unstored_grant_revoked"') && line.includes(`"platform":"${platform}"`))).toBe(true);
  });

  it('the per-platform limit refusing the account revokes the new grant', async () => {
    const account = await newAccount();
    const now = server.clock.now();
    for (let index = 0; index < MAX_CONNECTIONS_PER_PLATFORM; index += 1) {
      await server.db.insert(platformConnections).values({ userId: account.user.id, platform: 'youtube', platformUserId: `seeded-${index}`, manual: true, connectedAt: now, updatedAt: now });
    }
    const revocations = watchRevocations('youtube');
    const refused = await connect(server, account, 'youtube', { account: 1 });
    expect(refused.status).toBe(409);
    expect(revocations.calls()).toBe(1);
  });

  it('an account linked to another user is refused (409) without revoking: that user’s connection shares the grant and keeps working', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const linked = await connect(server, owner, 'tiktok', { account: 2 });
    expect(linked.status).toBe(200);
    const [ownersRow] = await rowsOf(owner);
    const revocations = watchRevocations('tiktok');
    const refused = await connect(server, other, 'tiktok', { account: 2 });
    expect(refused.status).toBe(409);
    expect(revocations.calls()).toBe(0);
    expect(platformSandboxOf(server).isRevoked(storedAccessToken(ownersRow!))).toBe(false);
    expect((await server.request('POST', `/api/sync/platform/${ownersRow!.id}`, { token: owner.token })).status).toBe(202);
  });

  it('a failed re-authorization of a working connection does not revoke the grant that connection uses', async () => {
    const account = await newAccount();
    const connected = await connect(server, account, 'youtube', { account: 2 });
    expect(connected.status).toBe(200);
    const [row] = await rowsOf(account);
    const revocations = watchRevocations('youtube');
    const { code, state } = await authorizeAt(server, account, 'youtube', { account: 2 });
    platformSandboxOf(server).failNext('youtube', 'profile', 'server_error');
    expect((await postCallback(server, account, 'youtube', { code, state })).status).toBe(502);
    expect(revocations.calls()).toBe(0);
    expect(platformSandboxOf(server).isRevoked(storedAccessToken(row!))).toBe(false);
  });

  it('a platform without a revoke call (Patreon) is left as it is: nothing stored, nothing called', async () => {
    const account = await newAccount();
    const { code, state } = await authorizeAt(server, account, 'patreon', { account: 1 });
    platformSandboxOf(server).failNext('patreon', 'profile', 'server_error');
    expect((await postCallback(server, account, 'patreon', { code, state })).status).toBe(502);
    expect(await rowsOf(account)).toEqual([]);
    expect(platformSandboxOf(server).countCalls('patreon', 'revoke')).toBe(0);
  });
});
