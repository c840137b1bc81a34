// The young-post poll (decision 018) against the platform sandbox over real HTTP: between syncs, each connection's
// posts under 7 days old have their public counters read by id, on the poll's cadence, and stored with the moment
// they were read; today's snapshot follows them. X posts are read only as they reach 24 hours, 7 days and 28 days.
// Platforms without posts of ours (LinkedIn, Patreon) are never due.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import { queryRows } from '../../db/client.ts';
import { dayOf } from '../../lib/dates.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import type { YoungReadOutcome } from './young-posts.jobs.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/** Connects a demo account of the platform and syncs it once; answers the connection id. */
async function connectedAndSynced(platform: PlatformName, account: number) {
  const user = await signUpWithAccess(server);
  const connected = await connect(server, user, platform, { account });
  expect(connected.status).toBe(200);
  const id = connected.body.id as number;
  expect((await syncNow(server, user.token, id)).status).toMatchObject({ status: 'idle', message: null });
  return { user, id };
}

const youngCount = async (connectionId: number) =>
  Number(
    (
      await queryRows<{ n: string }>(
        server.db,
        sql`select count(*)::text as n from content_items where connection_id = ${connectionId} and published_at > ${new Date(server.clock.now().getTime() - 7 * DAY).toISOString()}::timestamptz and published_at <= ${server.clock.now().toISOString()}::timestamptz`,
      )
    )[0]!.n,
  );

const readsOf = (connectionId: number) =>
  queryRows<{ content_item_id: number; metric_type: string; read_at: Date | string; value: number }>(
    server.db,
    sql`select r.content_item_id, r.metric_type, r.read_at, r.value from content_metric_reads r join content_items ci on ci.id = r.content_item_id
      where ci.connection_id = ${connectionId} order by r.read_at, r.content_item_id, r.metric_type`,
  );

/** Runs the poll's schedule and its queued reads, as the cron tick and a worker would; answers the reads' outcomes. */
async function pollOnce(): Promise<YoungReadOutcome[]> {
  await server.youngPosts.enqueueDue();
  const outcomes = await server.youngPosts.drain();
  expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
  return outcomes.map((outcome) => (outcome as { result: YoungReadOutcome }).result);
}

describe('young-post poll', () => {
  it('reads a YouTube channel’s posts under 7 days old hourly with one videos.list unit per 50, stored with their time', { timeout: 120_000 }, async () => {
    const { id } = await connectedAndSynced('youtube', 1);
    const young = await youngCount(id);
    expect(young).toBeGreaterThan(0);
    const usage = async () => ((await (await fetch(`${platformSandboxOf(server).baseUrl}/_sandbox/usage`)).json()) as { youtube: { dataApiUnits: number } }).youtube.dataApiUnits;

    // Just synced: the first read comes on the poll's cadence after the connection was last read, which is never.
    server.clock.advance(MINUTE);
    let before = await usage();
    const first = await pollOnce();
    const own = first.filter((outcome) => outcome.kind === 'read');
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ kind: 'read', posts: young, calls: Math.ceil(young / 50), quotaUnits: Math.ceil(young / 50) });
    expect((await usage()) - before).toBe(Math.ceil(young / 50));
    const readAt = server.clock.now().toISOString();
    const reads = await readsOf(id);
    expect(new Set(reads.map((read) => read.metric_type))).toEqual(new Set(['views', 'likes', 'comments']));
    expect(new Set(reads.map((read) => new Date(read.read_at).toISOString()))).toEqual(new Set([readAt]));
    expect(new Set(reads.map((read) => read.content_item_id)).size).toBe(young);

    // Not due again within the hour; due at the next hour's tick.
    server.clock.advance(30 * MINUTE);
    expect(await server.youngPosts.enqueueDue()).toBe(0);
    server.clock.advance(30 * MINUTE);
    before = await usage();
    expect((await pollOnce()).filter((outcome) => outcome.kind === 'read')).toHaveLength(1);
    expect((await usage()) - before).toBe(Math.ceil(young / 50));
    expect(new Set((await readsOf(id)).map((read) => new Date(read.read_at).toISOString())).size).toBe(2);

    // Today's snapshot holds the latest read.
    const [latest] = await queryRows<{ stale: string }>(
      server.db,
      sql`select count(*)::text as stale from content_metrics cm
        join content_metric_reads r on r.content_item_id = cm.content_item_id and r.metric_type = cm.metric_type and r.read_at = ${server.clock.now().toISOString()}::timestamptz
        where cm.connection_id = ${id} and cm.as_of = ${dayOf(server.clock.now())}::date and cm.value <> r.value`,
    );
    expect(latest!.stale).toBe('0');
  });

  it('reads TikTok and Instagram posts by id; LinkedIn and Patreon are never due', { timeout: 180_000 }, async () => {
    for (const platform of ['tiktok', 'instagram'] as const) {
      const { id } = await connectedAndSynced(platform, 0);
      const young = await youngCount(id);
      expect(young, platform).toBeGreaterThan(0);
      const outcome = await server.youngPosts.readConnection(id);
      expect(outcome, platform).toMatchObject({ kind: 'read', posts: young });
      const reads = await readsOf(id);
      expect(new Set(reads.map((read) => read.metric_type)), platform).toContain('views');
      expect(new Set(reads.map((read) => read.content_item_id)).size, platform).toBe(young);
    }
    for (const platform of ['linkedin', 'patreon'] as const) {
      const { id } = await connectedAndSynced(platform, 0);
      expect(await server.youngPosts.readConnection(id)).toMatchObject({ kind: 'skipped' });
    }
  });

  it('reads an X post only when it reaches 24 hours, 7 days and 28 days, once each, as the day’s snapshot', { timeout: 180_000 }, async () => {
    const { id } = await connectedAndSynced('twitter', 0);
    // The sync's read is timed: every post it read has its read, and none is due yet unless it crosses an age now.
    const afterSync = await readsOf(id);
    expect(afterSync.length).toBeGreaterThan(0);
    expect(new Set(afterSync.map((read) => read.metric_type))).toContain('impressions');
    const posts = await queryRows<{ id: number; published_at: Date | string }>(server.db, sql`select id, published_at from content_items where connection_id = ${id}`);
    const ages = [24, 7 * 24, 28 * 24].map((hours) => hours * 60 * MINUTE);
    /** The posts that cross an age in (from, to]. */
    const crossing = (from: number, to: number) => posts.filter((post) => ages.some((age) => new Date(post.published_at).getTime() + age > from && new Date(post.published_at).getTime() + age <= to)).length;
    const start = server.clock.now().getTime();
    expect(await server.youngPosts.readConnection(id)).toMatchObject(crossing(start - 1, start) === 0 ? { kind: 'skipped' } : { kind: 'read' });

    // A day of hourly turns: each read takes exactly the posts that crossed an age since the previous turn.
    let previous = server.clock.now().getTime();
    let read = 0;
    for (let hour = 0; hour < 24; hour += 1) {
      server.clock.advance(60 * MINUTE);
      const now = server.clock.now().getTime();
      const due = crossing(previous, now);
      const outcome = await server.youngPosts.readConnection(id);
      expect(outcome).toMatchObject(due === 0 ? { kind: 'skipped' } : { kind: 'read', posts: due });
      read += due;
      previous = now;
    }
    expect(read).toBeGreaterThan(0);
    // Each read is also the day's snapshot: today's counters of those posts are stored, and today's figures grown.
    const today = dayOf(server.clock.now());
    const [snapshot] = await queryRows<{ n: number }>(server.db, sql`select count(distinct content_item_id)::int as n from content_metrics where connection_id = ${id} and as_of = ${today}::date and metric_type = 'impressions'`);
    expect(snapshot!.n).toBeGreaterThan(0);
    const [daily] = await queryRows<{ n: number }>(server.db, sql`select count(*)::int as n from account_metrics where connection_id = ${id} and date = ${today}::date and metric_type = 'impressions'`);
    expect(daily!.n).toBe(1);
    // Read again within the hour: nothing is due twice.
    expect(await server.youngPosts.readConnection(id)).toMatchObject({ kind: 'skipped' });
  });

  it('skips a connection waiting for a reconnect', { timeout: 120_000 }, async () => {
    const { id } = await connectedAndSynced('tiktok', 1);
    await server.db.execute(sql`update platform_connections set needs_reconnect = true where id = ${id}`);
    server.clock.advance(2 * 60 * MINUTE);
    await server.youngPosts.enqueueDue();
    const outcomes = await server.youngPosts.drain();
    expect(outcomes).toEqual(outcomes.filter((outcome) => outcome.ok));
    expect(await readsOf(id)).toEqual([]);
    expect(await server.youngPosts.readConnection(id)).toMatchObject({ kind: 'skipped' });
  });

  it("reads nothing of an account whose subscription ended, and reads it again once it is renewed", { timeout: 120_000 }, async () => {
    // An account no other test here connects (a platform account links to one user only).
    const { user, id } = await connectedAndSynced('twitter', 1);
    // The sync's own reads are timed (X is read at fixed ages); a day later the posts of its last day are due.
    const synced = (await readsOf(id)).length;
    await server.db.execute(sql`update subscriptions set status = 'canceled' where user_id = ${user.user.id}`);
    server.clock.advance(DAY);
    await server.youngPosts.enqueueDue();
    await server.youngPosts.drain();
    expect((await readsOf(id)).length).toBe(synced);

    await server.db.execute(sql`update subscriptions set status = 'active' where user_id = ${user.user.id}`);
    await server.youngPosts.enqueueDue();
    await server.youngPosts.drain();
    expect((await readsOf(id)).length).toBeGreaterThan(synced);
  });
});
