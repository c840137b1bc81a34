import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The account's one time zone (current IANA name): emailed reports, best time to post and dates in mails are read
     * in it. Null until chosen: best times use the browser's zone, reports and mails UTC.
     */
    timeZone: text('time_zone'),
    /** ISO 4217 code the income view shows amounts in (converted only with a dated rate beside them). */
    displayCurrency: text('display_currency').notNull().default('USD'),
  },
  (table) => [
    // Case-insensitive uniqueness lives in the database, so two concurrent sign-ups cannot both win.
    uniqueIndex('users_username_lower_key').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
  ],
);

export const emailConfirmationTokens = pgTable(
  'email_confirmation_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * SHA-256 of the token; the token itself is only ever in the email. Once used, 'used:' and the hash: the link then
     * answers that the address is already confirmed instead of that it is invalid.
     */
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to: confirming proves this address, not whatever the account holds later. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('email_confirmation_tokens_user_idx').on(table.userId)],
);

/** A password reset link (issue 25): one per account, the newest replacing any earlier; single use, an hour. */
export const passwordResetTokens = pgTable('password_reset_tokens', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** SHA-256 of the token; the token itself is only ever in the email. */
  tokenHash: text('token_hash').notNull(),
  /** The address the link was sent to: after an email change the link no longer works. */
  email: text('email').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    /** Public half of the bearer token `<id>.<secret>`; lookups by id avoid timing attacks on the secret. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);
