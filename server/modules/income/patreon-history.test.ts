// The Patreon sync keeps patreon_members and writes who started and stopped paying (decision 022): the first sync
// backfills the list's history, later syncs write the day's joins and departures, re-running a day writes nothing
// twice, and the net patrons of the events agree with the daily `patrons` count.
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, patreonMembers, patreonPatronEvents } from '../../db/schema.ts';
import { connect, signUpWithAccess, type Account } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { dailyPatronFlows } from './patron-flows.repository.ts';

const DAY = 86_400_000;
let server: TestServer;
let account: Account;
let connectionId: number;

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'patreon', { account: 1 });
  expect(connected.status).toBe(200);
  connectionId = connected.body.id;
});
afterAll(async () => {
  await server?.close();
});

async function patronsByDay(): Promise<Map<string, number>> {
  const rows = await server.db
    .select({ date: accountMetrics.date, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, 'patrons')))
    .orderBy(asc(accountMetrics.date));
  return new Map(rows.map((row) => [String(row.date), Number(row.value)]));
}

const eventCount = async () => Number((await server.db.select({ n: sql<number>`count(*)` }).from(patreonPatronEvents).where(eq(patreonPatronEvents.connectionId, connectionId)))[0]!.n);

async function netThrough(day: string): Promise<number> {
  const flows = await dailyPatronFlows(server.db, [connectionId], '1970-01-01', day);
  return flows.reduce((sum, flow) => sum + flow.newPatrons - flow.churnedPatrons, 0);
}

describe('Patreon patron history', () => {
  it('backfills joins and departures from the list on the first sync, and writes nothing twice the same day', async () => {
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    const patrons = (await patronsByDay()).get(today)!;
    expect(patrons).toBeGreaterThan(0);
    // Every paying member has one more join than departure: the events' net is today's paying count.
    expect(await netThrough(today)).toBe(patrons);
    const flows = await dailyPatronFlows(server.db, [connectionId], '2024-11-01', today);
    const joins = flows.reduce((sum, flow) => sum + flow.newPatrons, 0);
    const departures = flows.reduce((sum, flow) => sum + flow.churnedPatrons, 0);
    expect(joins).toBeGreaterThan(100);
    expect(departures).toBeGreaterThan(50);
    expect(flows.every((flow) => flow.date <= today)).toBe(true);
    expect(flows.some((flow) => flow.lostMonthlyCents > 0 && flow.newMonthlyCents > 0)).toBe(true);
    const members = await server.db.select().from(patreonMembers).where(eq(patreonMembers.connectionId, connectionId));
    expect(members.filter((member) => member.paying)).toHaveLength(patrons);
    expect(members.some((member) => member.patronStatus === 'former_patron')).toBe(true);
    // The days before hold the paying count the list tells (derived), two years back: each day's count is the
    // events' net through that day, and monthly pledges stand beside it.
    const history = await patronsByDay();
    const earlier = [...history.keys()].filter((day) => day < today);
    expect(earlier.length).toBeGreaterThan(300);
    for (const day of [earlier[0]!, earlier[Math.floor(earlier.length / 2)]!, earlier.at(-1)!]) expect(history.get(day), day).toBe(await netThrough(day));
    const [pledges] = await server.db
      .select({ days: sql<number>`count(*)::int` })
      .from(accountMetrics)
      .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, 'monthly_pledges'), sql`${accountMetrics.date} < ${today}`));
    expect(pledges!.days).toBe(earlier.length);

    const before = await eventCount();
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle' });
    expect(await eventCount()).toBe(before);
    expect(await netThrough(today)).toBe(patrons);
  });

  it('writes the joins and departures of later days, whose net is the change in the daily patrons count', async () => {
    const days: string[] = [];
    for (const step of [1, 1, 3, 1, 7]) {
      server.clock.advance(step * DAY);
      expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
      days.push(new Date(server.clock.now()).toISOString().slice(0, 10));
    }
    const patrons = await patronsByDay();
    const all = [...patrons.keys()];
    let moved = 0;
    for (let index = 1; index < all.length; index += 1) {
      const [previous, current] = [all[index - 1]!, all[index]!];
      const flows = await dailyPatronFlows(server.db, [connectionId], previous, current);
      const net = flows.filter((flow) => flow.date > previous).reduce((sum, flow) => sum + flow.newPatrons - flow.churnedPatrons, 0);
      expect(net, `${previous} → ${current}`).toBe(patrons.get(current)! - patrons.get(previous)!);
      moved += flows.filter((flow) => flow.date > previous).reduce((sum, flow) => sum + flow.newPatrons + flow.churnedPatrons, 0);
    }
    expect(moved).toBeGreaterThan(0);
    expect(await netThrough(days.at(-1)!)).toBe(patrons.get(days.at(-1)!));
    // Per member, joins and departures alternate, starting with a join.
    const events = await server.db.select().from(patreonPatronEvents).where(eq(patreonPatronEvents.connectionId, connectionId)).orderBy(asc(patreonPatronEvents.memberId), asc(patreonPatronEvents.occurredOn), sql`${patreonPatronEvents.kind} = 'left'`);
    const last = new Map<string, string>();
    for (const event of events) {
      expect(event.kind).toBe(last.get(event.memberId) === 'joined' ? 'left' : 'joined');
      last.set(event.memberId, event.kind);
    }
  });

  it('answers no flows for no connections or a reversed range', async () => {
    expect(await dailyPatronFlows(server.db, [], '2024-01-01', '2030-01-01')).toEqual([]);
    expect(await dailyPatronFlows(server.db, [connectionId], '2030-01-02', '2030-01-01')).toEqual([]);
  });
});
