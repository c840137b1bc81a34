// What the forecasts read: the caller's daily series, summed over their active connections. Only the signed-in
// user's connections are read (c.user_id), so no id of anyone else's can reach a forecast.
import { sql } from 'drizzle-orm';
import { type Database, queryRows, sqlList } from '../../db/client.ts';


export interface DayValue {
  date: string;
  value: number;
}

/** `followerTypes`: the metric types that hold follower totals (the analytics feature's FOLLOWER_TYPES, passed in by app.ts). */
export function createForecastsRepository(db: Database, followerTypes: readonly string[]) {
  /**
   * One value per day through `through`: the metric summed over the user's active connections that the filter keeps,
   * on the days every one of them has a row (a sum over fewer would look like a drop).
   */
  async function dailySum(userId: number, metricTypes: readonly string[], through: string, connections: ReturnType<typeof sql>) {
    return queryRows<{ date: string; value: number }>(
      db,
      sql`with mine as (select c.id from platform_connections c where c.user_id = ${userId} and c.is_active and ${connections})
        select m.date::text as date, sum(m.value)::float8 as value
        from account_metrics m join mine on mine.id = m.connection_id
        where m.metric_type in (${sqlList(metricTypes)}) and m.date <= ${through}
        group by m.date
        having count(distinct m.connection_id) = (select count(*) from mine)
        order by m.date`,
    );
  }

  return {
    /** YouTube estimated revenue (USD) per day. */
    youtubeRevenue: (userId: number, through: string) => dailySum(userId, ['revenue'], through, sql`c.platform = 'youtube'`),

    /** Monthly pledges of the user's Patreon campaigns whose currency is USD, per day. */
    usdPledges: (userId: number, through: string) => dailySum(userId, ['monthly_pledges'], through, sql`c.platform = 'patreon' and c.currency = 'USD'`),

    /** Followers (subscribers, patrons) of one platform per day. */
    followers: (userId: number, platform: string, through: string) => dailySum(userId, followerTypes, through, sql`c.platform = ${platform}`),

    /** The platforms the user has an active connection on, and whether one is YouTube or a USD Patreon campaign. */
    async connectedPlatforms(userId: number): Promise<{ platform: string; usd: boolean }[]> {
      return queryRows<{ platform: string; usd: boolean }>(
        db,
        sql`select c.platform, bool_or(coalesce(c.currency, '') = 'USD') as usd
          from platform_connections c where c.user_id = ${userId} and c.is_active group by c.platform`,
      );
    },

    /** Each non-USD (or unset) currency's latest monthly pledges through `through`, as revenueCurrencyNote wants them. */
    async pledgesNotInUsd(userId: number, through: string) {
      return queryRows<{ currency: string | null; amount: number; connections: number }>(
        db,
        sql`select c.currency, sum(latest.value)::float8 as amount, count(*)::int as connections
          from platform_connections c cross join lateral (
            select m.value from account_metrics m where m.connection_id = c.id and m.metric_type = 'monthly_pledges' and m.date <= ${through}
            order by m.date desc limit 1) latest
          where c.user_id = ${userId} and c.is_active and c.platform = 'patreon' and c.currency is distinct from 'USD'
          group by c.currency order by c.currency nulls last`,
      );
    },
  };
}

export type ForecastsRepository = ReturnType<typeof createForecastsRepository>;
