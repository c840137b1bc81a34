// How far a connection's stored figures are complete (issue 15, docs/decisions/013-period-comparison.md). One
// definition for the analytics summary's freshness, the comparisons (which cut both periods where the figures end)
// and the YouTube page.
//   YouTube: the Analytics reports process days with a 48–72 hour lag, so the last complete day is the newest day
//   of the daily channel report (its `views` row; the subscriber total written for today is not a report row).
//   YouTube revenue has its own report and is said apart on the YouTube page (revenue rows).
//   Every other platform: figures are snapshots and daily insights read at each sync. Where the platform gives daily
//   views, the last complete day is the newest day of views: a follower snapshot is written for the day of the sync
//   while the platform's insights for that day may not be in yet (Instagram's day ends at 07:00 UTC), and comparing a
//   period without that day against one with it reads the missing day as a drop. A platform without views (Patreon)
//   is complete through the newest day stored, the day of the last sync.
import { type SQL, sql } from 'drizzle-orm';

/** SQL: the last complete day (a date, null when nothing is stored) of the connection aliased `c`. Index lookups only. */
export function completeThroughOf(c = 'c'): SQL<string | null> {
  const id = sql.raw(`${c}.id`);
  const platform = sql.raw(`${c}.platform`);
  return sql<string | null>`case when ${platform} = 'youtube'
    then (select max(f.date) from account_metrics f where f.connection_id = ${id} and f.metric_type = 'views')
    else coalesce(
      (select max(f.date) from account_metrics f where f.connection_id = ${id} and f.metric_type = 'views'),
      (select max(f.date) from account_metrics f where f.connection_id = ${id})) end`;
}

/** SQL: the newest day of YouTube revenue rows of the connection aliased `c` (null without any). */
export function revenueCompleteThroughOf(c = 'c'): SQL<string | null> {
  return sql<string | null>`(select max(f.date) from account_metrics f where f.connection_id = ${sql.raw(`${c}.id`)} and f.metric_type = 'revenue')`;
}
