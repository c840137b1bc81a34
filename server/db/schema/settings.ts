import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * An email change waiting for the new address to prove itself: the account's email only changes when the link
 * sent there is opened. One pending change per user (a new request replaces it); the token is kept as SHA-256.
 */
export const pendingEmailChanges = pgTable(
  'pending_email_changes',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('pending_email_changes_token_idx').on(table.tokenHash)],
);
