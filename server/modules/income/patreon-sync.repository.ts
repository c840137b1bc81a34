// Patreon's tables in the sync engine's one slot (server/modules/sync/sync-extension.ts), registered in
// server/app.ts: each sync upserts the members as read (patreon_members) and writes who started or stopped paying
// (patreon_patron_events, patron-history.ts, decision 022), in the run's transaction. Re-running a sync the same day
// writes nothing twice: the stored state already says who pays, and the events' key refuses a repeat. The campaign's
// currency, when its pledge events name one, is set on a connection that has none: a currency the creator chose is
// never replaced.
import { and, eq, isNull, max, sql } from 'drizzle-orm';
import { chunks, insertRows } from '../../db/bulk-insert.ts';
import type { Executor } from '../../db/client.ts';
import { accountMetrics, patreonMembers, patreonPatronEvents, platformConnections } from '../../db/schema.ts';
import { dayOf } from '../../lib/dates.ts';
import { pledgeMetricOf, type PatreonBilling, type PatreonSyncExtras, type PatreonSyncState } from '../../providers/patreon.sync.ts';
import type { SyncExtension } from '../sync/sync-extension.ts';
import { changesSince, historyFromList, levelsBefore, type PatronEvent, type PatronLevel, type StoredMember } from './patron-history.ts';

async function storedMembers(tx: Executor, connectionId: number): Promise<Map<string, StoredMember>> {
  const rows = await tx
    .select({ memberId: patreonMembers.memberId, paying: patreonMembers.paying, monthlyAmountCents: patreonMembers.monthlyAmountCents, lastSeenAt: patreonMembers.lastSeenAt })
    .from(patreonMembers)
    .where(eq(patreonMembers.connectionId, connectionId));
  return new Map(rows.map((row) => [row.memberId, row]));
}

/**
 * The paying patrons and monthly pledges of the days before the first sync, as the members list tells them
 * (derived: server/db/derived-metrics.ts says so wherever they are shown). A day already holding the platform's own
 * reading keeps it.
 */
async function storeLevelsBefore(tx: Executor, connectionId: number, levels: readonly PatronLevel[], billing: PatreonBilling): Promise<void> {
  // A per-creation campaign's amounts are per paid post: stored under that name, never as monthly pledges.
  const rows = levels.flatMap((level) => [
    { connectionId, date: level.day, metricType: 'patrons', value: level.patrons },
    { connectionId, date: level.day, metricType: pledgeMetricOf(billing), value: level.monthlyPledgeCents / 100 },
  ]);
  for (const batch of chunks(rows)) {
    const insert = insertRows(accountMetrics, batch);
    if (insert) await tx.execute(sql`${insert} on conflict (connection_id, date, metric_type) do nothing`);
  }
}

/** The connection's currency before the run: the adapter reads the campaign's only while there is none. */
async function loadPatreonState(db: Executor, connectionId: number): Promise<PatreonSyncState> {
  const [row] = await db.select({ currency: platformConnections.currency }).from(platformConnections).where(eq(platformConnections.id, connectionId));
  return { currency: row?.currency ?? null };
}

/**
 * Sets the currency the campaign's pledge events name on a connection without one. The condition is in the update
 * itself, so a currency the creator set while the sync ran is kept too.
 */
async function storeCampaignCurrency(tx: Executor, connectionId: number, currency: string, now: Date): Promise<void> {
  await tx
    .update(platformConnections)
    .set({ currency, updatedAt: now })
    .where(and(eq(platformConnections.id, connectionId), isNull(platformConnections.currency)));
}

export async function storePatreonSync(tx: Executor, connectionId: number, extras: PatreonSyncExtras, _contentIdOf: ReadonlyMap<string, number>, now: Date): Promise<void> {
  if (extras.campaignCurrency !== null) await storeCampaignCurrency(tx, connectionId, extras.campaignCurrency, now);
  const today = dayOf(now);
  const stored = await storedMembers(tx, connectionId);
  let events: PatronEvent[];
  if (stored.size === 0) {
    events = historyFromList(extras.members, today);
    await storeLevelsBefore(tx, connectionId, levelsBefore(events, today), extras.billing);
  } else {
    const [last] = await tx.select({ at: max(patreonMembers.lastSeenAt) }).from(patreonMembers).where(eq(patreonMembers.connectionId, connectionId));
    events = changesSince(stored, extras.members, dayOf(last?.at ?? now), today);
  }

  const rows = extras.members.map((member) => ({
    connectionId,
    memberId: member.memberId,
    patronStatus: member.patronStatus,
    paying: member.paying,
    monthlyAmountCents: member.monthlyAmountCents,
    pledgeRelationshipStart: member.pledgeRelationshipStart ? new Date(member.pledgeRelationshipStart) : null,
    firstSeenAt: now,
    lastSeenAt: now,
  }));
  for (const batch of chunks(rows)) {
    const insert = insertRows(patreonMembers, batch);
    if (!insert) continue;
    await tx.execute(sql`${insert}
      on conflict (connection_id, member_id) do update set
        patron_status = excluded.patron_status,
        paying = excluded.paying,
        monthly_amount_cents = excluded.monthly_amount_cents,
        pledge_relationship_start = excluded.pledge_relationship_start,
        last_seen_at = excluded.last_seen_at`);
  }
  // Paying members gone from the list: they left (an event above); they pay nothing now.
  const listed = new Set(extras.members.map((member) => member.memberId));
  const gone = [...stored.values()].filter((member) => member.paying && !listed.has(member.memberId)).map((member) => member.memberId);
  for (const memberId of gone) {
    await tx
      .update(patreonMembers)
      .set({ paying: false, monthlyAmountCents: 0 })
      .where(sql`${patreonMembers.connectionId} = ${connectionId} and ${patreonMembers.memberId} = ${memberId}`);
  }

  for (const batch of chunks(events.map((event) => ({ connectionId, ...event })))) {
    const insert = insertRows(patreonPatronEvents, batch);
    if (insert) await tx.execute(sql`${insert} on conflict do nothing`);
  }
}

export const patreonSyncExtension: SyncExtension<PatreonSyncState, PatreonSyncExtras> = {
  loadState: loadPatreonState,
  store: storePatreonSync,
};
