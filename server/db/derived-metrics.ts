// Which stored account metrics are our derivation rather than a daily figure the platform reports, and how each
// was made (docs/platforms/*.md). One definition for the analytics answers and the exports, so a chart and a file
// never disagree about what is the platform's own number.
//   TikTok and X keep lifetime counters only: a day's views (X: impressions, and its videos' views), likes, comments
//   and shares are the growth of each post's counters since our previous reading of it, on the reading's day, and
//   what a post had when first read, on its publish day (migration 0024, content_growth_refresh). DERIVATION_EXPLANATIONS says it in words.
//   Instagram's follower history is each day's follows minus unfollows, counted back from today's total.
//   YouTube's subscriber history before the connection is each day's subscribers gained minus lost.
//   Patreon's paying patrons and monthly pledges before the connection come from the members list: when each member
//   started and stopped paying (server/modules/income/patron-history.ts, levelsBefore).
import { type SQL, sql } from 'drizzle-orm';
import { DERIVATION_METHODS } from '#contract/analytics.ts';
import { sqlList } from './client.ts';

/**
 * The derivations: the platform and metric types each applies to, and `beforeConnection` when only the days before
 * the connection was made are derived (later days are the platform's own figures).
 */
export const DERIVATIONS = [
  { platforms: ['tiktok'], metricTypes: ['views', 'likes', 'comments', 'shares'], method: DERIVATION_METHODS.snapshots, beforeConnection: false },
  { platforms: ['twitter'], metricTypes: ['impressions', 'views', 'likes', 'comments', 'shares'], method: DERIVATION_METHODS.snapshots, beforeConnection: false },
  { platforms: ['instagram'], metricTypes: ['followers'], method: DERIVATION_METHODS.followsAndUnfollows, beforeConnection: false },
  { platforms: ['youtube'], metricTypes: ['subscribers'], method: DERIVATION_METHODS.gainedAndLost, beforeConnection: true },
  { platforms: ['patreon'], metricTypes: ['patrons', 'monthly_pledges', 'per_post_pledges'], method: DERIVATION_METHODS.memberList, beforeConnection: true },
] as const;


/**
 * SQL text: how the account_metrics row aliased `m` of the connection aliased `c` was derived (one of
 * DERIVATION_METHODS), or null when it is the platform's own figure.
 */
export function derivationOf(m = 'm', c = 'c'): SQL<string | null> {
  const metric = sql.raw(`${m}.metric_type`);
  const platform = sql.raw(`${c}.platform`);
  const date = sql.raw(`${m}.date`);
  const connectedAt = sql.raw(`${c}.connected_at`);
  const cases = DERIVATIONS.map(
    ({ platforms, metricTypes, method, beforeConnection }) =>
      sql`when ${platform} in (${sqlList(platforms)}) and ${metric} in (${sqlList(metricTypes)})${beforeConnection ? sql` and ${date} < (${connectedAt} at time zone 'UTC')::date` : sql``} then ${method}`,
  );
  return sql<string | null>`case ${sql.join(cases, sql` `)} else null end`;
}

/**
 * SQL text: the derivations as rows (platform, metric_type, method, before_connection), one per platform and metric
 * type, for a query that looks up each derived series by index rather than testing every stored row.
 */
export function derivationRows(): SQL {
  const rows = DERIVATIONS.flatMap(({ platforms, metricTypes, method, beforeConnection }) =>
    platforms.flatMap((platform) => metricTypes.map((metricType) => sql`(${platform}::text, ${metricType}::text, ${method}::text, ${beforeConnection}::boolean)`)),
  );
  return sql`(values ${sql.join(rows, sql`, `)})`;
}
