// What the best-time grid reads besides the benchmarks: the connection (only the caller's own) and its posts.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { contentItems, platformConnections } from '../../db/schema.ts';

export function createBestTimesRepository(db: Database) {
  return {
    /** The connection when it is the user's; undefined for anyone else's, like a missing one. */
    async ownedConnection(userId: number, connectionId: number): Promise<{ id: number; platform: string } | undefined> {
      const [row] = await db
        .select({ id: platformConnections.id, platform: platformConnections.platform })
        .from(platformConnections)
        .where(and(eq(platformConnections.id, connectionId), eq(platformConnections.userId, userId)));
      return row;
    },

    /** The connection's posts that have a publishing time (a post without one has no weekday or hour). */
    async publishedPostIds(connectionId: number): Promise<number[]> {
      const rows = await db
        .select({ id: contentItems.id })
        .from(contentItems)
        .where(and(eq(contentItems.connectionId, connectionId), isNotNull(contentItems.publishedAt)));
      return rows.map((row) => row.id);
    },
  };
}

export type BestTimesRepository = ReturnType<typeof createBestTimesRepository>;
