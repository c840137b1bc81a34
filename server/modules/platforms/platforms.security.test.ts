// OAuth state misuse, linking conflicts, platform failures, concurrent refresh, encryption at rest and key
// rotation, IDOR, manual connections and the secret scan (docs/security.md: OAuth connections, token encryption).
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_PLATFORM, PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import { openPostgres } from '../../db/client.ts';
import { oauthStates, platformConnections } from '../../db/schema.ts';
import { createTokenCrypto, rowBinding } from '../../lib/token-crypto.ts';
import { type Account, authorizeAt, authUrl, connect, platformSandboxOf, postCallback, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createPlatformsRepository } from './platforms.repository.ts';
import { createTokenCustody } from './token-custody.ts';

const MINUTE = 60_000;

let server: TestServer;
/** Every secret the platforms handed out during this file: none may appear in a response or a log line. */
const secrets = new Set<string>();

beforeAll(async () => {
  // A short deadline for the token endpoint that never answers (checklist 24); this file's calls are light.
  server = await startTestServer({ stripe: true, platforms: true, env: { PLATFORM_TIMEOUT_MS: '2000' } });
  const sandbox = platformSandboxOf(server);
  for (const { clientSecret } of Object.values(sandbox.credentials)) secrets.add(clientSecret);
  secrets.add(sandbox.appKeys.youtubeApiKey);
  secrets.add(sandbox.appKeys.twitterBearerToken);
});
afterAll(async () => {
  await server?.close();
});

const crypto = () => createTokenCrypto(server.config.encryptionKeys);

async function rowsOf(account: Account) {
  return server.db.select().from(platformConnections).where(eq(platformConnections.userId, account.user.id));
}

/** Remembers the tokens stored for the account's connections, for the secret scan. */
async function collectTokens(account: Account) {
  for (const row of await rowsOf(account)) {
    if (row.accessToken) secrets.add(crypto().decrypt(row.accessToken, rowBinding('platform_connections', row.id, 'access_token')));
    if (row.refreshToken) secrets.add(crypto().decrypt(row.refreshToken, rowBinding('platform_connections', row.id, 'refresh_token')));
  }
}

async function newAccount() {
  server.clock.advance(60 * MINUTE); // fresh per-network sign-up windows
  return signUpWithAccess(server);
}

describe('the callback rejects a bad state before any call to the platform', () => {
  const platforms: PlatformName[] = ['linkedin', 'patreon', 'instagram', 'youtube'];
  const otherPlatformThan = (platform: PlatformName): PlatformName => (platform === 'linkedin' ? 'patreon' : 'linkedin');
  /** Calls to any platform's token endpoints (Instagram's long-lived exchange and refresh included). */
  const tokenCallsByPlatform = () =>
    Object.fromEntries(PLATFORM_NAMES.map((name) => [name, platformSandboxOf(server).calls.filter((call) => call.platform === name && /token/.test(call.endpoint)).length]));

  async function rejected(account: Account, platform: PlatformName, body: Record<string, unknown>) {
    const response = await postCallback(server, account, platform, body);
    expect({ body, status: response.status }).toMatchObject({ status: 400 });
    expect(response.body).toMatchObject({ code: 'bad_request', message: expect.any(String) });
    return response.body.message as string;
  }

  it.each(platforms.map((platform) => [platform] as const))('checklist 20: %s: state null, missing, empty, unknown, expired, reused or Deny: 400, no call to the token endpoint, no row', async (platform) => {
    const alice = await newAccount();
    const before = tokenCallsByPlatform();

    // A real code from the platform, for every attempt (a leaked one, as an attacker would hold).
    const flow = await authorizeAt(server, alice, platform);
    secrets.add(flow.code!);
    expect(await rejected(alice, platform, { code: flow.code, state: null })).toMatch(/state is missing/);
    expect(await rejected(alice, platform, { code: flow.code })).toMatch(/state is missing/);
    expect(await rejected(alice, platform, { code: flow.code, state: '' })).toMatch(/state is missing/);
    expect(await rejected(alice, platform, { code: flow.code, state: randomBytes(32).toString('base64url') })).toMatch(/unknown or was already used/);

    // Expired: ten minutes and a second later.
    const late = await authorizeAt(server, alice, platform);
    secrets.add(late.code!);
    server.clock.advance(10 * MINUTE + 1000);
    expect(await rejected(alice, platform, { code: late.code, state: late.state })).toMatch(/expired/);

    // Deny at the platform: the web app posts the platform's error; the state is used up.
    const denied = await authorizeAt(server, alice, platform, { deny: true });
    expect(denied.code).toBeUndefined();
    expect(denied.error).toBeTruthy();
    expect(await rejected(alice, platform, { state: denied.state, error: denied.error, error_description: denied.error_description })).toContain(denied.error!);
    expect(await rejected(alice, platform, { state: denied.state, code: flow.code })).toMatch(/unknown or was already used/);

    expect(tokenCallsByPlatform()).toEqual(before);
    expect(await rowsOf(alice)).toEqual([]);

    // Reused: the same state after a successful connection.
    const good = await authorizeAt(server, alice, platform);
    expect((await postCallback(server, alice, platform, { code: good.code, state: good.state })).status).toBe(200);
    await collectTokens(alice);
    secrets.add(good.code!);
    const afterSuccess = tokenCallsByPlatform();
    expect(await rejected(alice, platform, { code: good.code, state: good.state })).toMatch(/unknown or was already used/);
    expect(tokenCallsByPlatform()).toEqual(afterSuccess);
    expect(await rowsOf(alice)).toHaveLength(1);
  });

  it.each(platforms.map((platform) => [platform] as const))("checklist 21: %s: another user's state, with a real code, is refused, exchanges nothing, connects no one, and is used up for its owner too", async (platform) => {
    const alice = await newAccount();
    const bob = await newAccount();
    const before = tokenCallsByPlatform();
    const stolen = await authorizeAt(server, alice, platform);
    secrets.add(stolen.code!);
    expect(await rejected(bob, platform, { code: stolen.code, state: stolen.state })).toMatch(/another account/);
    expect(await rejected(alice, platform, { code: stolen.code, state: stolen.state })).toMatch(/unknown or was already used/);
    expect(tokenCallsByPlatform()).toEqual(before);
    expect(await rowsOf(alice)).toEqual([]);
    expect(await rowsOf(bob)).toEqual([]);
  });

  it.each(platforms.map((platform) => [platform] as const))("checklist 22: %s: a state posted to another platform's callback is refused before any call; a valid flow calls only its own platform's token endpoint", async (platform) => {
    const alice = await newAccount();
    const before = tokenCallsByPlatform();
    const mixed = await authorizeAt(server, alice, platform);
    secrets.add(mixed.code!);
    expect(await rejected(alice, otherPlatformThan(platform), { code: mixed.code, state: mixed.state })).toMatch(/not started for/);
    expect(tokenCallsByPlatform()).toEqual(before);
    expect(await rowsOf(alice)).toEqual([]);

    // The state was used up by the mix-up; a fresh flow connects, calling only this platform's token endpoint.
    const good = await authorizeAt(server, alice, platform, { account: 1 });
    secrets.add(good.code!);
    expect((await postCallback(server, alice, platform, { code: good.code, state: good.state })).status).toBe(200);
    await collectTokens(alice);
    const after = tokenCallsByPlatform();
    for (const name of PLATFORM_NAMES) expect({ name, calls: after[name]! - before[name]! }).toEqual({ name, calls: name === platform ? (platform === 'instagram' ? 2 : 1) : 0 });
    expect((await server.request('DELETE', `/api/oauth/${platform}/disconnect`, { token: alice.token })).status).toBe(200);
  });

  it('answers 404 for an unknown platform and 400 for a malformed body', async () => {
    const account = await newAccount();
    expect((await server.request('GET', '/api/oauth/myspace/auth-url', { token: account.token })).status).toBe(404);
    expect((await server.request('GET', '/api/oauth/YouTube/auth-url', { token: account.token })).status).toBe(404);
    expect((await postCallback(server, account, 'myspace' as PlatformName, { code: 'x', state: 'y' })).status).toBe(404);
    expect((await postCallback(server, account, 'youtube', { code: 'x', state: 'y', extra: true })).status).toBe(400);
    expect((await postCallback(server, account, 'youtube', { code: 42, state: 'y' })).status).toBe(400);
    expect((await postCallback(server, account, 'youtube', { code: 'x'.repeat(5000), state: 'y' })).status).toBe(400);
    expect((await server.request('DELETE', '/api/platformconnections/abc', { token: account.token })).status).toBe(400);
    expect((await server.request('DELETE', '/api/platformconnections/0', { token: account.token })).status).toBe(400);
    expect((await server.request('DELETE', '/api/platformconnections/99999999999', { token: account.token })).status).toBe(400);
    expect((await server.request('POST', '/api/sync/platform/-1', { token: account.token })).status).toBe(400);
    expect((await server.request('DELETE', '/api/oauth/myspace/disconnect', { token: account.token })).status).toBe(404);
  });
});

describe('the code exchange', () => {
  it('checklist 20: happens once when the same state is posted twice at the same time', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const { code, state } = await authorizeAt(server, account, 'twitter');
    secrets.add(code!);
    const before = sandbox.countCalls('twitter', 'token');
    const responses = await Promise.all([1, 2].map(() => postCallback(server, account, 'twitter', { code, state })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
    expect(sandbox.countCalls('twitter', 'token')).toBe(before + 1);
    expect(await rowsOf(account)).toHaveLength(1);
    await collectTokens(account);
  });

  it('checklist 24: answers 409 when the platform account is linked to another user, leaving that link untouched', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const linked = await connect(server, first, 'patreon', { account: 2 });
    expect(linked.status).toBe(200);
    await collectTokens(first);
    const [before] = await rowsOf(first);

    const conflict = await connect(server, second, 'patreon', { account: 2 });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('another Analytics Hub account') });
    expect(await rowsOf(second)).toEqual([]);
    expect(await rowsOf(first)).toEqual([before]);
  });

  it('connecting the same account again updates the connection instead of adding one', async () => {
    const account = await newAccount();
    const first = await connect(server, account, 'tiktok', { account: 0 });
    const again = await connect(server, account, 'tiktok', { account: 0 });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await rowsOf(account)).toHaveLength(1);
    await collectTokens(account);
  });

  it.each([
    ['server_error', 502],
    ['malformed_json', 502],
    ['timeout', 502],
    ['rate_limited', 502],
    ['invalid_grant', 400],
  ] as const)('checklist 24: a token endpoint answering %s gives %i, a generic message, no rows, and a log line without secrets', async (failure, status) => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const { code, state } = await authorizeAt(server, account, 'youtube');
    secrets.add(code!);
    sandbox.failNext('youtube', 'token', failure);
    const logsBefore = server.logLines.length;
    const response = await postCallback(server, account, 'youtube', { code, state });
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(status === 400 ? /did not accept the authorization/ : /YouTube (could not complete the request|is busy)/);
    expect(JSON.stringify(response.body)).not.toMatch(/stack|Error:|oauth2\.googleapis|127\.0\.0\.1/);
    expect(await rowsOf(account)).toEqual([]);
    const logged = server.logLines.slice(logsBefore).filter((line) => line.includes('"operation":"token"'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('"platform":"youtube"');
  });

  it('checklist 24: a profile call failing after the exchange leaves no row', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const { code, state } = await authorizeAt(server, account, 'tiktok');
    secrets.add(code!);
    sandbox.failNext('tiktok', 'profile', 'server_error');
    expect((await postCallback(server, account, 'tiktok', { code, state })).status).toBe(502);
    expect(await rowsOf(account)).toEqual([]);
  });

  it.each(['youtube', 'tiktok', 'twitter', 'patreon'] as const)('checklist 24: %s: a token answer without the refresh token the platform always issues is refused, nothing stored', async (platform) => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const { code, state } = await authorizeAt(server, account, platform, { account: 2 });
    secrets.add(code!);
    sandbox.failNext(platform, 'token', 'no_refresh_token');
    const answer = await postCallback(server, account, platform, { code, state });
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/sent no refresh token, so the connection would stop within hours\. Nothing was saved: please connect again\.$/);
    expect(await rowsOf(account)).toEqual([]);
  });

  it('LinkedIn and Instagram issue no refresh token to most apps: their connections are made without one', async () => {
    for (const platform of ['linkedin', 'instagram'] as const) {
      const account = await newAccount();
      const { code, state } = await authorizeAt(server, account, platform, { account: 2 });
      platformSandboxOf(server).failNext(platform, 'token', 'no_refresh_token');
      expect((await postCallback(server, account, platform, { code, state })).status, platform).toBe(200);
      await server.request('DELETE', '/api/oauth/' + platform + '/disconnect', { token: account.token });
    }
  });

  it('checklist 23: a code issued for another authorization (PKCE binding) is refused by the platform: 400, nothing stored', async () => {
    const account = await newAccount();
    const victimFlow = await authorizeAt(server, account, 'youtube');
    const attackerFlow = await authorizeAt(server, account, 'youtube');
    secrets.add(victimFlow.code!);
    secrets.add(attackerFlow.code!);
    // The attacker's code with the victim's state: our stored verifier does not match the code's challenge.
    const response = await postCallback(server, account, 'youtube', { code: attackerFlow.code, state: victimFlow.state });
    expect(response.status).toBe(400);
    expect(await rowsOf(account)).toEqual([]);
  });

  it('enforces the per-user limit of connections per platform', async () => {
    const account = await newAccount();
    const now = server.clock.now();
    for (let index = 0; index < MAX_CONNECTIONS_PER_PLATFORM; index += 1) {
      await server.db.insert(platformConnections).values({ userId: account.user.id, platform: 'instagram', platformUserId: `seeded-${index}`, manual: true, connectedAt: now, updatedAt: now });
    }
    const response = await connect(server, account, 'instagram', { account: 2 });
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/at most 5 Instagram accounts/);
    expect(await rowsOf(account)).toHaveLength(MAX_CONNECTIONS_PER_PLATFORM);
  });
});

describe('access tokens', () => {
  async function expireConnection(id: number) {
    await server.db.update(platformConnections).set({ tokenExpiresAt: new Date(server.clock.now().getTime() - MINUTE) }).where(eq(platformConnections.id, id));
  }

  it('checklist 34: are refreshed once when ten sync requests need an expired token at the same time (one job)', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const connection = (await connect(server, account, 'tiktok', { account: 1 })).body;
    // The first syncs that connecting queued (this test's and earlier ones'), run before the token expires.
    await server.sync.drain();
    await expireConnection(connection.id);
    const before = sandbox.countCalls('tiktok', 'token');
    // Ten sync requests at once: one queued job, answered to all ten, and one refresh when it runs.
    const responses = await Promise.all(Array.from({ length: 10 }, () => server.request('POST', `/api/sync/platform/${connection.id}`, { token: account.token })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
    expect(new Set(responses.map((response) => response.body.jobId)).size).toBe(1);
    await server.sync.drain();
    expect(sandbox.countCalls('tiktok', 'token')).toBe(before + 1);
    await collectTokens(account);
  });

  it('checklist 34: ten jobs on two server processes needing one expired, rotating token: one refresh, all ten get the new token, the newest refresh token stored', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    // TikTok rotates refresh tokens and revokes the whole grant when a spent one comes back (reuse detection): a
    // second refresh with the old token would kill the connection.
    const connection = (await connect(server, account, 'tiktok', { account: 2 })).body;
    await collectTokens(account);
    await expireConnection(connection.id);
    const [before] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connection.id));
    const oldRefreshToken = crypto().decrypt(before!.refreshToken!, rowBinding('platform_connections', connection.id, 'refresh_token'));

    // A second process: its own custody (its own in-process single flight) and, on PostgreSQL, its own pool.
    const otherHandle = server.database.url ? openPostgres(server.database.url, { max: 5 }) : undefined;
    const custodyOn = (db: typeof server.db) =>
      createTokenCustody({
        repository: createPlatformsRepository(db),
        crypto: crypto(),
        clock: server.clock,
        config: { publicUrl: server.config.publicUrl, platforms: server.config.platforms, appKeys: server.config.platformAppKeys, timeoutMs: 5000 },
        logger: server.app.log,
      });
    const processes = [custodyOn(server.db), custodyOn(otherHandle?.db ?? server.db)];
    const refreshesBefore = sandbox.countCalls('tiktok', 'token');
    try {
      const tokens = await Promise.all(Array.from({ length: 10 }, (_, job) => processes[job % 2]!.accessTokenFor(connection.id)));
      expect(sandbox.countCalls('tiktok', 'token')).toBe(refreshesBefore + 1);
      const [after] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connection.id));
      const stored = {
        accessToken: crypto().decrypt(after!.accessToken!, rowBinding('platform_connections', connection.id, 'access_token')),
        refreshToken: crypto().decrypt(after!.refreshToken!, rowBinding('platform_connections', connection.id, 'refresh_token')),
      };
      secrets.add(stored.accessToken).add(stored.refreshToken);
      expect(new Set(tokens)).toEqual(new Set([stored.accessToken]));
      expect(stored.refreshToken).not.toBe(oldRefreshToken);
      // The grant is alive: nobody presented the spent refresh token again.
      expect(sandbox.isRevoked(stored.refreshToken)).toBe(false);
      expect(sandbox.isRevoked(stored.accessToken)).toBe(false);
      expect(after!.needsReconnect).toBe(false);
      expect(after!.tokenExpiresAt!.getTime()).toBeGreaterThan(server.clock.now().getTime());
    } finally {
      await otherHandle?.close();
    }
    // Frees the demo account for the tests below.
    expect((await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: account.token })).status).toBe(200);
  });

  it('a refresh the platform rejects marks the connection as needing reconnection', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const connection = (await connect(server, account, 'youtube', { account: 2 })).body;
    await collectTokens(account);
    await expireConnection(connection.id);
    sandbox.failNext('youtube', 'token', 'invalid_grant');
    const { trigger, status: synced } = await syncNow(server, account.token, connection.id);
    expect(trigger.status).toBe(202);
    expect(synced).toMatchObject({ status: 'failed', message: expect.stringContaining('Connect it again') });
    const [listed] = (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
    expect(listed).toMatchObject({ needsReconnect: true, syncStatus: 'failed' });
    const status = await server.request('GET', '/api/sync/status', { token: account.token });
    expect(status.body).toEqual([
      {
        connectionId: connection.id,
        platformName: 'YouTube',
        status: 'failed',
        pausedReason: null,
        pause: null,
        lastSyncedAt: null,
        nextRunAt: null,
        message: expect.stringContaining('Connect it again'),
        lastFailedAt: server.clock.now().toISOString(),
        attempts: 1,
        state: 'failed',
        missingParts: [],
        action: null,
      },
    ]);
    // Connecting again clears it.
    expect((await connect(server, account, 'youtube', { account: 2 })).body).toMatchObject({ id: connection.id, needsReconnect: false });
    await collectTokens(account);
  });

  it.each(['twitter', 'linkedin'] as const)("%s's invalid_request for a used code is a 400 in words on the callback, never a 502", async (platform) => {
    const account = await newAccount();
    // Demo account 2: the earlier tests linked account 0 of both platforms to other users.
    const { code, state } = await authorizeAt(server, account, platform, { account: 2 });
    secrets.add(code!);
    const first = await postCallback(server, account, platform, { code, state });
    expect(first.status).toBe(200);
    await collectTokens(account);
    // The same code again: X and LinkedIn answer 400 invalid_request, not invalid_grant.
    const { state: secondState } = await authorizeAt(server, account, platform, { account: 2 });
    const response = await postCallback(server, account, platform, { code, state: secondState });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/did not accept the authorization/);
    // Frees the demo account for the tests below.
    expect((await server.request('DELETE', `/api/platformconnections/${first.body.id}`, { token: account.token })).status).toBe(200);
  });

  it("X's invalid_request for a dead refresh token means reconnect, not an outage to retry", async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const connection = (await connect(server, account, 'twitter', { account: 1 })).body;
    await collectTokens(account);
    await expireConnection(connection.id);
    sandbox.failNext('twitter', 'token', 'invalid_grant');
    const { status: synced } = await syncNow(server, account.token, connection.id);
    expect(synced).toMatchObject({ status: 'failed', message: expect.stringContaining('Connect it again') });
    const [listed] = (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
    expect(listed).toMatchObject({ needsReconnect: true });
    // Nothing is left queued to retry it.
    expect(await server.sync.drain({ ignoreStartAfter: true })).toEqual([]);
    // Frees the demo account for the tests below.
    expect((await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: account.token })).status).toBe(200);
  });

  it('checklist 26: a token that no longer decrypts (copied from another row) marks the connection instead of crashing', async () => {
    const account = await newAccount();
    const first = (await connect(server, account, 'twitter', { account: 1 })).body;
    const second = (await connect(server, account, 'twitter', { account: 2 })).body;
    await collectTokens(account);
    const [source] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, first.id));
    await server.db.update(platformConnections).set({ accessToken: source!.accessToken }).where(eq(platformConnections.id, second.id));
    const { trigger, status: synced } = await syncNow(server, account.token, second.id);
    expect(trigger.status).toBe(202);
    expect(synced?.status).toBe('failed');
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, second.id));
    expect(row!.needsReconnect).toBe(true);
    expect(server.logLines.some((line) => line.includes('stored platform tokens are unreadable') && line.includes(`"connectionId":${second.id}`))).toBe(true);
  });

  it('checklist 27: are re-encrypted under a new key: readable before, resumable after a crash, idempotent, all under the new key, and readable with the new key alone', async () => {
    const account = await newAccount();
    // Demo account 1: account 0 is linked to a user of the state tests above.
    const connected = await connect(server, account, 'patreon', { account: 1 });
    expect(connected.status).toBe(200);
    const connection = connected.body;
    await collectTokens(account);
    const v1 = server.config.encryptionKeys[0]!;
    const v2 = { version: 'v2', key: randomBytes(32) };
    const custodyWith = (keys: typeof v1[], repository = createPlatformsRepository(server.db)) =>
      createTokenCustody({
        repository,
        crypto: createTokenCrypto(keys),
        clock: server.clock,
        config: { publicUrl: server.config.publicUrl, platforms: server.config.platforms, appKeys: server.config.platformAppKeys, timeoutMs: 1000 },
        logger: server.app.log,
      });
    const rotated = custodyWith([v2, v1]);
    const [stored] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connection.id));
    expect(stored!.accessToken).toMatch(/^v1:/);
    // v2 is current, and the v1 rows are still read before the job runs.
    expect(await rotated.accessTokenFor(connection.id)).toBe(crypto().decrypt(stored!.accessToken!, rowBinding('platform_connections', connection.id, 'access_token')));

    // The job dies after moving one row (a crash, a deploy): run again, it moves only what is left.
    const withTokens = (await server.db.select().from(platformConnections)).filter((row) => row.accessToken && !row.needsReconnect);
    expect(withTokens.length).toBeGreaterThan(2);
    const repository = createPlatformsRepository(server.db);
    let moved = 0;
    const crashing = custodyWith([v2, v1], {
      ...repository,
      async replaceTokensIfUnchanged(...args: Parameters<typeof repository.replaceTokensIfUnchanged>) {
        if (moved === 1) throw new Error('the process was killed');
        moved += 1;
        return repository.replaceTokensIfUnchanged(...args);
      },
    });
    await expect(crashing.reencryptTokens({ batchSize: 2 })).rejects.toThrow(/killed/);
    expect(moved).toBe(1);
    const rest = await rotated.reencryptTokens({ batchSize: 3 });
    expect(rest.reencrypted).toBeGreaterThanOrEqual(withTokens.length - 1);
    const rows = await server.db.select().from(platformConnections);
    for (const row of rows.filter((candidate) => candidate.accessToken && !candidate.needsReconnect)) {
      expect(row.accessToken).toMatch(/^v2:/);
      if (row.refreshToken) expect(row.refreshToken).toMatch(/^v2:/);
      // v1 removed: every row is still readable.
      expect(() => createTokenCrypto([v2]).decrypt(row.accessToken!, rowBinding('platform_connections', row.id, 'access_token'))).not.toThrow();
      if (row.refreshToken) expect(() => createTokenCrypto([v2]).decrypt(row.refreshToken!, rowBinding('platform_connections', row.id, 'refresh_token'))).not.toThrow();
    }
    expect(await custodyWith([v2]).accessTokenFor(connection.id)).toBe(await rotated.accessTokenFor(connection.id));
    expect((await rotated.reencryptTokens()).reencrypted).toBe(0);
    // Put the rows back under v1 for the rest of this file's server (which only knows v1).
    expect((await custodyWith([v1, v2]).reencryptTokens()).reencrypted).toBe(moved + rest.reencrypted);
    // Frees the demo account for the tests below.
    expect((await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: account.token })).status).toBe(200);
  });
});

describe('tokens under a key this server lacks', () => {
  it('checklist 27: are a configuration error, not a dead grant: the sync fails, the row is untouched, re-encryption aborts changing nothing', async () => {
    const account = await newAccount();
    const connection = (await connect(server, account, 'linkedin', { account: 2 })).body;
    await collectTokens(account);
    // As if the operator dropped key v7 from ENCRYPTION_KEYS while a row still used it.
    const foreign = `v7:${randomBytes(60).toString('base64')}`;
    await server.db.update(platformConnections).set({ accessToken: foreign }).where(eq(platformConnections.id, connection.id));
    const before = await server.db.select().from(platformConnections).orderBy(platformConnections.id);

    // The sync cannot run, and waits for a retry (the operator may put the key back) rather than giving up the grant.
    const { status: synced } = await syncNow(server, account.token, connection.id);
    expect(synced?.status).not.toBe('idle');
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connection.id));
    expect(row).toMatchObject({ needsReconnect: false, accessToken: foreign });
    expect(server.logLines.some((line) => line.includes('"event":"config.token_key_unavailable"') && line.includes(`"connectionId":${connection.id}`))).toBe(true);

    const custody = createTokenCustody({
      repository: createPlatformsRepository(server.db),
      crypto: createTokenCrypto([{ version: 'v2', key: randomBytes(32) }, server.config.encryptionKeys[0]!]),
      clock: server.clock,
      config: { publicUrl: server.config.publicUrl, platforms: server.config.platforms, appKeys: server.config.platformAppKeys, timeoutMs: 1000 },
      logger: server.app.log,
    });
    await expect(custody.reencryptTokens()).rejects.toThrow(/nothing was changed/);
    const after = await server.db.select().from(platformConnections).orderBy(platformConnections.id);
    expect(after.map(({ id, accessToken, refreshToken, needsReconnect }) => ({ id, accessToken, refreshToken, needsReconnect }))).toEqual(
      before.map(({ id, accessToken, refreshToken, needsReconnect }) => ({ id, accessToken, refreshToken, needsReconnect })),
    );
    // Frees the demo account and leaves no foreign envelope for the tests below.
    expect((await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: account.token })).status).toBe(200);
  });
});

describe('manual connections', () => {
  it('track a public YouTube channel by handle or URL and an X account by username, with no tokens', async () => {
    const sandbox = platformSandboxOf(server);
    const account = await newAccount();
    const channel = sandbox.accounts.youtube[0]!;
    const byHandle = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platformId: 1, handle: channel.username } });
    expect(byHandle.status).toBe(201);
    expect(byHandle.body).toMatchObject({ platform: 'youtube', platformUserId: channel.id, platformUsername: channel.username, followers: channel.followers, manual: true });
    const byUrl = await server.request('POST', '/api/platformconnections/connect', {
      token: account.token,
      body: { platform: 'youtube', url: `https://www.youtube.com/channel/${sandbox.accounts.youtube[1]!.id}` },
    });
    expect(byUrl.status).toBe(201);
    expect(byUrl.body.platformUserId).toBe(sandbox.accounts.youtube[1]!.id);

    const x = sandbox.accounts.twitter[0]!;
    const byUsername = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'twitter', url: `https://x.com/${x.username}` } });
    expect(byUsername.status).toBe(201);
    expect(byUsername.body).toMatchObject({ platform: 'twitter', platformUserId: x.id, followers: x.followers, manual: true });

    for (const row of await rowsOf(account)) expect(row).toMatchObject({ manual: true, accessToken: null, refreshToken: null });
    const { status: synced } = await syncNow(server, account.token, byHandle.body.id);
    expect(synced?.status).toBe('idle');
    // Disconnecting a manual connection revokes nothing.
    const revokes = sandbox.countCalls('youtube', 'revoke');
    expect((await server.request('DELETE', `/api/platformconnections/${byHandle.body.id}`, { token: account.token })).status).toBe(200);
    expect(sandbox.countCalls('youtube', 'revoke')).toBe(revokes);
  });

  it('answer 400 for platforms that need OAuth, and for unknown handles', async () => {
    const account = await newAccount();
    for (const platform of ['instagram', 'tiktok', 'linkedin', 'patreon']) {
      const response = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform, handle: 'someone' } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/connect it with OAuth/);
    }
    const unknown = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'youtube', handle: '@nobody-here' } });
    expect(unknown.status).toBe(400);
    expect((await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platformId: 9, handle: 'x' } })).status).toBe(404);
    expect((await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'youtube' } })).status).toBe(400);
    expect(await rowsOf(account)).toEqual([]);
  });
});

describe('another user', () => {
  it('checklist 16: gets 404 on my connection ids and never sees them listed (the matrix over every route: server/plugins/idor-matrix.test.ts)', async () => {
    const alice = await newAccount();
    const bob = await newAccount();
    const connection = (await connect(server, alice, 'linkedin', { account: 1 })).body;
    await collectTokens(alice);
    expect((await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: bob.token })).status).toBe(404);
    expect((await server.request('POST', `/api/sync/platform/${connection.id}`, { token: bob.token })).status).toBe(404);
    expect((await server.request('GET', '/api/platformconnections', { token: bob.token })).body).toEqual([]);
    expect((await server.request('GET', '/api/sync/status', { token: bob.token })).body).toEqual([]);
    expect((await server.request('DELETE', '/api/oauth/linkedin/disconnect', { token: bob.token })).body).toMatchObject({ disconnected: 0 });
    expect((await server.request('GET', '/api/analytics/summary', { token: bob.token })).body).toMatchObject({ totalFollowers: 0, connectedPlatforms: 0 });
    expect(await server.db.select().from(platformConnections).where(and(eq(platformConnections.id, connection.id), eq(platformConnections.userId, alice.user.id)))).toHaveLength(1);
  });

  it('without a subscription or trial gets 402 from every platform call but seeing and leaving its connections', async () => {
    server.clock.advance(60 * MINUTE);
    const account = (await server.signUp()) as Account;
    for (const [method, path] of [
      ['GET', '/api/platforms'],
      ['GET', '/api/oauth/youtube/auth-url'],
      ['POST', '/api/oauth/youtube/callback'],
      ['POST', '/api/platformconnections/connect'],
      ['PATCH', '/api/platformconnections/1'],
      ['POST', '/api/sync/platform/1'],
    ] as const) {
      const response = await server.request(method, path, { token: account.token, body: method === 'POST' || method === 'PATCH' ? { code: 'x', state: 'y' } : undefined });
      expect({ path, status: response.status }).toEqual({ path, status: 402 });
    }
    // The lapsed allowlist (server/plugins/access.ts): what a user needs to see and to leave.
    expect((await server.request('GET', '/api/platformconnections', { token: account.token })).body).toEqual([]);
    expect((await server.request('DELETE', '/api/oauth/youtube/disconnect', { token: account.token })).body).toMatchObject({ disconnected: 0 });
    expect((await server.request('GET', '/api/sync/status', { token: account.token })).body).toEqual([]);
    expect((await server.request('DELETE', '/api/platformconnections/999999', { token: account.token })).status).toBe(404);
    expect(await server.db.select().from(oauthStates).where(eq(oauthStates.userId, account.user.id))).toEqual([]);
  });
});

describe('platform secrets', () => {
  it('checklist 25: never appear in a response body, a response header or a log line', async () => {
    // Runs last in this file: everything above has connected, refreshed, failed and disconnected.
    const account = await newAccount();
    const url = await authUrl(server, account, 'youtube');
    expect(url).not.toContain(platformSandboxOf(server).credentials.youtube.clientSecret);
    expect(secrets.size).toBeGreaterThan(30);
    const haystacks = [...server.responseBodies, ...server.responseHeaders, ...server.logLines];
    for (const secret of secrets) {
      const leaks = haystacks.filter((text) => text.includes(secret));
      expect({ secret: `${secret.slice(0, 6)}…`, leaks: leaks.length }).toEqual({ secret: `${secret.slice(0, 6)}…`, leaks: 0 });
    }
  });
});
