import { date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Platform quota spent per day and bucket, counted where the adapter spends it (server/modules/quota): YouTube's
 * Data API units per Pacific day in the `general` bucket (10,000 a day per Google Cloud project) and `search`
 * (search.list's own 100 calls a day). Shared by every server process, so the scheduler's quota sharing reads one
 * figure.
 */
export const platformQuotaUsage = pgTable(
  'platform_quota_usage',
  {
    platform: text('platform').notNull(),
    bucket: text('bucket').notNull(),
    /** The platform's quota day (YouTube: the calendar date in Pacific time). */
    day: date('day').notNull(),
    units: integer('units').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.platform, table.bucket, table.day] })],
);
