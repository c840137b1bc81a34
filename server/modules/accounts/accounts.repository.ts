import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emailConfirmationTokens, passwordResetTokens, pendingEmailChanges, sessions, subscriptions, users } from '../../db/schema.ts';
import type { SubscriptionAccessFields } from '../billing/subscription-state.ts';
import { platformDataFingerprint } from '../../db/platform-data-fingerprint.ts';

export type UserRow = typeof users.$inferSelect;

/**
 * How a used confirmation token's hash is kept: marked, so it can never match an unused token's hash again, and still
 * found by the hash of the link that used it.
 */
const usedTokenHash = (tokenHash: string) => `used:${tokenHash}`;
export type SessionRow = typeof sessions.$inferSelect;

/** Who is calling: resolved once per request, from the bearer session (or an event-stream ticket). */
export interface SessionContext {
  sessionId: string;
  user: UserRow;
  /** What the access gate decides on, of the user's subscription row; null when there is none. */
  subscription: SubscriptionAccessFields | null;
  /** The user's platform data fingerprint (platforms/data-fingerprint.ts): what cached analytics are keyed on. */
  dataFingerprint: string;
  /** Set when the caller signed in with a personal API token (decision 020) instead of a session. */
  apiTokenId?: number;
}

/** The request's SessionContext from a `findSessionContext` row. */
export function sessionContextOf(found: { session: SessionRow; user: UserRow; subscription: SubscriptionAccessFields | null; dataFingerprint: string }): SessionContext {
  return { sessionId: found.session.id, user: found.user, subscription: found.subscription, dataFingerprint: found.dataFingerprint };
}

export function createAccountsRepository(db: Database) {
  // Every authenticated request runs this, and it is the only query a cached premium answer needs: the session
  // and its user, the subscription the access gate reads, and the fingerprint the analytics cache is keyed on,
  // in one round trip. A prepared statement skips rebuilding the SQL each time and, on PostgreSQL, parsing and
  // planning it again on each connection.
  const findSessionContextStatement = db
    .select({
      session: sessions,
      user: users,
      // Only what access is decided on: fewer columns (above all timestamps) to decode on every request.
      subscription: { status: subscriptions.status, trialEnd: subscriptions.trialEnd, currentPeriodStart: subscriptions.currentPeriodStart },
      dataFingerprint: platformDataFingerprint(users.id),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(subscriptions, eq(subscriptions.userId, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare('find_session_context');
  return {
    async findUserByLogin(login: string): Promise<UserRow | undefined> {
      const normalized = login.toLowerCase();
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${normalized} or lower(${users.email}) = ${normalized}`)
        .orderBy(sql`lower(${users.username}) = ${normalized} desc`)
        .limit(1);
      return row;
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      return row;
    },

    async usernameOrEmailTaken(username: string, email: string) {
      const rows = await db
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(sql`lower(${users.username}) = ${username.toLowerCase()} or lower(${users.email}) = ${email.toLowerCase()}`);
      return {
        username: rows.some((row) => row.username.toLowerCase() === username.toLowerCase()),
        email: rows.some((row) => row.email.toLowerCase() === email.toLowerCase()),
      };
    },

    async insertUser(values: typeof users.$inferInsert): Promise<UserRow> {
      const [row] = await db.insert(users).values(values).returning();
      return row!;
    },

    /** Replaces any earlier token: only the newest link works. */
    async replaceConfirmationToken(values: typeof emailConfirmationTokens.$inferInsert) {
      await db.transaction(async (tx) => {
        await tx.delete(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, values.userId));
        await tx.insert(emailConfirmationTokens).values(values);
      });
    },

    /**
     * Marks the token used and returns it, in one statement, so a token can be used once even under concurrency; an
     * expired token is left as it is. A used token stays, marked, so that its link can later say it was used.
     */
    async consumeConfirmationToken(userId: number, tokenHash: string, now: Date) {
      const [row] = await db
        .update(emailConfirmationTokens)
        .set({ tokenHash: usedTokenHash(tokenHash) })
        .where(and(eq(emailConfirmationTokens.userId, userId), eq(emailConfirmationTokens.tokenHash, tokenHash), gt(emailConfirmationTokens.expiresAt, now)))
        .returning();
      return row;
    },

    /** The account's token with this hash if it was used already (consumeConfirmationToken), else undefined. */
    async findUsedConfirmationToken(userId: number, tokenHash: string) {
      const [row] = await db
        .select()
        .from(emailConfirmationTokens)
        .where(and(eq(emailConfirmationTokens.userId, userId), eq(emailConfirmationTokens.tokenHash, usedTokenHash(tokenHash))));
      return row;
    },

    async markEmailConfirmed(userId: number, at: Date) {
      await db.update(users).set({ emailConfirmedAt: at }).where(eq(users.id, userId));
    },

    /** Stores the account's reset link, replacing any earlier one: only the newest link works. */
    async replacePasswordResetToken(values: typeof passwordResetTokens.$inferInsert) {
      await db
        .insert(passwordResetTokens)
        .values(values)
        .onConflictDoUpdate({
          target: passwordResetTokens.userId,
          set: { tokenHash: values.tokenHash, email: values.email, expiresAt: values.expiresAt, createdAt: values.createdAt },
        });
    },

    /** Deletes and returns the reset link in one statement: it works once, even when two requests race. */
    async consumePasswordResetToken(userId: number, tokenHash: string) {
      const [row] = await db
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, userId), eq(passwordResetTokens.tokenHash, tokenHash)))
        .returning();
      return row;
    },

    /**
     * Sets a new password from a reset link and ends every session of the account, and any email change waiting for
     * confirmation (it may be an intruder's). The link proved the address, so an unconfirmed one is confirmed.
     * Answers how many sessions ended.
     */
    async resetPassword(userId: number, passwordHash: string, at: Date): Promise<number> {
      return db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${at.toISOString()}::timestamptz)` })
          .where(eq(users.id, userId));
        await tx.delete(pendingEmailChanges).where(eq(pendingEmailChanges.userId, userId));
        const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
        return ended.length;
      });
    },

    async insertSession(values: typeof sessions.$inferInsert) {
      await db.insert(sessions).values(values);
    },

    /** The session with its user, the user's subscription (null without one) and platform data fingerprint. */
    async findSessionContext(sessionId: string) {
      const [row] = await findSessionContextStatement.execute({ sessionId });
      return row;
    },

    /** The session's SessionContext without checking its secret or age (for credentials already checked, e.g. a spent stream ticket). */
    async sessionContextById(sessionId: string): Promise<SessionContext | undefined> {
      const [found] = await findSessionContextStatement.execute({ sessionId });
      return found && sessionContextOf(found);
    },

    async touchSession(sessionId: string, at: Date) {
      await db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, sessionId));
    },

    async deleteSession(sessionId: string) {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
    },

    /** The user's sessions used since `usedAfter` and created since `createdAfter` (the others are expired), newest use first. */
    async listLiveSessions(userId: number, { usedAfter, createdAfter }: { usedAfter: Date; createdAfter: Date }) {
      return db
        .select({ id: sessions.id, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, userAgent: sessions.userAgent })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.lastUsedAt, usedAfter), gt(sessions.createdAt, createdAfter)))
        .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
    },

    /** Ends one of the user's sessions; false when the user has no such session (ended, or someone else's). */
    async deleteSessionOfUser(userId: number, sessionId: string): Promise<boolean> {
      const ended = await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId))).returning({ id: sessions.id });
      return ended.length > 0;
    },

    /** Ends every session of the user but one; answers how many ended. */
    async deleteOtherSessions(userId: number, keepSessionId: string): Promise<number> {
      const ended = await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))).returning({ id: sessions.id });
      return ended.length;
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
