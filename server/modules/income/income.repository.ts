// What the income view reads: the caller's own connections, their daily revenue, pledges, patron counts and views,
// patron joins and departures, the stored exchange rates, and the user's display currency. Only the caller's rows:
// every query starts from platform_connections.user_id.
import { and, asc, count, desc, eq, gte, inArray, lte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { accountMetrics, exchangeRates, patreonPatronEvents, platformConnections, users } from '../../db/schema.ts';
import { dailyPatronFlows } from './patron-flows.repository.ts';

export interface IncomeConnection {
  id: number;
  platform: string;
  account: string | null;
  currency: string | null;
}

export interface DailyValue {
  connectionId: number;
  day: string;
  metricType: string;
  value: number;
}

/** Revenue parts of YouTube, pledges and patron counts of Patreon, and views of every platform. */
const REVENUE_TYPES = ['revenue', 'ad_revenue', 'premium_revenue'];
const LEVEL_TYPES = ['monthly_pledges', 'patrons'];

export function createIncomeRepository(db: Database) {
  return {
    async displayCurrency(userId: number): Promise<string> {
      const [row] = await db.select({ currency: users.displayCurrency }).from(users).where(eq(users.id, userId));
      return row?.currency ?? 'USD';
    },

    async connections(userId: number): Promise<IncomeConnection[]> {
      return db
        .select({ id: platformConnections.id, platform: platformConnections.platform, account: platformConnections.platformUsername, currency: platformConnections.currency })
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.isActive, true)))
        .orderBy(asc(platformConnections.id));
    },

    /** Daily revenue parts and views within the range. */
    async dailyValues(connectionIds: number[], startDate: string, endDate: string): Promise<DailyValue[]> {
      if (connectionIds.length === 0) return [];
      return db
        .select({ connectionId: accountMetrics.connectionId, day: accountMetrics.date, metricType: accountMetrics.metricType, value: accountMetrics.value })
        .from(accountMetrics)
        .where(
          and(
            inArray(accountMetrics.connectionId, connectionIds),
            inArray(accountMetrics.metricType, [...REVENUE_TYPES, 'views']),
            gte(accountMetrics.date, startDate),
            lte(accountMetrics.date, endDate),
          ),
        );
    },

    /**
     * Pledge levels and patron counts: the readings within the range and, per connection and type, the latest one
     * before it (a level holds until the next reading).
     */
    async levelReadings(connectionIds: number[], startDate: string, endDate: string): Promise<DailyValue[]> {
      if (connectionIds.length === 0) return [];
      const inRange = await db
        .select({ connectionId: accountMetrics.connectionId, day: accountMetrics.date, metricType: accountMetrics.metricType, value: accountMetrics.value })
        .from(accountMetrics)
        .where(and(inArray(accountMetrics.connectionId, connectionIds), inArray(accountMetrics.metricType, LEVEL_TYPES), gte(accountMetrics.date, startDate), lte(accountMetrics.date, endDate)));
      const before: DailyValue[] = [];
      for (const connectionId of connectionIds) {
        for (const metricType of LEVEL_TYPES) {
          const [row] = await db
            .select({ connectionId: accountMetrics.connectionId, day: accountMetrics.date, metricType: accountMetrics.metricType, value: accountMetrics.value })
            .from(accountMetrics)
            .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, metricType), lt(accountMetrics.date, startDate)))
            .orderBy(desc(accountMetrics.date))
            .limit(1);
          if (row) before.push(row);
        }
      }
      return [...before, ...inRange];
    },

    /** Joins and departures per connection and day within the range (the one per-day query of them, shared with patron conversion). */
    patronFlows(connectionIds: number[], startDate: string, endDate: string) {
      return dailyPatronFlows(db, connectionIds, startDate, endDate);
    },

    /** The connections that have any patron event stored (the others' new and churned patrons are unknown, not 0). */
    async connectionsWithPatronEvents(connectionIds: number[]): Promise<Set<number>> {
      if (connectionIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ connectionId: patreonPatronEvents.connectionId })
        .from(patreonPatronEvents)
        .where(inArray(patreonPatronEvents.connectionId, connectionIds));
      return new Set(rows.map((row) => row.connectionId));
    },

    /** The rates of the currencies within the range, and the latest one before it, sorted by day. */
    async rates(currencies: string[], startDate: string, endDate: string) {
      if (currencies.length === 0) return [];
      const rows = await db
        .select({ currency: exchangeRates.currency, day: exchangeRates.day, perEuro: exchangeRates.perEuro, source: exchangeRates.source })
        .from(exchangeRates)
        .where(
          and(
            inArray(exchangeRates.currency, currencies),
            lte(exchangeRates.day, endDate),
            // The latest publication before the range still covers its first days (weekends, holidays).
            gte(exchangeRates.day, sql`coalesce((select max(r.day) from exchange_rates r where r.currency = ${exchangeRates.currency} and r.day <= ${startDate}), ${startDate})`),
          ),
        )
        .orderBy(asc(exchangeRates.currency), asc(exchangeRates.day));
      return rows;
    },
  };
}

export type IncomeRepository = ReturnType<typeof createIncomeRepository>;
