// LinkedIn versions end to end: the configured LinkedIn-Version is sent; when LinkedIn answers 426 (the version is
// not active) the call is retried once with the previous published month, the fallback is logged, and the
// connection and its sync succeed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  // The test clock stands at 2026-11-02: 202701 is not released yet, 202611 (its predecessor) is active.
  server = await startTestServer({ stripe: true, platforms: true, env: { LINKEDIN_API_VERSION: '202701' } });
});
afterAll(async () => {
  await server?.close();
});

const fallbacksLogged = () => server.logLines.filter((line) => line.includes('"refusedVersion":"202701"') && line.includes('"fallbackVersion":"202611"')).length;

it('retries a 426 once with the previous published month, logs it, and connects and syncs', async () => {
  const sandbox = platformSandboxOf(server);
  const account = await signUpWithAccess(server);
  const followerCalls = sandbox.countCalls('linkedin', 'followers');
  const connected = await connect(server, account, 'linkedin');
  expect(connected.status).toBe(200);
  expect(connected.body).toMatchObject({ platform: 'linkedin', followers: expect.any(Number) });
  // The follower count twice: 426 with 202701, then 200 with 202611.
  expect(sandbox.countCalls('linkedin', 'followers')).toBe(followerCalls + 2);
  expect(fallbacksLogged()).toBe(1);

  const { status } = await syncNow(server, account.token, connected.body.id);
  expect(status).toMatchObject({ status: 'idle', message: null, lastSyncedAt: server.clock.now().toISOString() });
  expect(fallbacksLogged()).toBeGreaterThan(1);
});
