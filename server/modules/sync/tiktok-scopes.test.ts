// TikTok's consent page lets the user untick the optional scopes (user.info.profile, user.info.stats, video.list),
// and the sandbox answers scope_not_authorized outside the grant, as TikTok does. The connection must work with what
// was granted, say what is missing and which permission would add it, and never need a reconnect for it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, contentItems } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

async function metricTypes(connectionId: number) {
  const rows = await server.db.select({ type: accountMetrics.metricType }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId));
  return new Set(rows.map((row) => row.type));
}

describe('TikTok with optional scopes unticked', () => {
  it('connects and syncs with only user.info.basic, answering no follower count and naming the three missing permissions', async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'tiktok', { account: 0, scopes: [] });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ followers: null, platformUsername: null, needsReconnect: false });
    expect(connected.body.missingPermissions).toEqual([
      { permission: 'user.info.profile', label: 'Read your profile details', provides: ['username'] },
      { permission: 'user.info.stats', label: 'Read your profile statistics', provides: ['followers'] },
      { permission: 'video.list', label: 'Read your public videos', provides: ['videos', 'views', 'likes', 'comments', 'shares'] },
    ]);

    const videoListCalls = platformSandboxOf(server).countCalls('tiktok', 'video.list');
    const { status } = await syncNow(server, account.token, connected.body.id);
    expect(status).toMatchObject({ status: 'idle', message: null });
    // Nothing asked outside the grant, nothing stored as a zero for what was not granted.
    expect(platformSandboxOf(server).countCalls('tiktok', 'video.list')).toBe(videoListCalls);
    expect(await metricTypes(connected.body.id)).toEqual(new Set());
    expect(await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connected.body.id))).toEqual([]);

    const [listed] = (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
    expect(listed).toMatchObject({ id: connected.body.id, followers: null, needsReconnect: false, syncStatus: 'idle' });
  });

  it('with video.list but not user.info.stats: videos and their daily growth, followers missing', async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'tiktok', { account: 1, scopes: ['user.info.profile', 'video.list'] });
    expect(connected.status).toBe(200);
    expect(connected.body.followers).toBeNull();
    expect(connected.body.platformUsername).toEqual(expect.any(String));
    expect(connected.body.missingPermissions.map((missing: { permission: string }) => missing.permission)).toEqual(['user.info.stats']);

    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
    const items = await server.db.select().from(contentItems).where(eq(contentItems.connectionId, connected.body.id));
    expect(items.length).toBeGreaterThan(0);
    expect((await metricTypes(connected.body.id)).has('followers')).toBe(false);
  });

  it('connecting again with every permission ticked fills what was missing on the same connection', async () => {
    const account = await signUpWithAccess(server);
    const partial = await connect(server, account, 'tiktok', { account: 2, scopes: ['video.list'] });
    expect(partial.body.followers).toBeNull();
    const full = await connect(server, account, 'tiktok', { account: 2 });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ id: partial.body.id, followers: expect.any(Number), missingPermissions: [] });
    expect(full.body.followers).toBeGreaterThan(0);
  });

  it('every other platform answers an empty list (no granular consent to decline)', async () => {
    const account = await signUpWithAccess(server);
    for (const platform of ['youtube', 'instagram', 'twitter', 'linkedin', 'patreon'] as const) {
      const connected = await connect(server, account, platform, { account: 0 });
      expect(connected.status, platform).toBe(200);
      expect(connected.body.missingPermissions, platform).toEqual([]);
      expect(connected.body.followers, platform).toEqual(expect.any(Number));
    }
  });
});
