import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emailConfirmationTokens, pendingEmailChanges, rateLimitBuckets, sessions, users } from '../../db/schema.ts';

export type PendingEmailChangeRow = typeof pendingEmailChanges.$inferSelect;

export function createSettingsRepository(db: Database) {
  return {
    async findUser(userId: number) {
      const [row] = await db.select().from(users).where(eq(users.id, userId));
      return row;
    },

    /** Sets the fields given (name parts, time zone) and leaves the others. */
    async updateProfile(userId: number, fields: { firstName?: string; lastName?: string; timeZone?: string | null; displayCurrency?: string }) {
      const [row] = await db.update(users).set(fields).where(eq(users.id, userId)).returning();
      return row;
    },

    /** Another account already uses the address (case-insensitive, as the unique index compares). */
    async emailTakenByOther(userId: number, email: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, userId)))
        .limit(1);
      return rows.length > 0;
    },

    /** One pending change per user: a new request replaces the old one, so only the newest link works. */
    async replacePendingEmailChange(values: PendingEmailChangeRow) {
      await db
        .insert(pendingEmailChanges)
        .values(values)
        .onConflictDoUpdate({
          target: pendingEmailChanges.userId,
          set: { newEmail: values.newEmail, tokenHash: values.tokenHash, expiresAt: values.expiresAt, createdAt: values.createdAt },
        });
    },

    async findPendingEmailChange(userId: number): Promise<PendingEmailChangeRow | undefined> {
      const [row] = await db.select().from(pendingEmailChanges).where(eq(pendingEmailChanges.userId, userId));
      return row;
    },

    /** Deletes and returns the change in one statement: a link works once, even when opened twice at once. */
    async consumePendingEmailChange(userId: number, tokenHash: string): Promise<PendingEmailChangeRow | undefined> {
      const [row] = await db
        .delete(pendingEmailChanges)
        .where(and(eq(pendingEmailChanges.userId, userId), eq(pendingEmailChanges.tokenHash, tokenHash)))
        .returning();
      return row;
    },

    /**
     * Moves the account to the confirmed address and ends every session: whoever holds one signs in again, so a
     * session opened before the change (perhaps by whoever the change locks out) does not outlive it. Confirmation
     * links of the old address die with it (they name the address they were sent to). Answers the sessions ended.
     */
    async applyEmailChange(userId: number, email: string, confirmedAt: Date): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.update(users).set({ email, emailConfirmedAt: confirmedAt }).where(eq(users.id, userId));
        await tx.delete(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, userId));
        const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
        return ended.length;
      });
    },

    /**
     * A new password ends the other sessions and drops a pending email change: a change started from a stolen
     * session must not complete once the owner has taken the account back.
     */
    async updatePasswordAndEndOtherSessions(userId: number, passwordHash: string, keepSessionId: string): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
        await tx.delete(pendingEmailChanges).where(eq(pendingEmailChanges.userId, userId));
        const ended = await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
          .returning({ id: sessions.id });
        return ended.length;
      });
    },

    /**
     * Deletes the user; every table holding the user's data references users (directly or through a platform
     * connection) with ON DELETE CASCADE, so sessions, tokens, connections, metrics, subscriptions and report
     * rows go in the same statement. Rate-limit counters are keyed by strings, so the user's own are removed here.
     */
    async deleteUser(userId: number) {
      await db.transaction(async (tx) => {
        await tx.delete(rateLimitBuckets).where(sql`${rateLimitBuckets.key} like ${`%:user:${userId}`}`);
        await tx.delete(users).where(eq(users.id, userId));
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
