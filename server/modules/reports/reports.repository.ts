import { and, asc, eq, getTableColumns, lt, lte, ne, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { reportDeliveries, reportPreferences, reportUnsubscribeTokens, users } from '../../db/schema.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';

export type ReportPreferencesValues = typeof reportPreferences.$inferSelect;
/** The preferences with the account's time zone they are read in (UTC while the account has none). */
export type ReportPreferencesRow = ReportPreferencesValues & { timeZone: string };
export type ReportDeliveryRow = typeof reportDeliveries.$inferSelect;

/** The preferences' columns and the account's zone: reports have no zone of their own (migration 0025). */
const withAccountZone = { ...getTableColumns(reportPreferences), timeZone: sql<string>`coalesce(${users.timeZone}, 'UTC')`.as('time_zone') };

/** `ownerHasAccess`: the access rule in SQL (billing's); due reports are only those of accounts with valid access. */
export function createReportsRepository(db: Database, ownerHasAccess: OwnerHasAccess) {
  return {
    async preferences(userId: number): Promise<ReportPreferencesRow | undefined> {
      const [row] = await db.select(withAccountZone).from(reportPreferences).innerJoin(users, eq(users.id, reportPreferences.userId)).where(eq(reportPreferences.userId, userId));
      return row;
    },

    /** The account's time zone, null while none is chosen. */
    async accountTimeZone(userId: number): Promise<string | null> {
      const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
      return row?.timeZone ?? null;
    },

    /** Sets the account's one time zone (a report preferences request that names a zone). */
    async setAccountTimeZone(userId: number, timeZone: string) {
      await db.update(users).set({ timeZone }).where(eq(users.id, userId));
    },

    async savePreferences(values: ReportPreferencesValues) {
      const { userId, ...rest } = values;
      await db.insert(reportPreferences).values(values).onConflictDoUpdate({ target: reportPreferences.userId, set: rest });
    },

    /**
     * Users with valid access whose next report time has come, oldest first (the next_run_at index). An account whose
     * trial or subscription ended waits here, its schedule unmoved, by the rule the sync scheduler uses; subscribing
     * again makes its latest report time due (sent if it is still fresh, see STALE_AFTER_MS).
     */
    duePreferences(now: Date, limit: number): Promise<ReportPreferencesRow[]> {
      return db
        .select(withAccountZone)
        .from(reportPreferences)
        .innerJoin(users, eq(users.id, reportPreferences.userId))
        .where(and(ne(reportPreferences.frequency, 'off'), lte(reportPreferences.nextRunAt, now), ownerHasAccess(reportPreferences.userId, now)))
        .orderBy(asc(reportPreferences.nextRunAt))
        .limit(limit);
    },

    /** Moves the schedule on, unless the user changed it meanwhile (their new schedule then stands). */
    async advanceSchedule(userId: number, seenNextRunAt: Date, nextRunAt: Date | null) {
      await db
        .update(reportPreferences)
        .set({ nextRunAt })
        .where(and(eq(reportPreferences.userId, userId), eq(reportPreferences.nextRunAt, seenNextRunAt)));
    },

    /**
     * Claims the (user, period) report: the unique index lets exactly one insert succeed, whichever process or
     * retry gets there first. Undefined means someone else has it (or had it).
     */
    async claim(userId: number, periodKey: string, now: Date): Promise<ReportDeliveryRow | undefined> {
      const [row] = await db
        .insert(reportDeliveries)
        .values({ userId, periodKey, status: 'sending', attempts: 1, claimedAt: now })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /** Failed sends whose retry time has come. */
    dueRetries(now: Date, limit: number): Promise<ReportDeliveryRow[]> {
      return db
        .select()
        .from(reportDeliveries)
        .where(and(eq(reportDeliveries.status, 'failed'), lte(reportDeliveries.retryAt, now)))
        .orderBy(asc(reportDeliveries.retryAt))
        .limit(limit);
    },

    /** Takes a failed send back for another attempt; only one process can move it from failed to sending. */
    async reclaim(id: number, now: Date): Promise<ReportDeliveryRow | undefined> {
      const [row] = await db
        .update(reportDeliveries)
        .set({ status: 'sending', attempts: sql`${reportDeliveries.attempts} + 1`, claimedAt: now, retryAt: null })
        .where(and(eq(reportDeliveries.id, id), eq(reportDeliveries.status, 'failed'), lte(reportDeliveries.retryAt, now)))
        .returning();
      return row;
    },

    async markSent(id: number, at: Date) {
      await db.update(reportDeliveries).set({ status: 'sent', sentAt: at, lastError: null, retryAt: null }).where(eq(reportDeliveries.id, id));
    },

    /** retryAt null: given up (or no longer wanted). */
    async markFailed(id: number, error: string, retryAt: Date | null) {
      await db.update(reportDeliveries).set({ status: 'failed', lastError: error.slice(0, 500), retryAt }).where(eq(reportDeliveries.id, id));
    },

    async recipient(userId: number) {
      const [row] = await db.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId));
      return row;
    },

    async insertUnsubscribeToken(values: typeof reportUnsubscribeTokens.$inferInsert) {
      await db.insert(reportUnsubscribeTokens).values(values);
    },

    /** The live token's user and topic; undefined when the token is unknown or expired. */
    async unsubscribeToken(tokenHash: string, now: Date): Promise<{ userId: number; topic: string } | undefined> {
      const [token] = await db.select().from(reportUnsubscribeTokens).where(eq(reportUnsubscribeTokens.tokenHash, tokenHash));
      if (!token || token.expiresAt <= now) return undefined;
      return { userId: token.userId, topic: token.topic };
    },

    async turnReportsOff(userId: number, now: Date) {
      await db.update(reportPreferences).set({ frequency: 'off', nextRunAt: null, updatedAt: now }).where(eq(reportPreferences.userId, userId));
    },

    async deleteExpiredUnsubscribeTokens(now: Date) {
      await db.delete(reportUnsubscribeTokens).where(lt(reportUnsubscribeTokens.expiresAt, now));
    },

    /** YouTube insights generated in [from, to) for the user's channels. */
    async newInsights(userId: number, from: Date, to: Date, limit: number) {
      return queryRows<{ title: string; recommendation: string; confidence: number }>(
        db,
        sql`select i.title, i.recommendation, i.confidence_score::float8 as confidence
          from youtube_insights i join platform_connections c on c.id = i.connection_id
          where c.user_id = ${userId} and i.created_at >= ${from.toISOString()} and i.created_at < ${to.toISOString()}
          order by i.confidence_score desc, i.id limit ${limit}`,
      );
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
