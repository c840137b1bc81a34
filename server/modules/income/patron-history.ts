// When Patreon members started and stopped paying, from the members list (decision 022). Pure: the sync extension
// (patreon-sync.repository.ts) loads what is stored, calls these, and writes the rows.
//
// - First sync (nothing stored): the list's history. A paying member joined on the UTC day of
//   pledge_relationship_start. A member who paid and no longer does (former or declined patron with a charge on
//   record) joined on that day and left on the first charge that was not made: the pledge's anniversary after a paid
//   last charge (a cancelled pledge runs to the end of its paid period), or the day of a failed last charge
//   (declined, refunded…). A member with no paid charge (free trial, gift, never charged) never paid: no events.
// - Later syncs: a member who starts paying joined, a paying member who stops (or leaves the list) left. The day is
//   the best estimate inside (last sync's day, today]: the pledge start or the estimated last paid day when it falls
//   there, else today. So the events between two syncs add up to the change in the paying count between them.
import { addDays, dayOf } from '../../lib/dates.ts';
import type { PatreonMemberRead } from '../../providers/patreon.sync.ts';

export interface PatronEvent {
  memberId: string;
  occurredOn: string;
  kind: 'joined' | 'left';
  monthlyAmountCents: number;
}

export interface StoredMember {
  memberId: string;
  paying: boolean;
  monthlyAmountCents: number;
  lastSeenAt: Date;
}

/** Charge statuses under which the charge was paid (the rest — Declined, Deleted, Refunded, Fraud, Other — were not). */
const PAID_STATUSES = new Set(['Paid', 'Pending', 'Partially Refunded']);

/** `months` after `fromIso` on the pledge's day of month (clamped to the month's end), as a UTC day. */
export function anniversaryAfter(fromIso: string, months: number, pledgeStartIso: string | null): string {
  const from = new Date(fromIso);
  const dayOfMonth = new Date(pledgeStartIso ?? fromIso).getUTCDate();
  const month = from.getUTCMonth() + months;
  const daysInMonth = new Date(Date.UTC(from.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(from.getUTCFullYear(), month, Math.min(dayOfMonth, daysInMonth))));
}

/** Whole months from `start` to `end` (end's day of month at least start's, else one fewer). */
function monthsBetween(startIso: string, endIso: string): number {
  const start = new Date(startIso);
  const end = new Date(endIso);
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  return end.getUTCDate() >= Math.min(start.getUTCDate(), new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate()) ? months : months - 1;
}

/**
 * For a member not paying now: the day they stopped paying (the first charge not made) and what they paid a month,
 * or null when no paid charge is on record (they never paid).
 */
export function pastSpell(member: PatreonMemberRead): { joinedOn: string; leftOn: string; monthlyAmountCents: number } | null {
  if (!member.pledgeRelationshipStart || !member.lastChargeDate || !member.lastChargeStatus || member.lastChargeStatus === 'Free Trial') return null;
  const paid = PAID_STATUSES.has(member.lastChargeStatus);
  const joinedOn = dayOf(new Date(member.pledgeRelationshipStart));
  const leftOn = paid ? anniversaryAfter(member.lastChargeDate, member.cadenceMonths, member.pledgeRelationshipStart) : dayOf(new Date(member.lastChargeDate));
  if (leftOn <= joinedOn) return null; // the first charge already failed: never a paying patron
  // Charges made: one at the start and one each cadence up to the last charge (which counts only if paid).
  const charges = Math.floor(Math.max(0, monthsBetween(member.pledgeRelationshipStart, member.lastChargeDate)) / member.cadenceMonths) + (paid ? 1 : 0);
  const monthlyAmountCents =
    member.entitledMonthlyCents > 0 ? member.entitledMonthlyCents : charges > 0 ? Math.round(member.lifetimeSupportCents / charges / member.cadenceMonths) : 0;
  return { joinedOn, leftOn, monthlyAmountCents };
}

/** First sync: the history the list tells (see the file's head). Days after `today` are clamped to it. */
export function historyFromList(members: readonly PatreonMemberRead[], today: string): PatronEvent[] {
  const events: PatronEvent[] = [];
  const clamp = (day: string) => (day > today ? today : day);
  for (const member of members) {
    if (member.paying) {
      const joinedOn = member.pledgeRelationshipStart ? clamp(dayOf(new Date(member.pledgeRelationshipStart))) : today;
      events.push({ memberId: member.memberId, occurredOn: joinedOn, kind: 'joined', monthlyAmountCents: member.monthlyAmountCents });
      continue;
    }
    const spell = pastSpell(member);
    if (!spell) continue;
    const joinedOn = clamp(spell.joinedOn);
    const leftOn = clamp(spell.leftOn);
    if (leftOn <= joinedOn) continue; // joined and left today: nets to nothing, and the key would not alternate
    events.push({ memberId: member.memberId, occurredOn: joinedOn, kind: 'joined', monthlyAmountCents: spell.monthlyAmountCents });
    events.push({ memberId: member.memberId, occurredOn: leftOn, kind: 'left', monthlyAmountCents: spell.monthlyAmountCents });
  }
  return events;
}

/**
 * A later sync: what changed since the stored state. `lastSyncDay` is the day of the previous sync (the stored
 * members' latest last_seen_at); every event falls in (lastSyncDay, today].
 */
export function changesSince(stored: ReadonlyMap<string, StoredMember>, members: readonly PatreonMemberRead[], lastSyncDay: string, today: string): PatronEvent[] {
  const events: PatronEvent[] = [];
  const within = (day: string | null) => (day !== null && day > lastSyncDay && day <= today ? day : today);
  const seen = new Set<string>();
  for (const member of members) {
    seen.add(member.memberId);
    const before = stored.get(member.memberId);
    const wasPaying = before?.paying ?? false;
    if (!wasPaying && member.paying) {
      const start = member.pledgeRelationshipStart ? dayOf(new Date(member.pledgeRelationshipStart)) : null;
      events.push({ memberId: member.memberId, occurredOn: within(start), kind: 'joined', monthlyAmountCents: member.monthlyAmountCents });
    } else if (wasPaying && !member.paying) {
      const spell = pastSpell(member);
      events.push({ memberId: member.memberId, occurredOn: within(spell?.leftOn ?? null), kind: 'left', monthlyAmountCents: before!.monthlyAmountCents });
    } else if (!before && !member.paying) {
      // Joined and left between two syncs: seen for the first time as a former or declined patron.
      const spell = pastSpell(member);
      if (spell && spell.joinedOn > lastSyncDay && spell.leftOn <= today) {
        events.push({ memberId: member.memberId, occurredOn: spell.joinedOn, kind: 'joined', monthlyAmountCents: spell.monthlyAmountCents });
        events.push({ memberId: member.memberId, occurredOn: spell.leftOn, kind: 'left', monthlyAmountCents: spell.monthlyAmountCents });
      }
    }
  }
  // A paying member no longer in the list stopped paying (removed, or the account deleted).
  for (const before of stored.values()) {
    if (before.paying && !seen.has(before.memberId)) events.push({ memberId: before.memberId, occurredOn: today, kind: 'left', monthlyAmountCents: before.monthlyAmountCents });
  }
  return events;
}

/** How far back the first sync's history of levels reaches: the two years every platform's first sync reads. */
export const LEVEL_HISTORY_DAYS = 730;

export interface PatronLevel {
  day: string;
  patrons: number;
  monthlyPledgeCents: number;
}

/**
 * First sync: the paying patrons and their monthly pledges on each day before today, from the list's history (the
 * joins and departures of historyFromList): a member counts from the day they joined until the day before they left,
 * with the monthly amount of their spell (a pledge changed in between counts at its latest amount: the list keeps no
 * earlier one). From the first join, at most LEVEL_HISTORY_DAYS back; today's levels are the platform's own reading.
 */
export function levelsBefore(events: readonly PatronEvent[], today: string): PatronLevel[] {
  const sorted = [...events].sort((a, b) => a.occurredOn.localeCompare(b.occurredOn));
  const earliest = sorted[0]?.occurredOn;
  if (earliest === undefined || earliest >= today) return [];
  const limit = addDays(today, -LEVEL_HISTORY_DAYS);
  const levels: PatronLevel[] = [];
  let patrons = 0;
  let cents = 0;
  let next = 0;
  for (let day = earliest; day < today; day = addDays(day, 1)) {
    while (next < sorted.length && sorted[next]!.occurredOn <= day) {
      const event = sorted[next]!;
      const sign = event.kind === 'joined' ? 1 : -1;
      patrons += sign;
      cents += sign * event.monthlyAmountCents;
      next += 1;
    }
    if (day >= limit) levels.push({ day, patrons, monthlyPledgeCents: cents });
  }
  return levels;
}
