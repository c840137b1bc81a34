// SQL pieces the analytics queries share (analytics.repository.ts, comparison.repository.ts): which connections a
// query reads, the product's order of platforms, follower totals, Patreon pledges spread over days, and the
// engagement rate's base.
import { type SQL, sql } from 'drizzle-orm';
import { IMPRESSION_PLATFORMS, PLATFORM_NAMES } from '#contract/platforms.ts';
import { sqlList } from '../../db/client.ts';

/** Account metric types that are follower totals (subscribers on YouTube, patrons on Patreon). */
export const FOLLOWER_TYPES = ['followers', 'subscribers', 'patrons'] as const;

/**
 * Account metric types of which any one gives a day an engagement figure in account_metric_days (migration 0022: the
 * platform's own `engagements`, else likes + reactions + comments + shares).
 */
export const ENGAGEMENT_DAY_TYPES = ['engagements', 'likes', 'reactions', 'comments', 'shares'] as const;

/** A period, inclusive YYYY-MM-DD days. */
export interface Period {
  startDate: string;
  endDate: string;
}

/** Whose connections a query reads: the user's active ones, of one platform (lowercase key) or all. */
export interface ConnectionScope {
  userId: number;
  platform?: string | undefined;
}

/** SQL: the scope's connections, as `c` (platform_connections). */
export const connectionScope = (filter: ConnectionScope) =>
  sql`c.user_id = ${filter.userId} and c.is_active${filter.platform ? sql` and c.platform = ${filter.platform}` : sql``}`;

/**
 * SQL: a Patreon campaign's pledges over [start, end]: each day its monthly level as last read on or before the day,
 * over the days of the day's month (the income view's rule, income-maths.ts pledgeForDay), so the same days give the
 * same amount on every screen; null when no day has a reading yet. One index probe a day.
 */
export const pledgesOverDays = (connectionId: SQL, start: SQL, end: SQL) => sql`(select sum(l.value / extract(day from date_trunc('month', d.day) + interval '1 month' - interval '1 day'))
    from generate_series(${start}::date, ${end}::date, interval '1 day') as d(day)
    cross join lateral (select m.value from account_metrics m
      where m.connection_id = ${connectionId} and m.metric_type = 'monthly_pledges' and m.date <= d.day order by m.date desc limit 1) l)`;

/** Order of a platform in the product's lists. */
export const platformOrder = (column: SQL) => sql`array_position(array[${sqlList(PLATFORM_NAMES)}]::text[], ${column})`;

/**
 * What a connection's engagements are measured against (the engagement rate's base): impressions on the platforms
 * that report impressions rather than views (IMPRESSION_PLATFORMS), else its views, else its impressions.
 */
export const engagementBase = (platform: SQL, views: SQL, impressions: SQL) =>
  sql`case when ${platform} in (${sqlList(IMPRESSION_PLATFORMS)}) then ${impressions} else coalesce(nullif(${views}, 0), ${impressions}) end`;
