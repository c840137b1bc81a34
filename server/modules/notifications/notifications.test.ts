// Issue 15, alerts: the reconnect alert end to end on the real server and database. A connection whose token the
// platform will not renew stops syncing; its owner gets exactly one notice and one email per occurrence (however
// often the sync gives up, and whichever process gets there first), none with the alert turned off; the email's
// one-click unsubscribe turns the kind off; notices are the owner's alone.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#contract/notifications.ts';
import type { PlatformName } from '#contract/platforms.ts';
import { platformConnections } from '../../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import type { CapturedMail } from '../../test/smtp-capture.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { FOLLOWER_MILESTONES, milestoneLabel } from './follower-milestones.ts';

const MINUTE = 60_000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/**
 * Each user links their own sandbox account (one platform account belongs to one user; the sandbox has three per
 * platform); connecting again links the same one.
 */
const sandboxAccounts = new Map<Account, { platform: PlatformName; index: number }>();
const usedPerPlatform = new Map<PlatformName, number>();
async function connectTo(account: Account, platform: PlatformName) {
  if (!sandboxAccounts.has(account)) {
    const index = usedPerPlatform.get(platform) ?? 0;
    usedPerPlatform.set(platform, index + 1);
    sandboxAccounts.set(account, { platform, index });
  }
  const response = await connect(server, account, platform, { account: sandboxAccounts.get(account)!.index });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

/** The access token expires and the platform refuses to renew it: the sync gives up until the user reconnects. */
async function breakAndSync(account: Account, connectionId: number) {
  const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
  server.clock.set(new Date(Math.max(server.clock.now().getTime(), row!.tokenExpiresAt!.getTime() + MINUTE)));
  platformSandboxOf(server).failNext(sandboxAccounts.get(account)!.platform, 'token', 'invalid_grant');
  return syncNow(server, account.token, connectionId);
}

const alertMails = (account: Account) => server.smtp.messages.filter((mail) => mail.to.includes(account.email) && /needs reconnecting/.test(mail.subject));

async function notices(account: Account): Promise<{ notifications: Notification[]; unreadCount: number }> {
  const response = await server.request('GET', '/api/notifications', { token: account.token });
  expect(response.status).toBe(200);
  return response.body;
}

function oneClickUrl(mail: CapturedMail): string {
  const line = mail.parsed.headerLines.find((header) => header.key === 'list-unsubscribe')?.line ?? '';
  const url = /<([^>]+)>/.exec(line)?.[1];
  if (!url) throw new Error('no List-Unsubscribe URL');
  return url.replace(TEST_PUBLIC_URL, server.baseUrl);
}

describe('alert settings', () => {
  it('every kind is on by default; PATCH turns any of them off or on, and refuses unknown or empty changes', async () => {
    const account = await server.signUp();
    const defaults = await server.request('GET', '/api/settings/alerts', { token: account.token });
    expect(defaults.body).toEqual({ reconnect: true, topPost: true, followerMilestone: true });
    const off = await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: { topPost: false } });
    expect(off.body).toEqual({ reconnect: true, topPost: false, followerMilestone: true });
    expect((await server.request('GET', '/api/settings/alerts', { token: account.token })).body).toEqual(off.body);
    expect((await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: {} })).status).toBe(400);
    expect((await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: { sms: true } })).status).toBe(400);
    expect((await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: { reconnect: 'no' } })).status).toBe(400);
    expect((await server.request('GET', '/api/settings/alerts')).status).toBe(401);
    expect((await server.request('GET', '/api/notifications')).status).toBe(401);
  });
});

describe('the reconnect alert', () => {
  it('one notice and one email when a sync stops because the connection needs reconnecting, however often it gives up', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'twitter');
    expect(await notices(account)).toEqual({ notifications: [], unreadCount: 0 });

    const { status } = await breakAndSync(account, connectionId);
    expect(status).toMatchObject({ status: 'failed', message: expect.stringContaining('Connect it again') });
    const first = await notices(account);
    expect(first.unreadCount).toBe(1);
    expect(first.notifications).toEqual([
      expect.objectContaining({ kind: 'reconnect', connectionId, platform: 'twitter', title: expect.stringMatching(/^Reconnect Twitter /), readAt: null }),
    ]);
    expect(first.notifications[0]!.body).toContain('Connect it again');
    const mails = alertMails(account);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Twitter needs reconnecting');
    expect(mails[0]!.text).toContain(`${TEST_PUBLIC_URL}/platforms`);
    expect(mails[0]!.text).toMatch(new RegExp(`${TEST_PUBLIC_URL}/unsubscribe\\?token=[^\\s&]+&topic=alert%3Areconnect`));
    expect(mails[0]!.parsed.headerLines.find((header) => header.key === 'list-unsubscribe-post')?.line).toMatch(/List-Unsubscribe=One-Click/);

    // The user presses Sync again before reconnecting: the same occurrence, no second alert.
    const again = await syncNow(server, account.token, connectionId);
    expect(again.status).toMatchObject({ status: 'failed' });
    // Two processes, or a retried job, reaching the same give-up at once: still one.
    await Promise.all([
      server.notifications.connectionNeedsUser({ connectionId, message: 'Twitter no longer accepts this connection. Connect it again.' }),
      server.notifications.connectionNeedsUser({ connectionId, message: 'Twitter no longer accepts this connection. Connect it again.' }),
    ]);
    expect((await notices(account)).notifications).toHaveLength(1);
    expect(alertMails(account)).toHaveLength(1);

    // Reconnecting starts a new episode: the next break is a new occurrence with its own alert.
    await connectTo(account, 'twitter');
    await breakAndSync(account, connectionId);
    expect((await notices(account)).notifications).toHaveLength(2);
    expect(alertMails(account)).toHaveLength(2);
  });

  it('nothing when the reconnect alert is turned off', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'twitter');
    await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: { reconnect: false } });
    const { status } = await breakAndSync(account, connectionId);
    expect(status).toMatchObject({ status: 'failed' });
    expect(await notices(account)).toEqual({ notifications: [], unreadCount: 0 });
    expect(alertMails(account)).toHaveLength(0);
  });

  it("the email's one-click unsubscribe turns the reconnect alert off, and only it", async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'twitter');
    await breakAndSync(account, connectionId);
    const [mail] = alertMails(account);
    const response = await fetch(oneClickUrl(mail!), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message: string }).message).toMatch(/unsubscribed.*reconnect alert/);
    expect((await server.request('GET', '/api/settings/alerts', { token: account.token })).body).toEqual({ reconnect: false, topPost: true, followerMilestone: true });
    // The reports are a different topic: untouched.
    expect((await server.request('GET', '/api/reports/preferences', { token: account.token })).body).toMatchObject({ frequency: 'off', saved: false });
    await connectTo(account, 'twitter');
    await breakAndSync(account, connectionId);
    expect(alertMails(account)).toHaveLength(1);
    expect((await notices(account)).notifications).toHaveLength(1);
  });

  it('a connection marked for reconnection outside a sync is announced by the scan, once, and its give-up adds nothing', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'youtube');
    await server.notifications.scanReconnects();
    expect((await notices(account)).notifications).toEqual([]);
    // As a YouTube on-demand read does when Google refuses the token.
    await server.db.update(platformConnections).set({ needsReconnect: true }).where(eq(platformConnections.id, connectionId));
    expect(await server.notifications.scanReconnects()).toBeGreaterThanOrEqual(1);
    // Nothing left to announce: the next tick finds no connection at all.
    expect(await server.notifications.scanReconnects()).toBe(0);
    const { notifications } = await notices(account);
    expect(notifications).toEqual([expect.objectContaining({ kind: 'reconnect', connectionId, platform: 'youtube', body: expect.stringContaining('YouTube no longer accepts this connection') })]);
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'failed' });
    expect((await notices(account)).notifications).toHaveLength(1);
    expect(alertMails(account)).toHaveLength(1);
  });

  it('the scan alerts no account whose trial or subscription ended, and alerts it once it subscribes again', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'instagram');
    await server.db.execute(sql`update subscriptions set status = 'canceled', trial_end = ${server.clock.now().toISOString()}::timestamptz where user_id = ${account.user.id}`);
    await server.db.update(platformConnections).set({ needsReconnect: true }).where(eq(platformConnections.id, connectionId));
    await server.notifications.scanReconnects();
    expect((await notices(account)).notifications).toEqual([]);
    expect(alertMails(account)).toHaveLength(0);

    await server.db.execute(sql`update subscriptions set status = 'active' where user_id = ${account.user.id}`);
    await server.notifications.scanReconnects();
    expect((await notices(account)).notifications).toEqual([expect.objectContaining({ kind: 'reconnect', connectionId })]);
    await server.mailer.idle();
    expect(alertMails(account)).toHaveLength(1);
  });

  it("marks a notice read; another user's notice is not found", async () => {
    const account = await signUpWithAccess(server);
    const other = (await server.signUp()) as Account;
    const connectionId = await connectTo(account, 'tiktok');
    await breakAndSync(account, connectionId);
    const [notice] = (await notices(account)).notifications;

    expect((await server.request('POST', `/api/notifications/${notice!.id}/read`, { token: other.token })).status).toBe(404);
    expect((await server.request('POST', '/api/notifications/999999999/read', { token: account.token })).status).toBe(404);
    expect((await server.request('POST', '/api/notifications/abc/read', { token: account.token })).status).toBe(400);
    expect((await notices(other)).notifications).toEqual([]);

    const read = await server.request('POST', `/api/notifications/${notice!.id}/read`, { token: account.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ notification: { ...notice, readAt: server.clock.now().toISOString() }, unreadCount: 0 });
    // Reading it again keeps the first time.
    server.clock.advance(MINUTE);
    const again = await server.request('POST', `/api/notifications/${notice!.id}/read`, { token: account.token });
    expect(again.body.notification.readAt).toBe(read.body.notification.readAt);
    expect((await notices(account)).unreadCount).toBe(0);
  });
});

describe('the follower milestone alert', () => {
  /** Puts the stored count just under the highest milestone the sandbox account has reached: the next sync passes it. */
  async function justBelowMilestone(connectionId: number, account: Account) {
    await syncNow(server, account.token, connectionId);
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    const milestone = FOLLOWER_MILESTONES.filter((step) => step <= row!.followers).at(-1)!;
    await server.db.update(platformConnections).set({ followers: milestone - 1 }).where(eq(platformConnections.id, connectionId));
    return { milestone, followers: row!.followers };
  }

  it('none on the first sync: the count it reads is where the history begins, not a milestone passed', async () => {
    const account = await signUpWithAccess(server);
    // LinkedIn: a first sync of a few calls (Instagram's reads two years of daily insights), and a platform the other
    // tests here leave one of the sandbox's three accounts of.
    const connectionId = await connectTo(account, 'linkedin');
    // As if the profile read at connection gave no count: the stored 0 is no reading.
    await server.db.update(platformConnections).set({ followers: 0 }).where(eq(platformConnections.id, connectionId));
    await syncNow(server, account.token, connectionId);
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(row!.followers).toBeGreaterThanOrEqual(FOLLOWER_MILESTONES[0]!);
    expect((await notices(account)).notifications.filter((notice) => notice.kind === 'followerMilestone')).toEqual([]);
    expect(server.smtp.messages.filter((mail) => mail.to.includes(account.email) && /^You passed /.test(mail.subject))).toEqual([]);
  });

  it('one notice and one email when a sync passes a milestone, never twice for the same one, none when turned off', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'tiktok');
    const { milestone } = await justBelowMilestone(connectionId, account);
    await syncNow(server, account.token, connectionId, { ignoreStartAfter: true });
    const label = milestoneLabel(milestone);
    const { notifications } = await notices(account);
    expect(notifications.filter((notice) => notice.kind === 'followerMilestone')).toEqual([
      expect.objectContaining({ kind: 'followerMilestone', connectionId, title: expect.stringMatching(new RegExp(`^TikTok .* passed ${label} followers$`)), readAt: null }),
    ]);
    const mails = () => server.smtp.messages.filter((mail) => mail.to.includes(account.email) && /^You passed /.test(mail.subject));
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.subject).toBe(`You passed ${label} followers on TikTok`);
    expect(mails()[0]!.text).toMatch(/&topic=alert%3AfollowerMilestone/);

    // Falling back under it and passing it again is not news.
    await server.db.update(platformConnections).set({ followers: milestone - 1 }).where(eq(platformConnections.id, connectionId));
    await syncNow(server, account.token, connectionId, { ignoreStartAfter: true });
    expect((await notices(account)).notifications).toHaveLength(1);
    expect(mails()).toHaveLength(1);

    // Turned off: nothing, even for a milestone not yet announced.
    await server.request('PATCH', '/api/settings/alerts', { token: account.token, body: { followerMilestone: false } });
    await server.db.update(platformConnections).set({ followers: 0 }).where(eq(platformConnections.id, connectionId));
    await syncNow(server, account.token, connectionId, { ignoreStartAfter: true });
    expect((await notices(account)).notifications).toHaveLength(1);
    expect(mails()).toHaveLength(1);
  });
});
