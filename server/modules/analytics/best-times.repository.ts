// What the best-time grid reads besides the benchmarks: the connection (only the caller's own), its posts, and the
// latest lifetime totals of its settled posts.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { type Database, queryRows, sqlList } from '../../db/client.ts';
import { contentItems, platformConnections } from '../../db/schema.ts';
import { ENGAGEMENT_PARTS } from './analytics.repository.ts';

export interface SettledPost {
  id: number;
  publishedAt: Date;
  /** The latest lifetime counts read; null where the platform gives none. */
  views: number | null;
  engagements: number | null;
}

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

    /**
     * The connection's posts published at or before `publishedBy`, oldest first, each with the counts of its latest
     * read: views, and engagements as the analytics cards count them (the platform's own total, else likes, reactions,
     * comments and shares).
     */
    async settledPosts(connectionId: number, publishedBy: Date): Promise<SettledPost[]> {
      const rows = await queryRows<{ id: number; published_at: string | Date; views: number | null; engagements: number | null }>(
        db,
        sql`select ci.id, ci.published_at, latest.views::float8 as views, latest.engagements::float8 as engagements
          from content_items ci
          cross join lateral (
            select max(cm.value) filter (where cm.metric_type = 'views') as views,
              coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${sqlList(ENGAGEMENT_PARTS)}))) as engagements
            from content_metrics cm
            where cm.content_item_id = ci.id
              and cm.as_of = (select max(last.as_of) from content_metrics last where last.content_item_id = ci.id)
          ) latest
          where ci.connection_id = ${connectionId} and ci.published_at is not null and ci.published_at <= ${publishedBy.toISOString()}::timestamptz
          order by ci.published_at, ci.id`,
      );
      return rows.map((row) => ({ id: row.id, publishedAt: new Date(row.published_at), views: row.views, engagements: row.engagements }));
    },
  };
}

export type BestTimesRepository = ReturnType<typeof createBestTimesRepository>;
