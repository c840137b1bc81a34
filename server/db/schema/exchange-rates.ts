import { date, doublePrecision, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The ECB's euro foreign exchange reference rates (decision 023): one row per published day and currency, `perEuro`
 * units of the currency for one euro. Cross rates go through the euro; a day without a row (weekends, TARGET
 * holidays) uses the latest published day before it.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    perEuro: doublePrecision('per_euro').notNull(),
    /** Who published the rate, shown beside every converted amount. */
    source: text('source').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.currency, table.day] })],
);
