import { and, count, desc, eq, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiTokens, subscriptions, users } from '../../db/schema.ts';
import { platformDataFingerprint } from '../../db/platform-data-fingerprint.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export function createApiTokensRepository(db: Database) {
  // Every request a script makes runs this: the token with its user, the subscription the access gate reads and the
  // fingerprint the analytics cache is keyed on, in one round trip (as the session's own lookup does).
  const findByHashStatement = db
    .select({
      token: { id: apiTokens.id, userId: apiTokens.userId, lastUsedAt: apiTokens.lastUsedAt, revokedAt: apiTokens.revokedAt },
      user: users,
      subscription: { status: subscriptions.status, trialEnd: subscriptions.trialEnd, currentPeriodStart: subscriptions.currentPeriodStart },
      dataFingerprint: platformDataFingerprint(users.id),
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(subscriptions, eq(subscriptions.userId, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .prepare('find_api_token_context');

  return {
    async findContextByHash(tokenHash: string) {
      const [row] = await findByHashStatement.execute({ tokenHash });
      return row;
    },

    /** The user's live tokens, newest first. */
    async listLive(userId: number) {
      return db
        .select({ id: apiTokens.id, name: apiTokens.name, prefix: apiTokens.prefix, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt })
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
    },

    /**
     * Inserts the token unless the user already holds `limit` live ones (then undefined), and keeps the newest `limit`
     * revoked ones. The user's row is locked first, so two concurrent creations cannot both pass the count.
     */
    async insertWithinLimit(values: typeof apiTokens.$inferInsert, limit: number): Promise<ApiTokenRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
        const [live] = await tx
          .select({ count: count() })
          .from(apiTokens)
          .where(and(eq(apiTokens.userId, values.userId), isNull(apiTokens.revokedAt)));
        if ((live?.count ?? 0) >= limit) return undefined;
        // Revoked rows are kept for the record, but only the newest `limit` of them: making and revoking tokens in a
        // loop cannot grow the table without bound.
        const keptRevoked = tx
          .select({ id: apiTokens.id })
          .from(apiTokens)
          .where(and(eq(apiTokens.userId, values.userId), isNotNull(apiTokens.revokedAt)))
          .orderBy(desc(apiTokens.revokedAt), desc(apiTokens.id))
          .limit(limit);
        await tx.delete(apiTokens).where(and(eq(apiTokens.userId, values.userId), isNotNull(apiTokens.revokedAt), notInArray(apiTokens.id, keptRevoked)));
        const [row] = await tx.insert(apiTokens).values(values).returning();
        return row;
      });
    },

    /** Revokes one of the user's live tokens; false when the user has no such live token (revoked, or someone else's). */
    async revokeOfUser(userId: number, tokenId: number, at: Date): Promise<boolean> {
      const revoked = await db
        .update(apiTokens)
        .set({ revokedAt: at })
        .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
        .returning({ id: apiTokens.id });
      return revoked.length > 0;
    },

    async touch(tokenId: number, at: Date) {
      await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, tokenId));
    },
  };
}

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
