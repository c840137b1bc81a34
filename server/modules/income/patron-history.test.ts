// The rules of decision 022 on hand-made members: the first sync's history and later syncs' changes.
import { describe, expect, it } from 'vitest';
import type { PatreonMemberRead } from '../../providers/patreon.sync.ts';
import { anniversaryAfter, changesSince, historyFromList, LEVEL_HISTORY_DAYS, levelsBefore, pastSpell, type StoredMember } from './patron-history.ts';

const member = (overrides: Partial<PatreonMemberRead>): PatreonMemberRead => ({
  memberId: 'm',
  patronStatus: 'active_patron',
  paying: true,
  monthlyAmountCents: 500,
  entitledMonthlyCents: 500,
  pledgeRelationshipStart: '2025-01-31T15:00:00.000Z',
  lastChargeDate: '2026-04-30T09:00:00.000Z',
  lastChargeStatus: 'Paid',
  cadenceMonths: 1,
  lifetimeSupportCents: 8000,
  ...overrides,
});
const former = (overrides: Partial<PatreonMemberRead> = {}) => member({ patronStatus: 'former_patron', paying: false, monthlyAmountCents: 0, entitledMonthlyCents: 0, ...overrides });

describe('patron history from the members list', () => {
  it('dates a paid former patron\'s departure at the anniversary after the last charge, clamped to the month', () => {
    expect(anniversaryAfter('2026-01-31T09:00:00Z', 1, '2025-01-31T15:00:00Z')).toBe('2026-02-28');
    expect(anniversaryAfter('2026-02-28T09:00:00Z', 1, '2025-01-31T15:00:00Z')).toBe('2026-03-31');
    expect(anniversaryAfter('2025-06-10T09:00:00Z', 12, '2024-06-10T15:00:00Z')).toBe('2026-06-10');
    // 16 charges Jan 2025 … Apr 2026 paid 8000: 500 a month.
    expect(pastSpell(former())).toEqual({ joinedOn: '2025-01-31', leftOn: '2026-05-31', monthlyAmountCents: 500 });
    // An annual pledge charged twice (2024-06, 2025-06) at 5400: 225 a month, left at the second anniversary.
    expect(pastSpell(former({ pledgeRelationshipStart: '2024-06-10T15:00:00Z', lastChargeDate: '2025-06-10T09:00:00Z', cadenceMonths: 12, lifetimeSupportCents: 10800 }))).toEqual({
      joinedOn: '2024-06-10',
      leftOn: '2026-06-10',
      monthlyAmountCents: 450,
    });
  });

  it('dates a declined departure at the declined charge, and gives no spell to who never paid', () => {
    expect(pastSpell(member({ patronStatus: 'declined_patron', paying: false, monthlyAmountCents: 0, lastChargeStatus: 'Declined', lastChargeDate: '2026-05-31T09:00:00Z' }))).toEqual({
      joinedOn: '2025-01-31',
      leftOn: '2026-05-31',
      monthlyAmountCents: 500,
    });
    expect(pastSpell(former({ lastChargeStatus: 'Free Trial', lastChargeDate: '2026-01-02T00:00:00Z' }))).toBeNull();
    expect(pastSpell(former({ lastChargeStatus: null, lastChargeDate: null }))).toBeNull();
    expect(pastSpell(former({ lastChargeStatus: 'Declined', lastChargeDate: '2025-01-31T15:00:00Z' }))).toBeNull();
  });

  it('backfills joins and departures whose net is the paying count, clamping future days to today', () => {
    const events = historyFromList(
      [
        member({ memberId: 'a' }),
        former({ memberId: 'b' }),
        former({ memberId: 'c', pledgeRelationshipStart: '2025-06-10T15:00:00Z', lastChargeDate: '2026-05-10T09:00:00Z', cadenceMonths: 12, lifetimeSupportCents: 5400 }),
        member({ memberId: 'd', paying: false, lastChargeStatus: 'Free Trial' }),
      ],
      '2026-05-20',
    );
    expect(events).toEqual([
      { memberId: 'a', occurredOn: '2025-01-31', kind: 'joined', monthlyAmountCents: 500 },
      { memberId: 'b', occurredOn: '2025-01-31', kind: 'joined', monthlyAmountCents: 500 },
      { memberId: 'b', occurredOn: '2026-05-20', kind: 'left', monthlyAmountCents: 500 },
      { memberId: 'c', occurredOn: '2025-06-10', kind: 'joined', monthlyAmountCents: 450 },
      { memberId: 'c', occurredOn: '2026-05-20', kind: 'left', monthlyAmountCents: 450 },
    ]);
  });

  it('writes later changes inside (last sync, today]: joins on their start day, departures on the estimated day or today', () => {
    const seen = new Date('2026-05-10T10:00:00Z');
    const stored = new Map<string, StoredMember>([
      ['stays', { memberId: 'stays', paying: true, monthlyAmountCents: 300, lastSeenAt: seen }],
      ['cancels', { memberId: 'cancels', paying: true, monthlyAmountCents: 700, lastSeenAt: seen }],
      ['vanishes', { memberId: 'vanishes', paying: true, monthlyAmountCents: 1500, lastSeenAt: seen }],
      ['returns', { memberId: 'returns', paying: false, monthlyAmountCents: 0, lastSeenAt: seen }],
    ]);
    const events = changesSince(
      stored,
      [
        member({ memberId: 'stays', monthlyAmountCents: 300 }),
        former({ memberId: 'cancels', lastChargeDate: '2026-04-12T09:00:00Z', pledgeRelationshipStart: '2025-03-12T10:00:00Z' }),
        member({ memberId: 'returns', pledgeRelationshipStart: '2026-05-01T10:00:00Z' }),
        member({ memberId: 'new', pledgeRelationshipStart: '2026-05-11T20:00:00Z', monthlyAmountCents: 700 }),
        former({ memberId: 'blink', pledgeRelationshipStart: '2026-05-11T08:00:00Z', lastChargeDate: '2026-05-11T08:00:00Z', lastChargeStatus: 'Refunded', lifetimeSupportCents: 0 }),
      ],
      '2026-05-10',
      '2026-05-13',
    );
    expect(events).toEqual([
      { memberId: 'cancels', occurredOn: '2026-05-12', kind: 'left', monthlyAmountCents: 700 },
      { memberId: 'returns', occurredOn: '2026-05-13', kind: 'joined', monthlyAmountCents: 500 },
      { memberId: 'new', occurredOn: '2026-05-11', kind: 'joined', monthlyAmountCents: 700 },
      { memberId: 'vanishes', occurredOn: '2026-05-13', kind: 'left', monthlyAmountCents: 1500 },
    ]);
    const net = events.reduce((sum, event) => sum + (event.kind === 'joined' ? 1 : -1), 0);
    // Paying before: stays, cancels, vanishes (3); now: stays, returns, new (3). 'blink' never paid (refunded first charge).
    expect(net).toBe(0);
  });
});

describe('the levels before the first sync', () => {
  it('counts each member from the day they joined to the day before they left, and ends the day before today', () => {
    const today = '2026-05-06';
    const events = historyFromList(
      [
        member({ memberId: 'stays', pledgeRelationshipStart: '2026-05-02T10:00:00Z', monthlyAmountCents: 300 }),
        former({ memberId: 'left', pledgeRelationshipStart: '2026-05-01T10:00:00Z', lastChargeDate: '2026-05-04T09:00:00Z', lastChargeStatus: 'Declined', entitledMonthlyCents: 500 }),
        member({ memberId: 'today', pledgeRelationshipStart: '2026-05-06T08:00:00Z', monthlyAmountCents: 900 }),
      ],
      today,
    );
    expect(levelsBefore(events, today)).toEqual([
      { day: '2026-05-01', patrons: 1, monthlyPledgeCents: 500 },
      { day: '2026-05-02', patrons: 2, monthlyPledgeCents: 800 },
      { day: '2026-05-03', patrons: 2, monthlyPledgeCents: 800 },
      // The declined charge of May 4 was not paid: gone that day.
      { day: '2026-05-04', patrons: 1, monthlyPledgeCents: 300 },
      { day: '2026-05-05', patrons: 1, monthlyPledgeCents: 300 },
    ]);
    // Today's levels are the platform's own reading; a list whose history starts today has none before it.
    expect(levelsBefore(historyFromList([member({ memberId: 'new', pledgeRelationshipStart: '2026-05-06T08:00:00Z' })], today), today)).toEqual([]);
  });

  it('reaches back at most two years, with the members who joined earlier already counted', () => {
    const today = '2026-05-06';
    const levels = levelsBefore(historyFromList([member({ memberId: 'old', pledgeRelationshipStart: '2019-01-01T00:00:00Z', monthlyAmountCents: 400 })], today), today);
    expect(levels).toHaveLength(LEVEL_HISTORY_DAYS);
    expect(levels[0]).toEqual({ day: '2024-05-06', patrons: 1, monthlyPledgeCents: 400 });
    expect(levels.at(-1)).toEqual({ day: '2026-05-05', patrons: 1, monthlyPledgeCents: 400 });
  });
});
