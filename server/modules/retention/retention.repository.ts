// The data-retention job's database side: lapsed accounts that still hold platform data, connections whose grant has
// not worked for 30 days, the tracked public YouTube channels' history older than 30 days, and what is derived from a
// deleted connection outside its own rows (in-app notices, cached analytics answers).
import { and, eq, exists, inArray, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { accountMetrics, analyticsCache, notifications, platformConnections, sentMails, subscriptions, users } from '../../db/schema.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { AccessEndFields } from '../billing/subscription-state.ts';

export interface LapsedAccount extends AccessEndFields {
  userId: number;
}

/** The grant stopped working at or before `since` (a row marked before the moment was kept: its last update, migration 0028). */
const brokenAtOrBefore = (since: Date) => sql`coalesce(${platformConnections.needsReconnectSince}, ${platformConnections.updatedAt}) <= ${since.toISOString()}::timestamptz`;

export function createRetentionRepository(db: Database, ownerHasAccess: OwnerHasAccess) {
  return {
    /** Accounts without access at `now` that still have connections (OAuth or tracked): the ones with data to keep or delete. */
    lapsedAccountsWithConnections(now: Date): Promise<LapsedAccount[]> {
      return db
        .select({ userId: subscriptions.userId, status: subscriptions.status, trialEnd: subscriptions.trialEnd, currentPeriodStart: subscriptions.currentPeriodStart, endedAt: subscriptions.endedAt })
        .from(subscriptions)
        .where(and(exists(db.select({ one: sql`1` }).from(platformConnections).where(eq(platformConnections.userId, subscriptions.userId))), sql`not ${ownerHasAccess(subscriptions.userId, now)}`))
        .orderBy(subscriptions.userId);
    },

    /** Who the deletion notice goes to, with the time zone its date is written in. */
    async recipient(userId: number): Promise<{ email: string; firstName: string; timeZone: string | null } | undefined> {
      const [row] = await db.select({ email: users.email, firstName: users.firstName, timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
      return row;
    },

    /** When the deletion notice about this lapse (`ref`) was claimed for sending; undefined before. */
    async noticeSentAt(userId: number, ref: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ sentAt: sentMails.sentAt })
        .from(sentMails)
        .where(and(eq(sentMails.userId, userId), eq(sentMails.kind, 'data_deletion_notice'), eq(sentMails.ref, ref)));
      return row?.sentAt;
    },

    /** The user's connection ids. */
    async connectionIdsOf(userId: number): Promise<number[]> {
      const rows = await db.select({ id: platformConnections.id }).from(platformConnections).where(eq(platformConnections.userId, userId)).orderBy(platformConnections.id);
      return rows.map((row) => row.id);
    },

    /** Connections whose grant stopped working at or before `since` and was not renewed. */
    staleReconnects(since: Date): Promise<{ id: number; userId: number; platform: string }[]> {
      return db
        .select({ id: platformConnections.id, userId: platformConnections.userId, platform: platformConnections.platform })
        .from(platformConnections)
        .where(and(eq(platformConnections.needsReconnect, true), brokenAtOrBefore(since)))
        .orderBy(platformConnections.id);
    },

    /**
     * Deletes the connection (its history, posts, sync state and platform extras go with it, by cascade) if it still
     * needs reconnecting since at or before `since`: a reconnect that won meanwhile keeps it.
     */
    async deleteStaleReconnect(id: number, since: Date): Promise<boolean> {
      const rows = await db
        .delete(platformConnections)
        .where(and(eq(platformConnections.id, id), eq(platformConnections.needsReconnect, true), brokenAtOrBefore(since)))
        .returning({ id: platformConnections.id });
      return rows.length === 1;
    },

    /** Days before `beforeDay` (YYYY-MM-DD) of tracked public YouTube channels: read with the API key, not the channel owner's grant. */
    async deleteTrackedYouTubeHistory(beforeDay: string): Promise<number> {
      const rows = await db
        .delete(accountMetrics)
        .where(
          and(
            sql`${accountMetrics.date} < ${beforeDay}::date`,
            inArray(
              accountMetrics.connectionId,
              db.select({ id: platformConnections.id }).from(platformConnections).where(and(eq(platformConnections.manual, true), eq(platformConnections.platform, 'youtube'))),
            ),
          ),
        )
        .returning({ id: accountMetrics.id });
      return rows.length;
    },

    /** In-app notices about connections that no longer exist (a top post's title, a follower count, a reconnect button). */
    async deleteOrphanNotices(): Promise<number> {
      const rows = await db
        .delete(notifications)
        .where(
          and(
            sql`${notifications.connectionId} is not null`,
            notExists(db.select({ one: sql`1` }).from(platformConnections).where(eq(platformConnections.id, notifications.connectionId))),
          ),
        )
        .returning({ id: notifications.id });
      return rows.length;
    },

    /** The user's cached analytics answers (computed from the data just deleted). */
    async deleteCachedAnswers(userId: number): Promise<void> {
      await db.delete(analyticsCache).where(eq(analyticsCache.userId, userId));
    },
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
