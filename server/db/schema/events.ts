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

/**
 * The open live-update streams of every server process, so that limits and endings hold across processes sharing the
 * database: at most a few streams per user (counted here under a per-user lock), and a stream ends when its session
 * does. A session's end deletes its rows (cascade), and deleting a row notifies the process holding the stream
 * through the trigger `event_streams_notify_end` (hand-written in the migration: drizzle-kit does not model triggers),
 * which closes it. The holder refreshes `seen_at` every heartbeat; a row a crashed process left behind goes stale and
 * stops counting.
 */
export const eventStreams = pgTable(
  'event_streams',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('event_streams_user_idx').on(table.userId), index('event_streams_session_idx').on(table.sessionId)],
);
