// The cards' figures of two periods, like with like (contract periodComparison; issue 24: a history start is not
// growth). One definition of coverage for every comparison that reads it (the cards on every screen,
// compare=previous|year|custom, the e-mailed reports): each connection's figure (followers, views, engagement,
// revenue) covers the days from its first stored day to its last complete day.
//   - Start: a summed figure (views, engagement, revenue) whose history begins after the comparison period starts
//     (TikTok's and X's views begin with their first sync) is compared over the days both periods hold: both periods
//     are cut at their start by as many days. A figure left with no such day is left out. Followers, a level, are
//     compared where both periods hold a total (Instagram's follower history reaches 30 days back: a month earlier
//     it has none, and its followers are left out while its views are compared).
//   - End: a figure that ends before the current period does (YouTube's reports lag 2–3 days, its revenue report on
//     its own schedule; Instagram's insights end yesterday while its follower count is today's; a connection whose
//     syncs stopped) is compared over the days it has: both periods are cut at their end by the days missing.
//   - Only the figures both periods hold count, on both sides; the rest are named (left out, or compared over fewer
//     days) so the card's note can say so.
// Followers: the latest total in each window (no profile count: it has no date). Revenue: YouTube revenue plus USD
// pledges day by day (pledgesOverDays), as on the cards; pledges in other currencies are not compared.
import { sql } from 'drizzle-orm';
import { COMPARED_FIGURES, type ComparedFigure } from '#contract/analytics.ts';
import { type Database, queryRows, sqlList } from '../../db/client.ts';
import { completeThroughOf } from '../../db/freshness.ts';
import { type ConnectionScope, connectionScope, ENGAGEMENT_DAY_TYPES, engagementBase, FOLLOWER_TYPES, type Period, platformOrder, pledgesOverDays } from './analytics-sql.ts';


/** A connection named by the comparison (raw platform name); `figures` null: every figure the connection has. */
export type { ComparedFigure };

export interface ComparedConnection {
  platform: string;
  account: string | null;
  figures: ComparedFigure[] | null;
}

/** A connection's figures compared over fewer days than the periods have, from `history_start` on. */
export interface ShortenedConnection extends ComparedConnection {
  history_start: string;
  days: number;
}

export interface ComparisonRow {
  current_followers: number | null;
  comparison_followers: number | null;
  current_views: number | null;
  comparison_views: number | null;
  current_engagements: number | null;
  current_reach: number | null;
  comparison_engagements: number | null;
  comparison_reach: number | null;
  current_revenue: number | null;
  comparison_revenue: number | null;
  current_connections: number;
  comparison_connections: number;
  left_out: ComparedConnection[];
  shortened: ShortenedConnection[];
}

/** One (connection, figure) the query names: left out, or compared from a later day. */
interface NamedFigure {
  id: number;
  platform: string;
  account: string | null;
  figure: ComparedFigure;
  /** How many figures the connection has at all (to say "every figure" without listing them). */
  held: number;
  history_start?: string;
  days?: number;
}

export async function comparedTotals(db: Database, filter: ConnectionScope, current: Period, comparison: Period): Promise<ComparisonRow> {
  const [row] = await queryRows<Omit<ComparisonRow, 'left_out' | 'shortened'> & { left_out: NamedFigure[] | string; shortened: NamedFigure[] | string }>(
    db,
    sql`with connections as (
        select c.id, c.platform, c.display_name, c.currency, c.connected_at, ${completeThroughOf('c')} as through
        from platform_connections c where ${connectionScope(filter)}
      ),
      -- Each figure's first and last stored day, from the spans the writes keep (migration 0033): a figure's days are
      -- those with any of its metric types (account_metric_days' definitions), so its span is theirs combined.
      coverage as (
        select x.id, x.platform, x.display_name, x.currency, f.figure, f.first_day,
          least(${current.endDate}::date, f.last_day) as through,
          count(*) over (partition by x.id) as held
        from connections x
        cross join lateral (
          select min(s.first_day) filter (where s.metric_type in (${sqlList(FOLLOWER_TYPES)})) as followers_from,
            max(s.last_day) filter (where s.metric_type in (${sqlList(FOLLOWER_TYPES)})) as followers_to,
            min(s.first_day) filter (where s.metric_type = 'views') as views_from,
            max(s.last_day) filter (where s.metric_type = 'views') as views_to,
            min(s.first_day) filter (where s.metric_type in (${sqlList(ENGAGEMENT_DAY_TYPES)})) as engagement_from,
            max(s.last_day) filter (where s.metric_type in (${sqlList(ENGAGEMENT_DAY_TYPES)})) as engagement_to,
            min(s.first_day) filter (where s.metric_type = 'revenue') as revenue_from,
            max(s.last_day) filter (where s.metric_type = 'revenue') as revenue_to,
            case when x.currency = 'USD' then min(s.first_day) filter (where s.metric_type = 'monthly_pledges') end as pledges_from
          from metric_spans s where s.connection_id = x.id and s.source = 'account'
        ) k
        cross join lateral (values
          ('followers', k.followers_from, k.followers_to),
          ('views', k.views_from, k.views_to),
          ('engagement', k.engagement_from, k.engagement_to),
          -- A pledge level holds from its reading on (pledgesOverDays): a campaign's pledges reach its last sync.
          ('revenue', least(k.revenue_from, k.pledges_from), greatest(k.revenue_to, case when k.pledges_from is not null then x.through end))
        ) f(figure, first_day, last_day)
        where f.first_day is not null
      ),
      cut as (
        -- Followers are a level (the latest total in each window), not a sum: a later start biases nothing, and a
        -- window without a total leaves them out.
        select coverage.*, case when figure = 'followers' then 0 else greatest(0, first_day - ${comparison.startDate}::date) end as start_cut,
          ${comparison.endDate}::date - (${current.endDate}::date - through) as comparison_end
        from coverage
      ),
      windows as (
        select cut.id, cut.platform, cut.figure, cut.currency, s.side, s.start_date, s.end_date
        from cut cross join lateral (values
          ('current', ${current.startDate}::date + start_cut, through),
          ('comparison', ${comparison.startDate}::date + start_cut, comparison_end)
        ) s(side, start_date, end_date)
      ),
      measured as (
        select w.id, w.figure, w.side,
          case w.figure
            when 'followers' then (select f.value from account_metrics f
              where f.connection_id = w.id and f.metric_type in (${sqlList(FOLLOWER_TYPES)}) and f.date between w.start_date and w.end_date
              order by f.date desc limit 1)
            when 'views' then s.views
            when 'engagement' then case when s.reach > 0 then s.engagements end
            when 'revenue' then (select case when s.revenue is not null or p.amount is not null then coalesce(s.revenue, 0) + coalesce(p.amount, 0) end
              from (select case when w.currency = 'USD' then ${pledgesOverDays(sql`w.id`, sql`w.start_date`, sql`w.end_date`)} end as amount) p)
          end as value,
          -- What engagements are measured against: the cards' rate's base (engagementBase).
          case when w.figure = 'engagement' and s.reach > 0 and s.engagements is not null then s.reach end as reach
        from windows w
        left join lateral (
          select sum(d.views) as views, sum(d.engagements) as engagements, sum(d.revenue) as revenue,
            ${engagementBase(sql`w.platform`, sql`sum(d.views)`, sql`sum(d.impressions)`)} as reach
          from account_metric_days d where d.connection_id = w.id and d.date between w.start_date and w.end_date
        ) s on w.figure <> 'followers'
      ),
      pairs as (
        select cut.id, cut.platform, cut.display_name, cut.figure, cut.first_day, cut.start_cut, cut.held,
          cut.comparison_end - (${comparison.startDate}::date + cut.start_cut) + 1 as compared_days,
          cur.value as cur_value, cmp.value as cmp_value, cur.reach as cur_reach, cmp.reach as cmp_reach
        from cut
          join measured cur on cur.id = cut.id and cur.figure = cut.figure and cur.side = 'current'
          join measured cmp on cmp.id = cut.id and cmp.figure = cut.figure and cmp.side = 'comparison'
      )
      select
        sum(cur_value) filter (where figure = 'followers' and cmp_value is not null)::float8 as current_followers,
        sum(cmp_value) filter (where figure = 'followers' and cur_value is not null)::float8 as comparison_followers,
        sum(cur_value) filter (where figure = 'views' and cmp_value is not null)::float8 as current_views,
        sum(cmp_value) filter (where figure = 'views' and cur_value is not null)::float8 as comparison_views,
        sum(cur_value) filter (where figure = 'engagement' and cur_reach is not null and cmp_reach is not null)::float8 as current_engagements,
        sum(cur_reach) filter (where figure = 'engagement' and cur_reach is not null and cmp_reach is not null)::float8 as current_reach,
        sum(cmp_value) filter (where figure = 'engagement' and cur_reach is not null and cmp_reach is not null)::float8 as comparison_engagements,
        sum(cmp_reach) filter (where figure = 'engagement' and cur_reach is not null and cmp_reach is not null)::float8 as comparison_reach,
        sum(cur_value) filter (where figure = 'revenue' and cmp_value is not null)::float8 as current_revenue,
        sum(cmp_value) filter (where figure = 'revenue' and cur_value is not null)::float8 as comparison_revenue,
        (select count(*) from connections)::int as current_connections,
        (select count(*) from connections where (connected_at at time zone 'UTC')::date <= ${comparison.endDate}::date)::int as comparison_connections,
        coalesce(json_agg(json_build_object('id', id, 'platform', platform, 'account', display_name, 'figure', figure, 'held', held)
          order by ${platformOrder(sql`platform`)}, id, figure)
          filter (where (cur_value is not null and cmp_value is null)
            -- A history that begins too late for any day both periods hold: the figure counts on neither side.
            or (compared_days <= 0 and first_day <= ${current.endDate}::date)), '[]'::json) as left_out,
        coalesce(json_agg(json_build_object('id', id, 'platform', platform, 'account', display_name, 'figure', figure, 'held', held,
            'history_start', first_day::text, 'days', compared_days)
          order by ${platformOrder(sql`platform`)}, id, first_day, figure)
          filter (where start_cut > 0 and compared_days > 0 and cur_value is not null and cmp_value is not null), '[]'::json) as shortened
      from pairs`,
  );
  // json_agg arrives as text from PGlite and as parsed JSON from node-postgres: one shape for the callers.
  const parsed = (value: NamedFigure[] | string): NamedFigure[] => (typeof value === 'string' ? (JSON.parse(value) as NamedFigure[]) : value);
  return { ...row!, left_out: byConnection(parsed(row!.left_out)), shortened: byConnection(parsed(row!.shortened)) as ShortenedConnection[] };
}

/**
 * The named figures grouped per connection (and, when compared from a later day, per first day and length), in the
 * query's order; `figures` is null when the group holds every figure the connection has.
 */
function byConnection(named: readonly NamedFigure[]): (ComparedConnection & Partial<Pick<ShortenedConnection, 'history_start' | 'days'>>)[] {
  const groups = new Map<string, { entry: NamedFigure; figures: ComparedFigure[] }>();
  for (const entry of named) {
    const key = `${entry.id}|${entry.history_start ?? ''}|${entry.days ?? ''}`;
    const group = groups.get(key) ?? { entry, figures: [] };
    groups.set(key, group);
    group.figures.push(entry.figure);
  }
  return [...groups.values()].map(({ entry, figures }) => ({
    platform: entry.platform,
    account: entry.account,
    figures: figures.length === Number(entry.held) ? null : COMPARED_FIGURES.filter((figure) => figures.includes(figure)),
    ...(entry.history_start === undefined ? {} : { history_start: entry.history_start, days: Number(entry.days) }),
  }));
}
