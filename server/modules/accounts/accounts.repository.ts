import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emailConfirmationTokens, sessions, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

export function createAccountsRepository(db: Database) {
  // Every authenticated request runs this: a prepared statement skips rebuilding the SQL each time and, on
  // PostgreSQL, parsing and planning it again on each connection.
  const findSessionWithUserStatement = db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare('find_session_with_user');
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

    /** Deletes and returns the token in one statement, so a token can be used once even under concurrency. */
    async consumeConfirmationToken(userId: number, tokenHash: string) {
      const [row] = await db
        .delete(emailConfirmationTokens)
        .where(and(eq(emailConfirmationTokens.userId, userId), eq(emailConfirmationTokens.tokenHash, tokenHash)))
        .returning();
      return row;
    },

    async markEmailConfirmed(userId: number, at: Date) {
      await db.update(users).set({ emailConfirmedAt: at }).where(eq(users.id, userId));
    },

    async insertSession(values: typeof sessions.$inferInsert) {
      await db.insert(sessions).values(values);
    },

    async findSessionWithUser(sessionId: string) {
      const [row] = await findSessionWithUserStatement.execute({ sessionId });
      return row;
    },

    async touchSession(sessionId: string, at: Date) {
      await db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, sessionId));
    },

    async deleteSession(sessionId: string) {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
