// How long platform data is kept (docs/platforms/data-retention.md), on a manual clock that moves the app and the
// Stripe sandbox together: a lapsed account's data for 30 days after its access ended (announced by mail 7 days
// before; subscribing again keeps it), a connection whose grant stopped working for 30 days, and a tracked public
// YouTube channel's statistics for 30 calendar days. The daily job's work is `server.retention.run()`.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, contentItems, notifications, platformConnections, sentMails, subscriptions, users } from '../../db/schema.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { advanceTime, GOOD_CARD, sandboxOf, submitHostedForm } from '../../test/stripe.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { DATA_DELETION_NOTICE_SUBJECT } from './retention-emails.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

const later = (ms: number) => new Date(server.clock.now().getTime() + ms);

/** Moves the app's and Stripe's time, then signs in again (a session does not outlive weeks of idleness). */
async function advance(account: Account, to: Date) {
  await advanceTime(server, to);
  const login = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  expect(login.status).toBe(200);
  account.token = login.body.token;
}

async function billingStatus(account: Account) {
  const response = await server.request('GET', '/api/stripe/subscription-status', { token: account.token });
  expect(response.status).toBe(200);
  return response.body;
}

/** A user with access and one synced connection of `platform`'s demo account `index` (each index once in this file). */
async function connectedUser(platform: 'youtube' | 'patreon' | 'tiktok' | 'linkedin', index: number) {
  const account = await signUpWithAccess(server);
  const connected = await connect(server, account, platform, { account: index });
  expect(connected.status).toBe(200);
  await server.sync.drain();
  const [connection] = await server.db.select().from(platformConnections).where(eq(platformConnections.userId, account.user.id));
  return { account, connectionId: connection!.id };
}

const connectionCount = async (userId: number) =>
  (await server.db.select({ value: count() }).from(platformConnections).where(eq(platformConnections.userId, userId)))[0]!.value;
const metricCount = async (connectionId: number) =>
  (await server.db.select({ value: count() }).from(accountMetrics).where(eq(accountMetrics.connectionId, connectionId)))[0]!.value;
const noticesTo = (account: Account) => server.smtp.messages.filter((mail) => mail.to.includes(account.email) && mail.subject === DATA_DELETION_NOTICE_SUBJECT);

describe('a lapsed account', () => {
  it('keeps its synced data 30 days after access ended, says so on Billing, is told 7 days before, then loses its connections and their data but keeps the account', async () => {
    const { account, connectionId } = await connectedUser('youtube', 0);
    expect(await metricCount(connectionId)).toBeGreaterThan(0);
    expect((await server.db.select({ value: count() }).from(contentItems).where(eq(contentItems.connectionId, connectionId)))[0]!.value).toBeGreaterThan(0);
    expect(await billingStatus(account)).toMatchObject({ hasValidAccess: true, dataDeletedOn: null });
    expect((await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { timeZone: 'Europe/Berlin' } })).status).toBe(200);

    const canceled = await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    expect(canceled.body).toMatchObject({ status: 'canceled', hasValidAccess: false });
    // Stripe dates the end in whole seconds.
    const { dataDeletedOn } = await billingStatus(account);
    const deletion = new Date(dataDeletedOn);
    expect(Math.abs(deletion.getTime() - (server.clock.now().getTime() + 30 * DAY))).toBeLessThan(1000);

    // Day 22 (more than 7 days before): nothing happens yet.
    await advance(account, new Date(deletion.getTime() - 7 * DAY - MINUTE));
    expect(await server.retention.run()).toMatchObject({ noticesSent: 0 });
    await server.mailer.idle();
    expect(noticesTo(account)).toEqual([]);

    // 7 days before: the notice, once, however many runs (two processes' overlapping runs, a retry).
    await advance(account, new Date(deletion.getTime() - 7 * DAY));
    const runs = await Promise.all([server.retention.run(), server.retention.run()]);
    expect(runs.map((run) => run.noticesSent).sort()).toEqual([0, 1]);
    expect((await server.retention.run()).noticesSent).toBe(0);
    await server.mailer.idle();
    const [notice, ...more] = noticesTo(account);
    expect(more).toEqual([]);
    // In the account's time zone.
    expect(notice!.text).toContain(`on ${new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', dateStyle: 'full', timeStyle: 'short' }).format(deletion)} (Europe/Berlin time) we delete it`);
    expect(notice!.text).toContain('To keep everything, subscribe again on Billing');
    expect(notice!.text).toContain(`${TEST_PUBLIC_URL}/billing`);
    expect(await connectionCount(account.user.id)).toBe(1);

    // A minute before the date: still kept.
    await advance(account, new Date(deletion.getTime() - MINUTE));
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(1);
    expect(await metricCount(connectionId)).toBeGreaterThan(0);

    // On the date: disconnected (the grant withdrawn at Google) and deleted with what was read through it.
    const revokedBefore = platformSandboxOf(server).revokedTokens.length;
    await advance(account, deletion);
    const [first, second] = await Promise.all([server.retention.run(), server.retention.run()]);
    expect(first!.connectionsDeleted + second!.connectionsDeleted).toBe(1);
    expect(await connectionCount(account.user.id)).toBe(0);
    expect(await metricCount(connectionId)).toBe(0);
    expect((await server.db.select({ value: count() }).from(contentItems).where(eq(contentItems.connectionId, connectionId)))[0]!.value).toBe(0);
    expect(platformSandboxOf(server).revokedTokens.length).toBeGreaterThan(revokedBefore);
    // The account, its billing and its settings stay.
    expect(await server.db.select({ id: users.id }).from(users).where(eq(users.id, account.user.id))).toHaveLength(1);
    expect(await server.db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.userId, account.user.id))).toEqual([{ status: 'canceled' }]);
    expect((await server.request('GET', '/api/settings/account', { token: account.token })).body).toMatchObject({ timeZone: 'Europe/Berlin' });
    expect(await billingStatus(account)).toMatchObject({ hasValidAccess: false, dataDeletedOn: deletion.toISOString() });
    // Nothing more to do the next day.
    await advance(account, later(DAY));
    expect(await server.retention.run()).toMatchObject({ noticesSent: 0, connectionsDeleted: 0 });
    await server.mailer.idle();
    expect(noticesTo(account)).toHaveLength(1);
  });

  it('keeps everything when it subscribes again before the date, and a second lapse is announced again', async () => {
    const { account, connectionId } = await connectedUser('youtube', 1);
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    const deletion = new Date((await billingStatus(account)).dataDeletedOn);
    await advance(account, new Date(deletion.getTime() - 3 * DAY));
    await server.retention.run();
    await server.mailer.idle();
    expect(noticesTo(account)).toHaveLength(1);

    // Subscribes again (the trial is spent: a paid subscription at once).
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: {} });
    expect(checkout.status).toBe(200);
    await submitHostedForm(sandboxOf(server), checkout.body.url, GOOD_CARD);
    await sandboxOf(server).flushWebhooks();
    expect(await billingStatus(account)).toMatchObject({ hasValidAccess: true, dataDeletedOn: null });

    await advance(account, later(5 * DAY));
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(1);
    expect(await metricCount(connectionId)).toBeGreaterThan(0);

    // Ended again: a new 30 days, a new notice 7 days before them.
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    const secondDeletion = new Date((await billingStatus(account)).dataDeletedOn);
    expect(secondDeletion.getTime()).toBeGreaterThan(deletion.getTime());
    await advance(account, new Date(secondDeletion.getTime() - 7 * DAY));
    await server.retention.run();
    await server.mailer.idle();
    expect(noticesTo(account)).toHaveLength(2);
    const claimed = await server.db.select({ kind: sentMails.kind }).from(sentMails).where(eq(sentMails.userId, account.user.id));
    expect(claimed.filter((row) => row.kind === 'data_deletion_notice')).toHaveLength(2);
  });

  it('is never deleted sooner than 7 days after its notice, when the job did not run in time', async () => {
    const { account } = await connectedUser('tiktok', 0);
    await server.request('POST', '/api/stripe/cancel-subscription', { token: account.token, body: { cancelAtPeriodEnd: false } });
    const deletion = new Date((await billingStatus(account)).dataDeletedOn);
    // The first run after the date: the notice goes out, with a date a week from now.
    await advance(account, new Date(deletion.getTime() + DAY));
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(1);
    await server.mailer.idle();
    const announced = later(7 * DAY);
    expect(noticesTo(account)[0]!.text).toContain(new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' }).format(announced));
    await advance(account, new Date(announced.getTime() - MINUTE));
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(1);
    await advance(account, announced);
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(0);
  });
});

describe('a connection whose grant stopped working', () => {
  /** The platform answers as for a revoked grant: the sync marks the connection for reconnection. */
  async function revoke(account: Account, connectionId: number) {
    const sandbox = platformSandboxOf(server);
    sandbox.failNext('patreon', 'metrics', 'revoked');
    sandbox.failNext('patreon', 'metrics', 'revoked');
    await syncNow(server, account.token, connectionId);
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(row).toMatchObject({ needsReconnect: true });
    return row!.needsReconnectSince!;
  }

  it('is deleted with its data 30 days after, and the connection list says when beforehand', async () => {
    const { account, connectionId } = await connectedUser('patreon', 0);
    const listed = async () => (await server.request('GET', '/api/platformconnections', { token: account.token })).body as { id: number; dataDeletedOn?: string | null }[];
    expect((await listed())[0]).toMatchObject({ id: connectionId, needsReconnect: false, dataDeletedOn: null });
    const since = await revoke(account, connectionId);
    expect(since.getTime()).toBe(server.clock.now().getTime());
    const deletion = new Date(since.getTime() + 30 * DAY);
    expect((await listed())[0]).toMatchObject({ id: connectionId, needsReconnect: true, dataDeletedOn: deletion.toISOString() });
    // The alert that asks to reconnect.
    expect(await server.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.connectionId, connectionId))).toHaveLength(1);

    // A Sync click meanwhile fails again without moving the date.
    await advance(account, later(10 * DAY));
    await syncNow(server, account.token, connectionId);
    expect((await listed())[0]).toMatchObject({ dataDeletedOn: deletion.toISOString() });

    await advance(account, new Date(deletion.getTime() - MINUTE));
    await server.retention.run();
    expect(await metricCount(connectionId)).toBeGreaterThan(0);
    await advance(account, deletion);
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(0);
    expect(await metricCount(connectionId)).toBe(0);
    // The notice about it goes with it.
    expect(await server.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.connectionId, connectionId))).toEqual([]);
    // The account keeps access and everything else.
    expect(await billingStatus(account)).toMatchObject({ hasValidAccess: true, dataDeletedOn: null });
  });

  it('is kept when reconnected within the 30 days', async () => {
    const { account, connectionId } = await connectedUser('patreon', 1);
    await revoke(account, connectionId);
    await advance(account, later(20 * DAY));
    expect((await connect(server, account, 'patreon', { account: 1 })).status).toBe(200);
    const [row] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
    expect(row).toMatchObject({ needsReconnect: false, needsReconnectSince: null });
    await advance(account, later(20 * DAY));
    await server.retention.run();
    expect(await connectionCount(account.user.id)).toBe(1);
    expect(await metricCount(connectionId)).toBeGreaterThan(0);
  });
});

describe('a tracked public YouTube channel', () => {
  it('keeps 30 calendar days of statistics, today included; the creator’s own channel keeps its history', async () => {
    const { account, connectionId: ownId } = await connectedUser('youtube', 2);
    // Anyone may track a public channel, even one another user connected (the sandbox has three).
    const channel = platformSandboxOf(server).accounts.youtube[0]!;
    const tracked = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'youtube', handle: channel.username } });
    expect(tracked.status).toBe(201);
    const trackedId = tracked.body.id as number;
    // Forty days of subscriber counts, as forty daily syncs would have left them.
    const today = dayOf(server.clock.now());
    await server.db.execute(
      sql`insert into account_metrics (connection_id, date, metric_type, value)
        select ${trackedId}, ${today}::date - n, 'subscribers', 1000 + n from generate_series(0, 39) as n
        on conflict (connection_id, date, metric_type) do nothing`,
    );
    const ownBefore = await metricCount(ownId);
    const ownOldest = (await server.db.select({ date: sql<string>`min(${accountMetrics.date})::text` }).from(accountMetrics).where(eq(accountMetrics.connectionId, ownId)))[0]!.date;
    expect(ownOldest < addDays(today, -30)).toBe(true);

    expect((await server.retention.run()).trackedDaysDeleted).toBe(10);
    const dates = (await server.db.select({ date: accountMetrics.date }).from(accountMetrics).where(eq(accountMetrics.connectionId, trackedId)).orderBy(accountMetrics.date)).map((row) => row.date);
    expect(dates).toHaveLength(30);
    expect(dates[0]).toBe(addDays(today, -29));
    expect(dates.at(-1)).toBe(today);
    expect(await metricCount(ownId)).toBe(ownBefore);

    // A day later, the oldest of them goes.
    await advance(account, later(DAY));
    expect((await server.retention.run()).trackedDaysDeleted).toBe(1);
  });
});
