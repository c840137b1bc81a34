// Stream tickets (stored hashed, taken at most once) and the registry of open streams, shared by every process.
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { eventStreams, eventStreamTickets, sessions } from '../../db/schema.ts';

/** Whether a stream could be registered: `too_many` at the user's limit, `session_ended` when the session is gone. */
export type StreamRegistration = 'registered' | 'too_many' | 'session_ended';

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

    /**
     * Registers an open stream unless the user already holds `max` live ones, counting and inserting under a per-user
     * lock so that concurrent openings on any process cannot pass the limit together. Rows not seen since `staleBefore`
     * (left by a process that died) are removed first and do not count.
     */
    async registerStream(
      stream: { id: string; userId: number; sessionId: string },
      { now, staleBefore, max }: { now: Date; staleBefore: Date; max: number },
    ): Promise<StreamRegistration> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`event-streams:${stream.userId}`}, 0))`);
        await tx.delete(eventStreams).where(and(eq(eventStreams.userId, stream.userId), lt(eventStreams.seenAt, staleBefore)));
        const [counted] = await tx.select({ count: sql<number>`count(*)::int` }).from(eventStreams).where(eq(eventStreams.userId, stream.userId));
        if ((counted?.count ?? 0) >= max) return 'too_many';
        // The session may have ended since the request was authenticated: no row, no stream.
        const inserted = await tx
          .insert(eventStreams)
          .select(
            sql`select ${stream.id}, ${stream.userId}, s.id, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
              from sessions s where s.id = ${stream.sessionId} and s.user_id = ${stream.userId}`,
          )
          .returning({ id: eventStreams.id });
        return inserted.length > 0 ? 'registered' : 'session_ended';
      });
    },

    /** The stream closed on its own; deleting its row also notifies (a no-op for this process: it is closed). */
    async unregisterStream(streamId: string) {
      await db.delete(eventStreams).where(eq(eventStreams.id, streamId));
    },

    /** Whether the session still exists (a stream's row can also go for other reasons: a stale-row clean-up). */
    async sessionExists(sessionId: string): Promise<boolean> {
      const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).limit(1);
      return rows.length > 0;
    },

    /** Marks this process's streams as alive; answers the ids whose rows still exist (the others have ended). */
    async refreshStreams(streamIds: readonly string[], now: Date): Promise<Set<string>> {
      if (streamIds.length === 0) return new Set();
      const rows = await db
        .update(eventStreams)
        .set({ seenAt: now })
        .where(inArray(eventStreams.id, [...streamIds]))
        .returning({ id: eventStreams.id });
      return new Set(rows.map((row) => row.id));
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

/** A stream row not seen for this long belongs to a process that died (heartbeats come every few seconds). */
export const STREAM_ROW_STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Housekeeping (server/jobs/housekeeping.job.ts): registry rows of streams whose process died are otherwise removed
 * only when their user opens another stream; expired tickets go too.
 */
export async function pruneEventStreams(db: Database, now: Date): Promise<number> {
  const rows = await db.delete(eventStreams).where(lt(eventStreams.seenAt, new Date(now.getTime() - STREAM_ROW_STALE_MS))).returning({ id: eventStreams.id });
  const tickets = await db.delete(eventStreamTickets).where(lt(eventStreamTickets.expiresAt, now)).returning({ hash: eventStreamTickets.ticketHash });
  return rows.length + tickets.length;
}
