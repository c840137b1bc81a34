// TikTok's PKCE (docs/platforms/tiktok.md#pkce, platform-apis-corrections.md rows 7-8): none on a web app's https
// redirect; on any other redirect (loopback, as in development) a challenge that is the lower-case hex of SHA-256 of
// the verifier, which the sandbox verifies at the token exchange as TikTok does.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformSandbox, type PlatformSandbox } from '../../../sandbox/platforms/platform-sandbox.ts';
import { oauthStates } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import { createTokenCrypto, rowBinding } from '../../lib/token-crypto.ts';
import { authorizeAt, postCallback, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { pkceChallenge } from './platforms.service.ts';

async function pendingVerifier(server: TestServer, state: string): Promise<string | null> {
  const [pending] = await server.db.select().from(oauthStates).where(eq(oauthStates.stateHash, sha256(state)));
  if (!pending?.codeVerifier) return null;
  return createTokenCrypto(server.config.encryptionKeys).decrypt(pending.codeVerifier, rowBinding('oauth_states', pending.stateHash, 'code_verifier'));
}

describe('TikTok on a non-https redirect (loopback, desktop-type at TikTok)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ stripe: true, platforms: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends S256 with the hex challenge of the stored verifier, and the sandbox accepts the exchange', async () => {
    const account = await signUpWithAccess(server);
    const { authUrl, code, state } = await authorizeAt(server, account, 'tiktok');
    const params = new URL(authUrl).searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[0-9a-f]{64}$/);
    const verifier = await pendingVerifier(server, state!);
    expect(pkceChallenge(verifier!, 'hex')).toBe(params.get('code_challenge'));
    expect(pkceChallenge(verifier!)).not.toBe(params.get('code_challenge'));
    const connected = await postCallback(server, account, 'tiktok', { code, state });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ platform: 'tiktok', isActive: true });
  });
});

describe('TikTok on an https redirect (a web app)', () => {
  const publicUrl = 'https://localhost:8443';
  let sandbox: PlatformSandbox;
  let server: TestServer;
  beforeAll(async () => {
    // The sandbox runs on the server's manual clock once the server exists.
    let now = () => new Date('2026-11-02T10:00:00Z');
    sandbox = await startPlatformSandbox({ now: () => now(), allowedRedirectUris: [`${publicUrl}/auth/tiktok/callback`] });
    server = await startTestServer({ stripe: true, platformSandbox: sandbox, env: { PUBLIC_URL: publicUrl } });
    now = () => server.clock.now();
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it('sends no PKCE and stores no verifier, and the connection completes', async () => {
    const account = await signUpWithAccess(server);
    const { authUrl, code, state } = await authorizeAt(server, account, 'tiktok');
    const params = new URL(authUrl).searchParams;
    expect(params.get('redirect_uri')).toBe(`${publicUrl}/auth/tiktok/callback`);
    expect(params.has('code_challenge')).toBe(false);
    expect(params.has('code_challenge_method')).toBe(false);
    expect(await pendingVerifier(server, state!)).toBeNull();
    const connected = await postCallback(server, account, 'tiktok', { code, state });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ platform: 'tiktok', isActive: true });
  });
});
