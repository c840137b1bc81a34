import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ReportFrequency } from '#contract/reports.ts';
import { users } from './accounts.ts';

/**
 * When a user wants the emailed report: never, daily or weekly (on `weekday`), at `hour` o'clock in the account's
 * time zone (users.time_zone; UTC while it has none: migration 0025 merged the reports' own zone into it).
 * `next_run_at` is that local time as an instant, recomputed after every run and every change (the zone's too), so
 * the scheduler finds due users with one indexed range query instead of evaluating every time zone each minute.
 */
export const reportPreferences = pgTable(
  'report_preferences',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** off | daily | weekly */
    frequency: text('frequency').$type<ReportFrequency>().notNull().default('off'),
    /** ISO weekday, 1 = Monday … 7 = Sunday; only read for weekly reports. */
    weekday: integer('weekday').notNull().default(1),
    hour: integer('hour').notNull().default(8),
    /** Null while reports are off. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('report_preferences_next_run_idx').on(table.nextRunAt)],
);

/**
 * The ledger of reports: one row per user and period, claimed (inserted) before the email is sent, so whichever
 * process inserts first sends and every other one sees the row and stops. A send that failed is marked `failed`
 * and may be claimed again after `retry_at`; a `sending` row left by a crash is never re-sent (the mail may have
 * gone out: a missing report is better than a duplicate).
 */
export const reportDeliveries = pgTable(
  'report_deliveries',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** e.g. `daily:2026-11-02` or `weekly:2026-10-26` (the first day of the reported week). */
    periodKey: text('period_key').notNull(),
    /** sending | sent | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    lastError: text('last_error'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('report_deliveries_user_period_key').on(table.userId, table.periodKey),
    index('report_deliveries_retry_idx').on(table.status, table.retryAt),
  ],
);

/**
 * One-click unsubscribe links (RFC 8058): each report carries a fresh 256-bit token; only its SHA-256 is kept.
 * A token only turns its topic off (`reports`, or an alert kind such as `alert:reconnect`: decision 015), so it may
 * be used any number of times until it expires.
 */
export const reportUnsubscribeTokens = pgTable(
  'report_unsubscribe_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the link turns off: `reports`, or `alert:<kind>`. */
    topic: text('topic').notNull().default('reports'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('report_unsubscribe_tokens_user_idx').on(table.userId)],
);
