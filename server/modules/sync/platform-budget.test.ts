// The operator's monthly X budget (X_MONTHLY_BUDGET_USD): every read X bills is priced at its published rate
// (corrections row 10) and added to the month's spend in the database; once the spend reaches the budget, X's syncs
// and post reads stop for every creator until the month turns, each creator's sync status says so in words, the
// operator gets one error log, and /metrics shows the spend. On a manual clock; both databases.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { createManualClock } from '../../test/manual-clock.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { X_READ_PRICES_USD } from '../../providers/twitter.sync.ts';
import { budgetPauseMessage, createPlatformBudget } from './platform-budget.ts';

const HOUR = 3_600_000;
const TOKEN = 'metrics-token-budget-0123456789abcdef0123';
// Less than any first sync of a demo X account costs: the first creator's first sync reaches it.
const BUDGET_USD = 0.05;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true, env: { X_MONTHLY_BUDGET_USD: String(BUDGET_USD), METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await server?.close();
});

const xUsage = async () => ((await (await fetch(`${platformSandboxOf(server).baseUrl}/_sandbox/usage`)).json()) as { twitter: { postReads: number; userReads: number } }).twitter;
const spendRows = () => queryRows<{ month: string; usd: number; billed_reads: number }>(server.db, sql`select to_char(month, 'YYYY-MM-DD') as month, usd::float8 as usd, billed_reads::float8 as billed_reads from platform_spend where platform = 'twitter' order by month`);
const reachedAlerts = () => server.logLines.filter((line) => line.includes('"event":"platform_budget.reached"')).map((line) => JSON.parse(line) as { level: number; month: string; budgetUsd: number; resumesAt: string });
const contentCount = async (connectionId: number) => (await queryRows<{ n: number }>(server.db, sql`select count(*)::int as n from content_items where connection_id = ${connectionId}`))[0]!.n;
async function scrape(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('X_MONTHLY_BUDGET_USD', () => {
  it("pauses X's refreshes for every creator once the month's spend reaches it, says so, alerts once, and resumes when the month turns", { timeout: 300_000 }, async () => {
    server.clock.set(new Date('2026-12-29T10:00:00Z'));
    const first = await signUpWithAccess(server);
    const second = await signUpWithAccess(server);
    const firstX = (await connect(server, first, 'twitter', { account: 1 })).body.id as number;
    const secondX = (await connect(server, second, 'twitter', { account: 2 })).body.id as number;
    // Within the budget (nothing spent yet): not paused, and /metrics shows the budget and no spend.
    expect((await syncStatusOf(server, first.token, firstX))?.pause).toBeNull();
    let metrics = await scrape();
    expect(metrics).toMatch(/^platform_budget_usd\{platform="twitter"\} 0\.05$/m);
    expect(metrics).toMatch(/^platform_spend_usd\{platform="twitter"\} 0$/m);

    // The first creator's first sync is read and stored, and its reads are what X bills.
    const before = await xUsage();
    await syncNow(server, first.token, firstX);
    const billed = await xUsage();
    const posts = billed.postReads - before.postReads;
    const users = billed.userReads - before.userReads;
    expect(posts).toBeGreaterThan(10);
    expect(await contentCount(firstX)).toBe(posts);
    // Each post and the sync's own user read (GET /2/users/me), at X's prices. X bills a resource once a UTC day
    // (row 10), so the user already read when connecting is not billed again: the count never understates X's bill.
    const [december] = await spendRows();
    expect(december).toMatchObject({ month: '2026-12-01', billed_reads: posts + 1 });
    expect(december!.usd).toBeCloseTo(posts * X_READ_PRICES_USD.post + X_READ_PRICES_USD.user, 6);
    expect(december!.usd).toBeGreaterThanOrEqual(posts * X_READ_PRICES_USD.post + users * X_READ_PRICES_USD.user);
    expect(december!.usd).toBeGreaterThanOrEqual(BUDGET_USD);

    // The budget is reached: both creators are told, in words, until when; the operator is alerted once.
    const words = 'X figures pause until Jan 1 while we stay within our X budget.';
    for (const [account, connectionId] of [[first, firstX], [second, secondX]] as const) {
      expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({
        status: 'idle',
        message: words,
        pause: { reason: 'platform_budget', until: '2027-01-01T00:00:00.000Z', message: words },
        nextRunAt: '2027-01-01T00:00:00.000Z',
      });
    }
    expect(reachedAlerts()).toEqual([expect.objectContaining({ level: 50, month: '2026-12-01', budgetUsd: BUDGET_USD, resumesAt: '2027-01-01T00:00:00.000Z' })]);
    metrics = await scrape();
    expect(Number(/^platform_spend_usd\{platform="twitter"\} (\S+)$/m.exec(metrics)?.[1])).toBeCloseTo(december!.usd, 6);
    expect(metrics).toMatch(new RegExp(`^platform_billed_reads\\{platform="twitter"\\} ${posts + 1}$`, 'm'));

    // Nothing more is read at X this month: not the second creator's first sync (asked for by the user), not the
    // schedule's, not the post reads at 24 hours.
    expect((await syncNow(server, second.token, secondX)).status).toMatchObject({ message: words, lastSyncedAt: null });
    server.clock.advance(25 * HOUR);
    await server.sync.enqueueDue();
    await server.sync.drain({ ignoreStartAfter: true });
    expect(await server.youngPosts.readConnection(firstX)).toMatchObject({ kind: 'skipped' });
    expect(await xUsage()).toEqual(billed);
    expect(await contentCount(secondX)).toBe(0);
    expect(await spendRows()).toEqual([december]);
    expect(reachedAlerts()).toHaveLength(1);

    // January: the spend starts again at nothing, and X is read again.
    server.clock.set(new Date('2027-01-01T01:00:00Z'));
    const status = await syncStatusOf(server, second.token, secondX);
    expect(status).toMatchObject({ message: null, pause: null });
    expect(await scrape()).toMatch(/^platform_spend_usd\{platform="twitter"\} 0$/m);
    await syncNow(server, second.token, secondX);
    const january = await xUsage();
    expect(january.postReads).toBeGreaterThan(billed.postReads);
    expect(await contentCount(secondX)).toBe(january.postReads - billed.postReads);
    // That first sync spends January's budget in turn: a pause until Feb 1, and its own alert.
    expect((await spendRows()).map((row) => row.month)).toEqual(['2026-12-01', '2027-01-01']);
    expect((await syncStatusOf(server, first.token, firstX))?.pause).toMatchObject({ until: '2027-02-01T00:00:00.000Z', message: 'X figures pause until Feb 1 while we stay within our X budget.' });
    expect(reachedAlerts().map((alert) => alert.month)).toEqual(['2026-12-01', '2027-01-01']);
  });
});

describe('the month’s spend, shared by every process', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('adds the reads of two processes in one row, warns at 80 %, alerts once at the budget, and counts a new month from nothing', async () => {
    const clock = createManualClock(new Date('2026-12-31T23:00:00Z'));
    const logged: { level: 'warn' | 'error'; event: string }[] = [];
    const log = (level: 'warn' | 'error') => (entry: { event: string }) => logged.push({ level, event: entry.event });
    const logger = { warn: log('warn'), error: log('error') } as never;
    const processes = [0, 1].map(() => createPlatformBudget({ db: database.handle.db, clock, budgetsUsd: { twitter: 1 }, logger }));
    const [one, other] = processes as [ReturnType<typeof createPlatformBudget>, ReturnType<typeof createPlatformBudget>];
    // A platform without a budget is never paused; one that bills nothing is not counted.
    expect(await one.pauseOf('youtube')).toBeNull();
    await one.record('youtube', { calls: 3, quotaUnits: 3 });
    // 0.005 × 100 = 0.5, then × 60 = 0.3 (80 %: warned), then × 40 = 0.2 (the budget, reached in floating point sums).
    await one.record('twitter', { calls: 1, billedReads: 100, spendUsd: 100 * 0.005 });
    expect(await other.pauseOf('twitter')).toBeNull();
    await other.record('twitter', { calls: 1, billedReads: 60, spendUsd: 60 * 0.005 });
    expect(logged).toEqual([{ level: 'warn', event: 'platform_budget.nearing' }]);
    expect(await one.pauseOf('twitter')).toBeNull();
    for (let read = 0; read < 40; read += 1) await (read % 2 ? one : other).record('twitter', { calls: 1, billedReads: 1, spendUsd: 0.005 });
    expect(logged).toEqual([
      { level: 'warn', event: 'platform_budget.nearing' },
      { level: 'error', event: 'platform_budget.reached' },
    ]);
    for (const process of processes) expect(await process.pauseOf('twitter')).toMatchObject({ reason: 'platform_budget', until: new Date('2027-01-01T00:00:00Z') });
    expect(await one.spendThisMonth()).toEqual([{ platform: 'twitter', usd: expect.closeTo(1, 9), billedReads: 200, budgetUsd: 1 }]);
    // Past the budget, no second alert.
    await other.record('twitter', { calls: 1, billedReads: 1, spendUsd: 0.005 });
    expect(logged).toHaveLength(2);

    clock.advance(HOUR);
    expect(await one.pauseOf('twitter')).toBeNull();
    expect(await other.spendThisMonth()).toEqual([{ platform: 'twitter', usd: 0, billedReads: 0, budgetUsd: 1 }]);
  });

  it('says until when in words, in UTC', () => {
    expect(budgetPauseMessage('twitter', new Date('2027-01-01T00:00:00Z'))).toBe('X figures pause until Jan 1 while we stay within our X budget.');
    expect(budgetPauseMessage('twitter', new Date('2026-12-01T00:00:00Z'))).toBe('X figures pause until Dec 1 while we stay within our X budget.');
  });
});
