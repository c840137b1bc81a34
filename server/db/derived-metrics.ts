// Which stored account metrics are our derivation rather than a daily figure the platform reports, and how each
// was made (docs/platforms/*.md). One definition for the analytics answers and the exports, so a chart and a file
// never disagree about what is the platform's own number.
//   TikTok and X keep lifetime counters only: the daily views, likes, comments and shares are the growth of the
//   content counters between two of our daily snapshots (sync engine, dailyFromContentGrowth).
//   Instagram's follower history is each day's follows minus unfollows, counted back from today's total.
//   YouTube's subscriber history before the connection is each day's subscribers gained minus lost.
import { type SQL, sql } from 'drizzle-orm';
import { DERIVATION_METHODS } from '#contract/analytics.ts';

/**
 * SQL text: how the account_metrics row aliased `m` of the connection aliased `c` was derived (one of
 * DERIVATION_METHODS), or null when it is the platform's own figure.
 */
export function derivationOf(m = 'm', c = 'c'): SQL<string | null> {
  const metric = sql.raw(`${m}.metric_type`);
  const platform = sql.raw(`${c}.platform`);
  const date = sql.raw(`${m}.date`);
  const connectedAt = sql.raw(`${c}.connected_at`);
  return sql<string | null>`case
    when ${platform} in ('tiktok', 'twitter') and ${metric} in ('views', 'likes', 'comments', 'shares') then ${DERIVATION_METHODS.snapshots}
    when ${platform} = 'instagram' and ${metric} = 'followers' then ${DERIVATION_METHODS.followsAndUnfollows}
    when ${platform} = 'youtube' and ${metric} = 'subscribers' and ${date} < (${connectedAt} at time zone 'UTC')::date then ${DERIVATION_METHODS.gainedAndLost}
    else null end`;
}
