// The rows "What changed" splits (docs/decisions/021-what-changed.md): the caller's connections with the last day
// their figures are complete, their daily views, revenue and pledges, YouTube's daily views by traffic source, and
// each content item's lifetime view counter as of given days. The user id is in every query's connection scope.
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.ts';
import { completeThroughOf } from '../../db/freshness.ts';

export interface ScopeFilter {
  userId: number;
  /** Lowercase platform key, or undefined for all. */
  platform?: string | undefined;
}

const scope = (filter: ScopeFilter) => sql`c.user_id = ${filter.userId} and c.is_active${filter.platform ? sql` and c.platform = ${filter.platform}` : sql``}`;
const idList = (ids: readonly number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);
const dateArray = (days: readonly string[]): SQL => sql`array[${sql.join(days.map((day) => sql`${day}`), sql`, `)}]::date[]`;

export interface ScopeConnection {
  id: number;
  platform: string;
  display_name: string | null;
  currency: string | null;
  /** The last complete day of its figures (decision 013), null when nothing is stored. */
  complete_through: string | null;
}

export interface ScopeItem {
  id: number;
  connection_id: number;
  title: string;
  url: string | null;
  published_day: string | null;
  /** YouTube: views on each day since publishing (index 0 = the publishing day). */
  early_views: number[] | null;
}

export function createWhatChangedRepository(db: Database) {
  return {
    connections(filter: ScopeFilter) {
      return queryRows<ScopeConnection>(
        db,
        sql`select c.id, c.platform, c.display_name, c.currency, (${completeThroughOf('c')})::text as complete_through
          from platform_connections c where ${scope(filter)} order by c.id`,
      );
    },

    /** Daily views and revenue of the connections over [from, to], and their monthly pledges up to `to` (read as of a day). */
    daily(connectionIds: readonly number[], from: string, to: string) {
      if (connectionIds.length === 0) return Promise.resolve([]);
      return queryRows<{ connection_id: number; date: string; metric_type: string; value: number }>(
        db,
        sql`select m.connection_id, m.date::text as date, m.metric_type, m.value::float8 as value from account_metrics m
          where m.connection_id in (${idList(connectionIds)}) and m.date <= ${to}
            and (m.metric_type = 'monthly_pledges' or (m.metric_type in ('views', 'revenue') and m.date >= ${from}))`,
      );
    },

    /** YouTube channels' daily views by traffic source over [from, to]. */
    traffic(connectionIds: readonly number[], from: string, to: string) {
      if (connectionIds.length === 0) return Promise.resolve([]);
      return queryRows<{ connection_id: number; date: string; source_type: string; views: number }>(
        db,
        sql`select t.connection_id, t.date::text as date, t.source_type, t.views::float8 as views from youtube_channel_traffic t
          where t.connection_id in (${idList(connectionIds)}) and t.date between ${from} and ${to}`,
      );
    },

    /** The connections' content items, with YouTube's early daily views where stored. */
    items(connectionIds: readonly number[]) {
      if (connectionIds.length === 0) return Promise.resolve([]);
      return queryRows<ScopeItem>(
        db,
        sql`select ci.id, ci.connection_id, ci.title, ci.url, (ci.published_at at time zone 'UTC')::date::text as published_day, yv.early_views
          from content_items ci left join youtube_videos yv on yv.content_item_id = ci.id
          where ci.connection_id in (${idList(connectionIds)})`,
      );
    },

    /**
     * Each item's lifetime views counter as last read on or before each of `days` (no row: never read by then). One
     * index lookup per item and day (content_metrics_item_type_day_key).
     */
    viewCountersAsOf(connectionIds: readonly number[], days: readonly string[]) {
      if (connectionIds.length === 0 || days.length === 0) return Promise.resolve([]);
      return queryRows<{ item: number; day: string; value: number }>(
        db,
        sql`select ci.id as item, b.day::text as day, r.value::float8 as value
          from content_items ci cross join unnest(${dateArray(days)}) as b(day)
          cross join lateral (
            select cm.value from content_metrics cm
            where cm.content_item_id = ci.id and cm.metric_type = 'views' and cm.as_of <= b.day
            order by cm.as_of desc limit 1
          ) r
          where ci.connection_id in (${idList(connectionIds)})`,
      );
    },
  };
}

export type WhatChangedRepository = ReturnType<typeof createWhatChangedRepository>;
