import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window counters shared by every server process (limits held in one process's memory would be
 * multiplied by the number of processes). Updated with one atomic upsert per hit.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  /** How many times this key has been blocked in a row; drives the growing delay. */
  strikes: integer('strikes').notNull().default(0),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});
