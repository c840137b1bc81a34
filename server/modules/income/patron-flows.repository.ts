// Patrons gained and lost per Patreon connection and UTC day (patreon_patron_events, written by the sync; decision
// 022), for the Income screen's new, churned and net patrons and for the patron conversion of uploads. The caller
// checks that the connections are the user's. Amounts are monthly, in each campaign's own currency cents (never
// summed across connections here: the currency is the connection's).
import { and, asc, between, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { patreonPatronEvents } from '../../db/schema.ts';

export interface DailyPatronFlow {
  connectionId: number;
  /** UTC day, YYYY-MM-DD. */
  date: string;
  newPatrons: number;
  churnedPatrons: number;
  /** Monthly pledges gained by the day's joins (campaign currency cents). */
  newMonthlyCents: number;
  /** Monthly pledges lost by the day's departures (campaign currency cents). */
  lostMonthlyCents: number;
}

/**
 * Per connection and day in [startDate, endDate] (inclusive) with at least one join or departure, ordered by
 * connection and day; a day absent had none (0 new, 0 churned). Net patrons of a day = newPatrons − churnedPatrons.
 */
export async function dailyPatronFlows(db: Executor, connectionIds: readonly number[], startDate: string, endDate: string): Promise<DailyPatronFlow[]> {
  if (connectionIds.length === 0 || startDate > endDate) return [];
  const joined = sql<number>`count(*) filter (where ${patreonPatronEvents.kind} = 'joined')::int`;
  const left = sql<number>`count(*) filter (where ${patreonPatronEvents.kind} = 'left')::int`;
  const gained = sql<number>`coalesce(sum(${patreonPatronEvents.monthlyAmountCents}) filter (where ${patreonPatronEvents.kind} = 'joined'), 0)::int`;
  const lost = sql<number>`coalesce(sum(${patreonPatronEvents.monthlyAmountCents}) filter (where ${patreonPatronEvents.kind} = 'left'), 0)::int`;
  const rows = await db
    .select({ connectionId: patreonPatronEvents.connectionId, date: patreonPatronEvents.occurredOn, newPatrons: joined, churnedPatrons: left, newMonthlyCents: gained, lostMonthlyCents: lost })
    .from(patreonPatronEvents)
    .where(and(inArray(patreonPatronEvents.connectionId, [...connectionIds]), between(patreonPatronEvents.occurredOn, startDate, endDate)))
    .groupBy(patreonPatronEvents.connectionId, patreonPatronEvents.occurredOn)
    .orderBy(asc(patreonPatronEvents.connectionId), asc(patreonPatronEvents.occurredOn));
  return rows.map((row) => ({ ...row, newPatrons: Number(row.newPatrons), churnedPatrons: Number(row.churnedPatrons), newMonthlyCents: Number(row.newMonthlyCents), lostMonthlyCents: Number(row.lostMonthlyCents) }));
}
