import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { alertSettings, notifications, platformConnections, topPostChecks, users } from '../../db/schema.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type AlertSettingsRow = typeof alertSettings.$inferSelect;

/** `ownerHasAccess`: the access rule in SQL (billing's); the reconnect scan alerts only accounts with valid access. */
export function createNotificationsRepository(db: Database, ownerHasAccess: OwnerHasAccess) {
  return {
    async alertSettings(userId: number): Promise<AlertSettingsRow | undefined> {
      const [row] = await db.select().from(alertSettings).where(eq(alertSettings.userId, userId));
      return row;
    },

    async saveAlertSettings(userId: number, changes: Partial<Pick<AlertSettingsRow, 'reconnect' | 'topPost' | 'followerMilestone'>>, now: Date): Promise<AlertSettingsRow> {
      const [row] = await db
        .insert(alertSettings)
        .values({ userId, ...changes, updatedAt: now })
        .onConflictDoUpdate({ target: alertSettings.userId, set: { ...changes, updatedAt: now } })
        .returning();
      return row!;
    },

    /** The notice, unless one with the same (user, key) exists: undefined then (someone else has this occurrence). */
    async insertOnce(values: typeof notifications.$inferInsert): Promise<NotificationRow | undefined> {
      const [row] = await db.insert(notifications).values(values).onConflictDoNothing().returning();
      return row;
    },

    list(userId: number, limit: number): Promise<NotificationRow[]> {
      return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit);
    },

    async unreadCount(userId: number): Promise<number> {
      const [row] = await db.select({ value: count() }).from(notifications).where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return Number(row?.value ?? 0);
    },

    /** Marks the user's notice read (a second call keeps the first time); undefined when it is not theirs. */
    async markRead(userId: number, id: number, now: Date): Promise<NotificationRow | undefined> {
      const [row] = await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning();
      if (row) return row;
      const [existing] = await db.select().from(notifications).where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      return existing;
    },

    async connection(connectionId: number) {
      const [row] = await db
        .select({
          id: platformConnections.id,
          userId: platformConnections.userId,
          platform: platformConnections.platform,
          platformUsername: platformConnections.platformUsername,
          platformUserId: platformConnections.platformUserId,
          tokenIssuedAt: platformConnections.tokenIssuedAt,
          connectedAt: platformConnections.connectedAt,
        })
        .from(platformConnections)
        .where(eq(platformConnections.id, connectionId));
      return row;
    },

    /**
     * Active connections marked for reconnection, of users who want the alert, whose current episode has no notice
     * yet (the key as the service
     * builds it; should the two ever disagree, the service's insert still keeps it to one notice).
     */
    async connectionsToAlertForReconnect(limit: number, now: Date): Promise<{ id: number; platform: string }[]> {
      return queryRows<{ id: number; platform: string }>(
        db,
        // An account whose trial or subscription ended gets no alert (nothing of it syncs): the scan takes it up again
        // once it subscribes, if the connection still needs reconnecting.
        sql`select c.id, c.platform from platform_connections c
          where c.needs_reconnect and c.is_active and ${ownerHasAccess(sql`c.user_id`, now)}
            and not exists (select 1 from alert_settings s where s.user_id = c.user_id and not s.reconnect)
            and not exists (select 1 from notifications n where n.user_id = c.user_id
              and n.key = 'reconnect:' || c.id || ':' || floor(extract(epoch from coalesce(c.token_issued_at, c.connected_at)) * 1000)::bigint)
          order by c.id limit ${limit}`,
      );
    },

    /** Up to when the connection's posts' age moments have been evaluated for the top post alert (none yet: undefined). */
    async topPostCheckedThrough(connectionId: number): Promise<Date | undefined> {
      const [row] = await db.select({ at: topPostChecks.checkedThrough }).from(topPostChecks).where(eq(topPostChecks.connectionId, connectionId));
      return row?.at;
    },

    /**
     * Moves the mark from `from` (undefined: no mark yet) to `through`, if no one moved it since it was read: a
     * compare-and-set, so the moments in between are this caller's alone, whichever process and job gets there first.
     */
    async claimTopPostWindow(connectionId: number, from: Date | undefined, through: Date): Promise<boolean> {
      const rows = from
        ? await db
            .update(topPostChecks)
            .set({ checkedThrough: through })
            .where(and(eq(topPostChecks.connectionId, connectionId), eq(topPostChecks.checkedThrough, from)))
            .returning({ id: topPostChecks.connectionId })
        : await db.insert(topPostChecks).values({ connectionId, checkedThrough: through }).onConflictDoNothing().returning({ id: topPostChecks.connectionId });
      return rows.length > 0;
    },

    /**
     * Each age of `hours` (after publishing) that a post of the connection reached in (from, through], youngest
     * first, leaving out posts that have had their top post alert already.
     */
    postsReachingAges(connectionId: number, from: Date, through: Date, hours: readonly number[]) {
      const ages = sql.join(hours.map((value) => sql`(${value}::int)`), sql`, `);
      return queryRows<{ id: number; title: string; url: string | null; hours: number }>(
        db,
        sql`select ci.id, ci.title, ci.url, a.hours from content_items ci
          join platform_connections c on c.id = ci.connection_id
          cross join (values ${ages}) as a(hours)
          where ci.connection_id = ${connectionId} and ci.published_at is not null
            and ci.published_at + a.hours * interval '1 hour' > ${from.toISOString()}::timestamptz
            and ci.published_at + a.hours * interval '1 hour' <= ${through.toISOString()}::timestamptz
            and not exists (select 1 from notifications n where n.user_id = c.user_id and n.key = 'top-post:' || ci.id)
          order by a.hours, ci.id`,
      );
    },

    async recipient(userId: number) {
      const [row] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId));
      return row;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
