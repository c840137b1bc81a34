import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { platformConnections } from './platforms.ts';

/**
 * A Patreon campaign's member as last read (GET /campaigns/{id}/members). Only what the income view needs: whether
 * the member pays, how much a month (campaign currency cents, annual pledges as a twelfth), and when their pledge
 * began. Names and emails are not stored.
 */
export const patreonMembers = pgTable(
  'patreon_members',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    /** Patreon's member id (one per user and campaign). */
    memberId: text('member_id').notNull(),
    /** active_patron | declined_patron | former_patron | null (never pledged), as last read. */
    patronStatus: text('patron_status'),
    /** An active patron who is neither on a free trial nor gifted. */
    paying: boolean('paying').notNull(),
    /** currently_entitled_amount_cents / pledge_cadence; 0 when not paying. */
    monthlyAmountCents: integer('monthly_amount_cents').notNull().default(0),
    pledgeRelationshipStart: timestamp('pledge_relationship_start', { withTimezone: true }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.memberId] })],
);

/**
 * When a member started or stopped paying (UTC day): the income view's new, churned and net patrons, and the patron
 * conversion of uploads. `joined` and `left` alternate per member; a member who leaves and returns has two `joined`.
 * Written by the Patreon sync (server/modules/income/patron-history.ts, decision 022): the first sync backfills the
 * members list's history (a former patron left on the first charge not made); later syncs date each change inside
 * (previous sync's day, today], so the events' net up to a day is that day's paying count.
 */
export const patreonPatronEvents = pgTable(
  'patreon_patron_events',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    memberId: text('member_id').notNull(),
    occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
    /** joined | left */
    kind: text('kind').notNull(),
    /** Monthly amount in campaign currency cents at the change (the pledge gained or lost). */
    monthlyAmountCents: integer('monthly_amount_cents').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.memberId, table.occurredOn, table.kind] }),
    index('patreon_patron_events_connection_day_idx').on(table.connectionId, table.occurredOn),
  ],
);
