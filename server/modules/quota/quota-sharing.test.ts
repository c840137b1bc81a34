// The YouTube quota, counted where the adapter spends it and shared when it runs short (quota-sharing.ts), on a manual
// clock against the platform sandbox. The sandbox refuses `maxResults` beside `id` on videos.list here (corrections
// row 25, the stricter side of its switch), so every sync and young-post read below also shows the adapter never
// sends it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, subscriptions, syncStates } from '../../db/schema.ts';
import { youtubeQuotaDay } from '../../providers/youtube/client.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { grantActiveSubscription } from '../../test/subscriptions.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { ownerHasAccess } from '../billing/access-sql.ts';
import { createSyncRepository } from '../sync/sync.repository.ts';
import { createYoungPostsRepository } from '../sync/young-posts.repository.ts';
import { createQuotaLedger } from './quota-ledger.ts';
import { createQuotaSharing } from './quota-sharing.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LOST_JOB_AFTER_MS = 15 * 60_000;
/** Demo accounts: Theo's medium channel posts every few days (young posts to poll); Ivy's small one is tracked publicly. */
const THEO = 1;
const IVY = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  platformSandboxOf(server).settings.youtubeMaxResultsWithId = 'refused';
});
afterAll(async () => {
  await server?.close();
});

const ledger = () => createQuotaLedger(server.db, server.clock);
const spentToday = () => ledger().spent('youtube', 'general', youtubeQuotaDay(server.clock.now()));
const sharing = createQuotaSharing({ youtubeDailyUnits: 10_000 });
const dueSyncs = () => createSyncRepository(server.db, {}, ownerHasAccess, sharing).dueConnections(server.clock.now(), 500, LOST_JOB_AFTER_MS);
const dueYoungReads = () => createYoungPostsRepository(server.db, ownerHasAccess, sharing).dueConnections(server.clock.now(), server.clock.now(), ['youtube'], 500);
/** Brings the day's spend to `units` (it only grows). */
async function spendUpTo(units: number) {
  const missing = units - (await spentToday());
  expect(missing).toBeGreaterThan(0);
  await ledger().spend('youtube', { bucket: 'general', day: youtubeQuotaDay(server.clock.now()), units: missing });
}

/** A paid subscriber (no trial), signed in. */
async function subscriber(): Promise<Account> {
  const account = (await server.signUp()) as Account;
  await grantActiveSubscription(server, account.user.id);
  return account;
}

async function trackIvy(account: Account): Promise<number> {
  const handle = platformSandboxOf(server).accounts.youtube[IVY]!.username!;
  const response = await server.request('POST', '/api/platformconnections/connect', { token: account.token, body: { platform: 'youtube', handle } });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

let theo: { account: Account; connectionId: number };

describe('the day’s YouTube spend, counted where the adapter spends it', () => {
  it('holds every Data API unit the platform counted, from the connection, the sync and the young-post poll', { timeout: 120_000 }, async () => {
    const sandbox = platformSandboxOf(server);
    const before = await spentToday();
    const sandboxBefore = sandbox.quotaUnitsUsed();
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'youtube', { account: THEO });
    expect(connected.status).toBe(200);
    theo = { account, connectionId: connected.body.id as number };
    expect((await syncNow(server, account.token, theo.connectionId)).status).toMatchObject({ status: 'idle', message: null });
    const afterSync = await spentToday();
    expect(afterSync - before).toBe(sandbox.quotaUnitsUsed() - sandboxBefore);
    expect(afterSync - before).toBeGreaterThan(5);

    const read = await server.youngPosts.readConnection(theo.connectionId);
    expect(read).toMatchObject({ kind: 'read' });
    const units = read.kind === 'read' ? read.quotaUnits : 0;
    expect(units).toBeGreaterThan(0);
    expect((await spentToday()) - afterSync).toBe(units);
    expect((await spentToday()) - before).toBe(sandbox.quotaUnitsUsed() - sandboxBefore);
  });

  it('adds up spends from several processes at once (one atomic upsert each)', async () => {
    const before = await spentToday();
    const day = youtubeQuotaDay(server.clock.now());
    const [first, second] = [ledger(), ledger()];
    await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? first : second).spend('youtube', { bucket: 'general', day, units: 1 })));
    expect((await spentToday()) - before).toBe(20);
    // search.list's bucket is its own (corrections row 26).
    await first.spend('youtube', { bucket: 'search', day, units: 3 });
    expect(await spentToday()).toBe(before + 20);
    expect(await first.spent('youtube', 'search', day)).toBe(3);
  });
});

describe('past 80 % of the day’s quota', () => {
  it('first syncs and recently read subscribers’ refreshes go first; trial and away creators’ refreshes wait for midnight Pacific', { timeout: 120_000 }, async () => {
    const recent = await subscriber();
    const away = await subscriber();
    const trial = await signUpWithAccess(server);
    const ids = { recent: await trackIvy(recent), away: await trackIvy(away), trial: await trackIvy(trial) };
    // Their first syncs.
    expect(await server.sync.enqueueDue()).toBeGreaterThanOrEqual(3);
    await server.sync.drain();

    // 16:00 PST: the next syncs are due, on the same quota day. The away subscriber last read their figures 8 days ago.
    server.clock.set(new Date('2026-11-03T00:00:00Z'));
    await server.db.update(sessions).set({ lastUsedAt: new Date(server.clock.now().getTime() - 8 * DAY) }).where(eq(sessions.userId, away.user.id));
    await server.db.update(sessions).set({ lastUsedAt: server.clock.now() }).where(eq(sessions.userId, recent.user.id));
    const newcomer = await signUpWithAccess(server);
    const watched = new Set([...Object.values(ids), theo.connectionId]);
    const dueOfInterest = async () => (await dueSyncs()).filter((id) => watched.has(id));

    await spendUpTo(7_999);
    expect(new Set(await dueOfInterest())).toEqual(new Set([ids.recent, ids.away, ids.trial, theo.connectionId]));
    expect(new Set(await dueYoungReads())).toContain(theo.connectionId);

    await spendUpTo(8_000);
    const first = await trackIvy(newcomer);
    watched.add(first);
    expect(await dueOfInterest()).toEqual([first, ids.recent]);
    // The young-post poll's YouTube reads are refreshes too: the trial creator's wait.
    expect(await dueYoungReads()).not.toContain(theo.connectionId);
    // The scheduler queues exactly those.
    // (Read from the state row: the away creator's session has long expired.)
    const statusOf = async (id: number) => (await server.db.select({ status: syncStates.status }).from(syncStates).where(eq(syncStates.connectionId, id)))[0]?.status;
    await server.sync.enqueueDue();
    expect(await statusOf(first)).toBe('queued');
    expect(await statusOf(ids.recent)).toBe('queued');
    expect(await statusOf(ids.trial)).toBe('idle');
    expect(await statusOf(ids.away)).toBe('idle');
    await server.sync.drain();

    // A trial that turns into a subscription goes first from then on.
    await server.db.update(subscriptions).set({ status: 'active', trialEnd: null }).where(eq(subscriptions.userId, theo.account.user.id));
    expect(await dueYoungReads()).toContain(theo.connectionId);
    await server.db.update(subscriptions).set({ status: 'trialing' }).where(eq(subscriptions.userId, theo.account.user.id));

    // 00:01 PST: a new quota day; everything that waited is due.
    server.clock.set(new Date('2026-11-03T08:01:00Z'));
    expect(await spentToday()).toBe(0);
    expect(await dueOfInterest()).toEqual(expect.arrayContaining([ids.away, ids.trial, theo.connectionId]));
    expect(await dueYoungReads()).toContain(theo.connectionId);
  });
});
