import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { alertSettings, notifications, platformConnections, users } from '../../db/schema.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type AlertSettingsRow = typeof alertSettings.$inferSelect;

export function createNotificationsRepository(db: Database) {
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
    async connectionsToAlertForReconnect(limit: number): Promise<{ id: number; platform: string }[]> {
      return queryRows<{ id: number; platform: string }>(
        db,
        sql`select c.id, c.platform from platform_connections c
          where c.needs_reconnect and c.is_active
            and not exists (select 1 from alert_settings s where s.user_id = c.user_id and not s.reconnect)
            and not exists (select 1 from notifications n where n.user_id = c.user_id
              and n.key = 'reconnect:' || c.id || ':' || floor(extract(epoch from coalesce(c.token_issued_at, c.connected_at)) * 1000)::bigint)
          order by c.id limit ${limit}`,
      );
    },

    async recipient(userId: number) {
      const [row] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId));
      return row;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
