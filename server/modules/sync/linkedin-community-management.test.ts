// LinkedIn on a Community Management app (../shared/platform-apis-corrections.md rows 1–6): the member identified by
// /v2/me under r_basicprofile, follower history from memberFollowersCount q=dateRange under either reading of its
// values (gain or total: unverified, so a switch on both sides), post analytics over ranges LinkedIn accepts, paged,
// with an exclusive end; and connections made under the old Sign In scopes asked to reconnect once, keeping their data.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, platformConnections } from '../../db/schema.ts';
import { addDays } from '../../lib/dates.ts';
import { authUrl, connect, platformSandboxOf, signUpWithAccess, type Account } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const series = async (server: TestServer, connectionId: number, metricType: string) =>
  server.db
    .select({ date: accountMetrics.date, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, metricType)))
    .orderBy(asc(accountMetrics.date));

async function connectAndSync(server: TestServer, demoAccount: number): Promise<{ account: Account; connectionId: number }> {
  const account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'linkedin', { account: demoAccount });
  expect(connected.status).toBe(200);
  await server.sync.drain();
  return { account, connectionId: connected.body.id };
}

const SIGN_IN_SCOPE = 'email,openid,profile,r_member_postAnalytics,r_member_profileAnalytics';
const REASON = 'LinkedIn now connects through its Community Management product only: connect LinkedIn again once to keep syncing. Your history is kept.';

async function listed(server: TestServer, account: Account) {
  return (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
}

// Three servers: a demo LinkedIn account links to one user only, and each server's sandbox has three.
let server: TestServer;
let switches: TestServer;
let totals: TestServer;
beforeAll(async () => {
  [server, switches, totals] = await Promise.all([
    startTestServer({ stripe: true, platforms: true }),
    startTestServer({ stripe: true, platforms: true }),
    startTestServer({ stripe: true, platforms: true, env: { LINKEDIN_FOLLOWER_HISTORY: 'running_total' } }),
  ]);
  platformSandboxOf(totals).linkedin.followerHistory = 'running_total';
});
afterAll(async () => {
  await Promise.all([server?.close(), switches?.close(), totals?.close()]);
});

describe('LinkedIn on a Community Management app', () => {
  it('asks for its scopes only, identifies the member by /v2/me, and stores two years of follower totals and post analytics, paged', async () => {
    const sandbox = platformSandboxOf(server);
    const before = { posts: sandbox.countCalls('linkedin', 'post.analytics'), followers: sandbox.countCalls('linkedin', 'followers') };
    const account = await signUpWithAccess(server);
    const url = new URL(await authUrl(server, account, 'linkedin'));
    expect(url.searchParams.get('scope')).toBe('r_basicprofile r_member_profileAnalytics r_member_postAnalytics');
    const connected = await connect(server, account, 'linkedin', { account: 0 });
    expect(connected.status).toBe(200);
    const demo = sandbox.accounts.linkedin[0]!;
    // The name shown is the localized first and last name; the vanity name is the username.
    expect(connected.body).toMatchObject({
      platformUserId: demo.id,
      platformUsername: demo.username,
      displayName: 'Maya Lopez',
      avatarUrl: expect.stringContaining('/media.licdn.com/'),
      followers: demo.followers,
      needsReconnect: false,
    });
    await server.sync.drain();
    const connectionId = connected.body.id as number;

    const today = server.clock.now().toISOString().slice(0, 10);
    const followers = await series(server, connectionId, 'followers');
    // From the sync's first day (730 days back) to today, one total a day, ending at today's count.
    expect(followers).toHaveLength(731);
    expect(followers[0]!.date).toBe(addDays(today, -730));
    expect(followers.at(-1)).toEqual({ date: today, value: demo.followers });
    expect(followers.at(-2)).toEqual({ date: addDays(today, -1), value: demo.followers });
    expect(followers.every((row) => row.value >= 0 && row.value <= demo.followers!)).toBe(true);
    expect(followers[0]!.value).toBeLessThan(demo.followers!);

    // Post analytics: every day of the window (reached only by paging), none for today (the request's end is
    // exclusive and today is not over); MEMBERS_REACHED with DAILY would have been refused and failed the sync.
    for (const metric of ['impressions', 'reactions', 'comments', 'shares']) {
      const rows = await series(server, connectionId, metric);
      expect(rows, metric).toHaveLength(730);
      expect(rows.at(-1)!.date, metric).toBe(addDays(today, -1));
    }
    expect((await listed(server, account))[0]).toMatchObject({ syncStatus: 'idle', needsReconnect: false });
    // 730 days in ranges of at most 365 days, each 37 pages of at most 10: 4 queryTypes, and the follower history
    // beside the q=me count of the profile and of the sync. No range was refused (a refusal would add calls).
    expect(sandbox.countCalls('linkedin', 'post.analytics') - before.posts).toBe(4 * 2 * 37);
    expect(sandbox.countCalls('linkedin', 'followers') - before.followers).toBe(2 + 2 * 37);
  });

  it('a sandbox refusing ranges over 90 days: the sync asks for shorter ones and stores the same days', async () => {
    const sandbox = platformSandboxOf(switches);
    sandbox.linkedin.maxDateRangeDays = 90;
    try {
      const { connectionId } = await connectAndSync(switches, 0);
      expect(await series(switches, connectionId, 'impressions')).toHaveLength(730);
      expect(await series(switches, connectionId, 'followers')).toHaveLength(731);
    } finally {
      sandbox.linkedin.maxDateRangeDays = 365;
    }
  });

  it('values that cannot be gains (the sandbox serves totals, read as gains) store only today’s count, and the log says so', async () => {
    const sandbox = platformSandboxOf(switches);
    sandbox.linkedin.followerHistory = 'running_total';
    try {
      const { connectionId } = await connectAndSync(switches, 1);
      const today = switches.clock.now().toISOString().slice(0, 10);
      expect(await series(switches, connectionId, 'followers')).toEqual([{ date: today, value: sandbox.accounts.linkedin[1]!.followers }]);
      expect(switches.logLines.some((line) => line.includes('give a negative total') && line.includes('"followerHistory":"daily_gain"'))).toBe(true);
    } finally {
      sandbox.linkedin.followerHistory = 'daily_gain';
    }
  });

  it('LINKEDIN_FOLLOWER_HISTORY=running_total against totals stores the same daily totals as the gains reading against gains', async () => {
    const fromGains = await connectAndSync(switches, 2);
    const fromTotals = await connectAndSync(totals, 2);
    const expected = await series(switches, fromGains.connectionId, 'followers');
    expect(expected).toHaveLength(731);
    expect(await series(totals, fromTotals.connectionId, 'followers')).toEqual(expected);
  });
});

describe('a LinkedIn connection made under the Sign In scopes (openid profile)', () => {
  /** A connection as the old adapter stored it: Sign In scopes, and the member's OIDC sub as its id. */
  async function legacyConnection(demoAccount: number, storedId: (meId: string) => string) {
    const { account, connectionId } = await connectAndSync(server, demoAccount);
    const meId = platformSandboxOf(server).accounts.linkedin[demoAccount]!.id;
    await server.db.update(platformConnections).set({ scope: SIGN_IN_SCOPE, platformUserId: storedId(meId) }).where(eq(platformConnections.id, connectionId));
    const history = await series(server, connectionId, 'followers');
    expect(history.length).toBeGreaterThan(700);
    return { account, connectionId, meId, history };
  }

  it('is asked to reconnect once, in words; reconnecting takes it over under the /v2/me id with its history (the ids differ)', async () => {
    const { account, connectionId, meId, history } = await legacyConnection(1, () => 'oidcSub0001');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: REASON });
    expect(await listed(server, account)).toMatchObject([{ id: connectionId, needsReconnect: true, platformUserId: 'oidcSub0001' }]);
    // Asked again, the same words (not the generic "no longer accepts").
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'failed', message: REASON });

    const again = await connect(server, account, 'linkedin', { account: 1 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: connectionId, platformUserId: meId, needsReconnect: false });
    expect(await listed(server, account)).toHaveLength(1);
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(row!.scope).toBe('r_basicprofile,r_member_postAnalytics,r_member_profileAnalytics');
    await server.sync.drain();
    const kept = await series(server, connectionId, 'followers');
    expect(kept.slice(0, history.length - 1)).toEqual(history.slice(0, -1));
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
  });

  it('whose stored id is the /v2/me id is matched by it on reconnect', async () => {
    const { account, connectionId, meId } = await legacyConnection(2, (id) => id);
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'failed', message: REASON });
    const again = await connect(server, account, 'linkedin', { account: 2 });
    expect(again.body).toMatchObject({ id: connectionId, platformUserId: meId, needsReconnect: false });
    expect(await listed(server, account)).toHaveLength(1);
  });

  it('another member’s reconnect never takes it over, nor does a reconnect when two bear the member’s name', async () => {
    const account = await signUpWithAccess(totals);
    const maya = (await connect(totals, account, 'linkedin', { account: 0 })).body.id as number;
    await totals.db.update(platformConnections).set({ scope: SIGN_IN_SCOPE, platformUserId: 'oidcSubMaya' }).where(eq(platformConnections.id, maya));
    // Theo is another member: a connection of his own, Maya's still asking.
    const theo = (await connect(totals, account, 'linkedin', { account: 1 })).body;
    expect(theo).toMatchObject({ displayName: 'Theo Park', needsReconnect: false });
    expect(theo.id).not.toBe(maya);
    // Two superseded connections named Maya Lopez: neither is guessed.
    await totals.db.update(platformConnections).set({ scope: SIGN_IN_SCOPE, platformUserId: 'oidcSubMaya2', displayName: 'Maya Lopez' }).where(eq(platformConnections.id, theo.id));
    await totals.sync.drain();
    const again = await connect(totals, account, 'linkedin', { account: 0 });
    expect(again.status).toBe(200);
    expect([maya, theo.id]).not.toContain(again.body.id);
    const byId = new Map((await listed(totals, account)).map((connection: { id: number; needsReconnect: boolean }) => [connection.id, connection.needsReconnect]));
    expect([byId.get(maya), byId.get(theo.id), byId.get(again.body.id)]).toEqual([true, true, false]);
  });
});
