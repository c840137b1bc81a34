// The dashboard's Engagement Rate card. A new account has no views and no sync yet; "0.0%" would read as a
// measured (and bad) rate, so it shows a dash until there is something to measure.
import type { AnalyticsSummary } from '#contract/analytics.ts';
import type { PlatformConnection } from '#contract/platforms.ts';
import { formatPercentage } from '../../../lib/format';

/** '4.6%', or null when there is no data yet (no views or impressions in the summary and no connection ever synced). */
export function engagementRateText(
  summary: Pick<AnalyticsSummary, 'averageEngagementRate' | 'totalViews' | 'totalImpressions'>,
  connections: readonly Pick<PlatformConnection, 'lastSyncedAt'>[],
): string | null {
  const neverSynced = connections.every((connection) => connection.lastSyncedAt === null);
  if (summary.totalViews === 0 && summary.totalImpressions === 0 && neverSynced) return null;
  return formatPercentage(summary.averageEngagementRate);
}
