import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sessions, users } from './accounts.ts';

/**
 * Single-use tickets that open a live-update stream (GET /api/events/stream). A browser's EventSource cannot send
 * an Authorization header, and a session token must never sit in a URL (logs, history), so a bearer-authenticated
 * call trades the session for a short-lived ticket first. Only the SHA-256 of a ticket is stored; it dies with its
 * session (logout) and on first use.
 */
export const eventStreamTickets = pgTable(
  'event_stream_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('event_stream_tickets_expires_idx').on(table.expiresAt)],
);
