import { and, asc, count, eq, gt, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oauthStates, platformConnections } from '../../db/schema.ts';

export type ConnectionRow = typeof platformConnections.$inferSelect;
export type NewConnection = typeof platformConnections.$inferInsert;
export type OAuthStateRow = typeof oauthStates.$inferSelect;

/** The queries, usable on the database or inside a transaction. */
function platformQueries(db: Database) {
  return {
    async insertState(values: OAuthStateRow) {
      await db.insert(oauthStates).values(values);
    },

    /**
     * Deletes and answers the pending authorization with this state, whoever asks: the first callback that
     * presents a state uses it up, so two concurrent callbacks cannot both exchange a code.
     */
    async consumeState(stateHash: string): Promise<OAuthStateRow | undefined> {
      const [row] = await db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning();
      return row;
    },

    async deleteExpiredStates(now: Date) {
      await db.delete(oauthStates).where(lt(oauthStates.expiresAt, now));
    },

    listConnections(userId: number): Promise<ConnectionRow[]> {
      return db.select().from(platformConnections).where(eq(platformConnections.userId, userId)).orderBy(asc(platformConnections.id));
    },

    listConnectionsOnPlatform(userId: number, platform: string): Promise<ConnectionRow[]> {
      return db
        .select()
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.platform, platform)))
        .orderBy(asc(platformConnections.id));
    },

    /** The user's connection with this id; another user's id reads as absent. */
    async findConnection(userId: number, id: number): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(platformConnections)
        .where(and(eq(platformConnections.id, id), eq(platformConnections.userId, userId)));
      return row;
    },

    async findConnectionById(id: number): Promise<ConnectionRow | undefined> {
      const [row] = await db.select().from(platformConnections).where(eq(platformConnections.id, id));
      return row;
    },

    async findUserAccount(userId: number, platform: string, platformUserId: string): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.platform, platform), eq(platformConnections.platformUserId, platformUserId)));
      return row;
    },

    /** Another user's OAuth link to this platform account, if any. */
    async findOAuthLinkOfOtherUser(userId: number, platform: string, platformUserId: string): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(platformConnections)
        .where(
          and(
            eq(platformConnections.platform, platform),
            eq(platformConnections.platformUserId, platformUserId),
            eq(platformConnections.manual, false),
            ne(platformConnections.userId, userId),
          ),
        );
      return row;
    },

    /**
     * Whether a stored OAuth connection may hold a grant that a new authorization of the same platform account shares:
     * one of this platform account (any user's), or, when the account is unknown, a working one of the user's.
     */
    async mayShareGrant(platform: string, holder: { platformUserId: string } | { userId: number }): Promise<boolean> {
      const [row] = await db
        .select({ id: platformConnections.id })
        .from(platformConnections)
        .where(
          and(
            eq(platformConnections.platform, platform),
            eq(platformConnections.manual, false),
            isNotNull(platformConnections.accessToken),
            'platformUserId' in holder
              ? eq(platformConnections.platformUserId, holder.platformUserId)
              : and(eq(platformConnections.userId, holder.userId), eq(platformConnections.needsReconnect, false)),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async countConnectionsOnPlatform(userId: number, platform: string): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.platform, platform)));
      return row?.value ?? 0;
    },

    async insertConnection(values: NewConnection): Promise<ConnectionRow> {
      const [row] = await db.insert(platformConnections).values(values).returning();
      return row!;
    },

    async updateConnection(id: number, values: Partial<NewConnection>): Promise<ConnectionRow | undefined> {
      const [row] = await db.update(platformConnections).set(values).where(eq(platformConnections.id, id)).returning();
      return row;
    },

    /** The grant stopped working: the user must connect again. The first moment it failed is kept (the 30 days run from it). */
    async markNeedsReconnect(id: number, now: Date) {
      await db
        .update(platformConnections)
        .set({ needsReconnect: true, needsReconnectSince: sql`coalesce(${platformConnections.needsReconnectSince}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
        .where(eq(platformConnections.id, id));
    },

    /** Replaces stored tokens only if they are still the ones read (a concurrent refresh wins over re-encryption). */
    async replaceTokensIfUnchanged(
      id: number,
      expected: { accessToken: string | null; refreshToken: string | null },
      next: { accessToken: string | null; refreshToken: string | null },
    ): Promise<boolean> {
      const same = (column: typeof platformConnections.accessToken | typeof platformConnections.refreshToken, value: string | null) => (value === null ? sql`${column} is null` : eq(column, value));
      const rows = await db
        .update(platformConnections)
        .set(next)
        .where(and(eq(platformConnections.id, id), same(platformConnections.accessToken, expected.accessToken), same(platformConnections.refreshToken, expected.refreshToken)))
        .returning({ id: platformConnections.id });
      return rows.length === 1;
    },

    async deleteConnection(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(platformConnections)
        .where(and(eq(platformConnections.id, id), eq(platformConnections.userId, userId)))
        .returning({ id: platformConnections.id });
      return rows.length === 1;
    },

    /** Connections holding tokens, in id order after `afterId`: the re-encryption job's pages. */
    listWithTokens(afterId: number, limit: number): Promise<ConnectionRow[]> {
      return db
        .select()
        .from(platformConnections)
        .where(and(gt(platformConnections.id, afterId), or(isNotNull(platformConnections.accessToken), isNotNull(platformConnections.refreshToken))))
        .orderBy(asc(platformConnections.id))
        .limit(limit);
    },

    /** Dashboard totals: the latest follower counts of the user's active connections. */
    async summary(userId: number): Promise<{ totalFollowers: number; connectedPlatforms: number }> {
      const [row] = await db
        .select({ totalFollowers: sql<string>`coalesce(sum(${platformConnections.followers}), 0)::text`, connectedPlatforms: count() })
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.isActive, true)));
      return { totalFollowers: Number(row?.totalFollowers ?? 0), connectedPlatforms: row?.connectedPlatforms ?? 0 };
    },
  };
}

export type PlatformQueries = ReturnType<typeof platformQueries>;

export function createPlatformsRepository(db: Database) {
  return {
    ...platformQueries(db),

    /**
     * Runs `work` in one transaction holding a lock on the user's connections to one platform: the per-user limit
     * and the "linked to another user" check cannot be raced by a concurrent connect.
     */
    async withUserPlatformLock<T>(userId: number, platform: string, work: (locked: PlatformQueries) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`platform-connections:${userId}:${platform}`}, 0))`);
        return work(platformQueries(tx as unknown as Database));
      });
    },

    /**
     * Runs `work` in one transaction holding the connection's row lock (`select … for update`), with the row as
     * it is once the lock is held: a refresh that waited for another one sees the tokens that one stored.
     * Answers undefined when the connection no longer exists.
     */
    async withConnectionLock<T>(id: number, work: (row: ConnectionRow, locked: PlatformQueries) => Promise<T>): Promise<T | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(platformConnections).where(eq(platformConnections.id, id)).for('update');
        if (!row) return undefined;
        return work(row, platformQueries(tx as unknown as Database));
      });
    },
  };
}

export type PlatformsRepository = ReturnType<typeof createPlatformsRepository>;
