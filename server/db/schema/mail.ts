import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * Mails that go out once per user and occasion (the welcome on confirmation, the trial-started mail per
 * subscription): a row is inserted (claimed) before the mail is sent, so a retried webhook, a second confirmation or
 * another server process finds the row and sends nothing. A send that failed gives its row back.
 */
export const sentMails = pgTable(
  'sent_mails',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** welcome | trial_started | data_deletion_notice */
    kind: text('kind').notNull(),
    /** What the mail is about within its kind (the Stripe subscription id); empty when the kind is once per user. */
    ref: text('ref').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind, table.ref] })],
);
