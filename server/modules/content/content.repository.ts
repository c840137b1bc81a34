// The per-post table's rows (decision 017): the user's posts on their active accounts with the latest counts read.
// The user id is in the WHERE clause, so another user's posts cannot appear.
import { type SQL, sql } from 'drizzle-orm';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { type Database, queryRows, sqlList } from '../../db/client.ts';
import { ENGAGEMENT_PARTS } from './benchmark.repository.ts';

export interface ContentFilter {
  userId: number;
  /** Lowercase platform key, or undefined for all. */
  platform?: string | undefined;
}

/** The orders SQL can take; ratio orders are the service's (they need the benchmark figures). */
export type ContentSqlSort = 'publishedAt' | 'views' | 'engagements';

export interface ContentRow {
  id: number;
  platform: string;
  connection_id: number;
  display_name: string | null;
  platform_username: string | null;
  title: string;
  description: string | null;
  url: string | null;
  published_at: string | Date | null;
  views: number | null;
  engagements: number | null;
  total: number;
}


const scope = (filter: ContentFilter) =>
  sql`c.user_id = ${filter.userId} and c.is_active${filter.platform ? sql` and c.platform = ${filter.platform}` : sql``}`;

const SORT_COLUMNS: Record<ContentSqlSort, SQL> = {
  publishedAt: sql`ci.published_at`,
  views: sql`v.views`,
  engagements: sql`e.engagements`,
};

export function createContentRepository(db: Database) {
  return {
    /**
     * A page of posts (all of them without `limit`) with each post's latest views and engagements: the newest read of
     * `views`, and the newest day with any engagement counter (the platform's own total, else likes + reactions +
     * comments + shares, as the analytics cards count them). Both are index lookups per post. Missing numbers sort
     * last; ties newest first, then by id, so pages never overlap.
     */
    posts(filter: ContentFilter, order: { sort: ContentSqlSort; order: 'asc' | 'desc' }, page?: { limit: number; offset: number }) {
      const direction = order.order === 'asc' ? sql`asc` : sql`desc`;
      return queryRows<ContentRow>(
        db,
        sql`select ci.id, c.platform, c.id as connection_id, c.display_name, c.platform_username, ci.title, ci.description, ci.url,
            ci.published_at, v.views::float8 as views, e.engagements::float8 as engagements, (count(*) over ())::int as total
          from content_items ci
          join platform_connections c on c.id = ci.connection_id
          left join lateral (
            select cm.value as views from content_metrics cm
            where cm.content_item_id = ci.id and cm.metric_type = 'views' order by cm.as_of desc limit 1
          ) v on true
          left join lateral (
            select coalesce(max(cm.value) filter (where cm.metric_type = 'engagements'), sum(cm.value) filter (where cm.metric_type in (${sqlList(ENGAGEMENT_PARTS)}))) as engagements
            from content_metrics cm
            where cm.content_item_id = ci.id and cm.as_of = (
              select max(latest.as_of) from content_metrics latest
              where latest.content_item_id = ci.id and latest.metric_type in ('engagements', ${sqlList(ENGAGEMENT_PARTS)})
            )
          ) e on true
          where ${scope(filter)}
          order by ${SORT_COLUMNS[order.sort]} ${direction} nulls last, ci.published_at desc nulls last, ci.id desc
          ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`,
      );
    },

    /** How many posts match (for a page past the last one, which has no row to carry the total). */
    async count(filter: ContentFilter): Promise<number> {
      const [row] = await queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total from content_items ci join platform_connections c on c.id = ci.connection_id where ${scope(filter)}`,
      );
      return row?.total ?? 0;
    },

    /** The platforms the user has an active account of, in the product's order. */
    async platforms(userId: number): Promise<string[]> {
      const rows = await queryRows<{ platform: string }>(
        db,
        sql`select c.platform from platform_connections c where c.user_id = ${userId} and c.is_active group by c.platform
          order by array_position(array[${sqlList(PLATFORM_NAMES)}]::text[], c.platform)`,
      );
      return rows.map((row) => row.platform);
    },
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
