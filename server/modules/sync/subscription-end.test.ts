// When a trial ends (the Stripe sandbox's test clock on the server's manual clock): the account's syncs read
// `paused` (subscription_ended) and nothing runs in the background, while its owner still lists, exports and
// disconnects their connections and can delete the account; subscribing again resumes the syncs at once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { SUBSCRIPTION_ENDED_SYNC_MESSAGE } from '#contract/analytics.ts';
import { DELETE_CONFIRMATION_WORD } from '#contract/settings.ts';
import { syncStates, users } from '../../db/schema.ts';
import { type Account, connect } from '../../test/platforms.ts';
import { expireTrial, resubscribe, signUpWithTrialWithoutCard } from '../../test/subscriptions.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const HOUR = 3_600_000;

let server: TestServer;
let owner: Account;
let leaver: Account;
let linkedin: number;
let tiktok: number;

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  const first = await signUpWithTrialWithoutCard(server);
  const second = await signUpWithTrialWithoutCard(server);
  owner = first.account;
  leaver = second.account;
  linkedin = (await connect(server, owner, 'linkedin', { account: 0 })).body.id;
  tiktok = (await connect(server, owner, 'tiktok', { account: 0 })).body.id;
  expect((await connect(server, leaver, 'instagram', { account: 0 })).status).toBe(200);
  for (const id of [linkedin, tiktok]) expect((await syncNow(server, owner.token, id)).status).toMatchObject({ status: 'idle' });
  await server.sync.drain();
  // Both trials end (the later end is a second or so after the earlier).
  const trialEnd = new Date(Math.max(first.trialEnd.getTime(), second.trialEnd.getTime()));
  await expireTrial(server, owner, trialEnd);
  const login = await server.request('POST', '/api/auth/login', { body: { username: leaver.username, password: leaver.password } });
  leaver.token = login.body.token;
}, 300_000);
afterAll(async () => {
  await server?.close();
});

async function statuses(account: Account): Promise<ConnectionSyncStatus[]> {
  const response = await server.request<ConnectionSyncStatus[]>('GET', '/api/sync/status', { token: account.token });
  expect(response.status).toBe(200);
  return response.body;
}

describe('an account whose trial ended', () => {
  it('gets 402 from the premium calls, and sees every connection paused because the subscription ended', async () => {
    expect((await server.request('GET', '/api/analytics/summary', { token: owner.token })).status).toBe(402);
    expect((await server.request('POST', `/api/sync/platform/${linkedin}`, { token: owner.token })).status).toBe(402);
    const paused = await statuses(owner);
    expect(paused.map((entry) => entry.connectionId).sort()).toEqual([linkedin, tiktok].sort());
    for (const entry of paused) {
      expect(entry).toMatchObject({ status: 'paused', pausedReason: 'subscription_ended', message: SUBSCRIPTION_ENDED_SYNC_MESSAGE, nextRunAt: null });
      expect(entry.lastSyncedAt).not.toBeNull();
    }
  });

  it('has nothing synced in the background however long it waits', async () => {
    const before = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, linkedin));
    server.clock.advance(7 * HOUR);
    await server.sync.enqueueDue();
    await server.sync.drain();
    await server.youngPosts.enqueueDue();
    expect(await server.youngPosts.drain()).toEqual([]);
    const after = await server.db.select().from(syncStates).where(eq(syncStates.connectionId, linkedin));
    expect(after[0]).toMatchObject({ status: 'idle', lastSuccessAt: before[0]!.lastSuccessAt });
  });

  it('still lists its connections and exports its own data', async () => {
    const listed = await server.request('GET', '/api/platformconnections', { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((connection: { id: number }) => connection.id).sort()).toEqual([linkedin, tiktok].sort());
    const csv = await server.request('GET', '/api/analytics/export?format=csv&days=90', { token: owner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    expect(String(csv.body)).toContain('LinkedIn');
    const posts = await server.request('GET', '/api/content/export?format=csv', { token: owner.token });
    expect(posts.status).toBe(200);
  });

  it('resumes when it subscribes again: the statuses read as before and the connections are due at once', async () => {
    await resubscribe(server, owner);
    for (const entry of await statuses(owner)) {
      expect(entry).toMatchObject({ status: 'idle', pausedReason: null });
      expect(Date.parse(entry.nextRunAt!)).toBeLessThanOrEqual(server.clock.now().getTime());
    }
    await server.sync.enqueueDue();
    expect((await statuses(owner)).map((entry) => entry.status)).toEqual(['queued', 'queued']);
    await server.sync.drain();
    await server.youngPosts.drain();
    for (const entry of await statuses(owner)) expect(Date.parse(entry.lastSyncedAt!)).toBe(server.clock.now().getTime());
  });
});

describe('leaving without a card', () => {
  it('disconnects a platform by either route and deletes the account, with no subscription', async () => {
    const [connection] = (await server.request('GET', '/api/platformconnections', { token: leaver.token })).body;
    expect((await server.request('GET', '/api/analytics/summary', { token: leaver.token })).status).toBe(402);
    expect((await statuses(leaver))[0]).toMatchObject({ status: 'paused', pausedReason: 'subscription_ended' });
    const disconnected = await server.request('DELETE', `/api/platformconnections/${connection.id}`, { token: leaver.token });
    expect(disconnected.status).toBe(200);
    expect((await server.request('GET', '/api/platformconnections', { token: leaver.token })).body).toEqual([]);
    expect((await server.request('DELETE', '/api/oauth/instagram/disconnect', { token: leaver.token })).body).toMatchObject({ disconnected: 0 });
    // Another user's connection stays out of reach.
    expect((await server.request('DELETE', `/api/platformconnections/${linkedin}`, { token: leaver.token })).status).toBe(404);

    const deleted = await server.request('POST', '/api/settings/account/delete', {
      token: leaver.token,
      body: { currentPassword: leaver.password, confirmation: DELETE_CONFIRMATION_WORD },
    });
    expect(deleted.status).toBe(200);
    expect(await server.db.select().from(users).where(eq(users.username, leaver.username))).toEqual([]);
  });
});
