// Stream tickets: stored hashed, taken at most once.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { eventStreamTickets } from '../../db/schema.ts';

export function createEventsRepository(db: Database) {
  return {
    async insertTicket(values: typeof eventStreamTickets.$inferInsert) {
      await db.insert(eventStreamTickets).values(values);
    },

    /** Deletes the ticket and answers its owner if it had not expired: a second use finds nothing. */
    async takeTicket(ticketHash: string, now: Date): Promise<{ userId: number; sessionId: string } | undefined> {
      const [row] = await db
        .delete(eventStreamTickets)
        .where(eq(eventStreamTickets.ticketHash, ticketHash))
        .returning({ userId: eventStreamTickets.userId, sessionId: eventStreamTickets.sessionId, expiresAt: eventStreamTickets.expiresAt });
      return row && row.expiresAt > now ? { userId: row.userId, sessionId: row.sessionId } : undefined;
    },

    async deleteExpiredTickets(now: Date) {
      await db.delete(eventStreamTickets).where(lt(eventStreamTickets.expiresAt, now));
    },

    async countLiveTickets(userId: number, now: Date): Promise<number> {
      const rows = await db
        .select({ hash: eventStreamTickets.ticketHash })
        .from(eventStreamTickets)
        .where(and(eq(eventStreamTickets.userId, userId), gt(eventStreamTickets.expiresAt, now)));
      return rows.length;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
