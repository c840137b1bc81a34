// The table maths of the YouTube Analytics sandbox's reports.query (youtube-metrics.ts serves it): which metrics
// exist and their data types, which dimensions + metrics combination is a documented report, the per-cell sums
// (a Bucket) and each metric's value from them, and the sort of the rows. Pure: no request, no persona.
export const ADDITIVE = ['views', 'engagedViews', 'estimatedMinutesWatched', 'likes', 'dislikes', 'comments', 'shares', 'subscribersGained', 'subscribersLost'] as const;
export const REVENUE_METRICS = ['estimatedRevenue', 'estimatedAdRevenue', 'grossRevenue', 'cpm', 'monetizedPlaybacks', 'playbackBasedCpm', 'adImpressions', 'estimatedRedPartnerRevenue'] as const;
export const BASIC_METRICS = [...ADDITIVE, 'averageViewDuration', 'averageViewPercentage'] as const;
export const AUDIENCE_METRICS = ['viewerPercentage', 'audienceWatchRatio', 'relativeRetentionPerformance'] as const;
/** Known to reports.query, but refused with any dimensions (docs/platforms/youtube.md#reporting-api): use the Reporting API. */
export const THUMBNAIL_METRICS = ['videoThumbnailImpressions', 'videoThumbnailImpressionsClickRate'] as const;
export const ALL_METRICS: readonly string[] = [...BASIC_METRICS, ...REVENUE_METRICS, ...AUDIENCE_METRICS, ...THUMBNAIL_METRICS];
export const TRAFFIC_METRICS: readonly string[] = ['views', 'estimatedMinutesWatched'];
export const RETENTION_METRICS: readonly string[] = ['audienceWatchRatio', 'relativeRetentionPerformance'];
export const DATA_TYPES: Record<string, 'INTEGER' | 'FLOAT' | 'CURRENCY'> = {
  averageViewPercentage: 'FLOAT',
  viewerPercentage: 'FLOAT',
  audienceWatchRatio: 'FLOAT',
  relativeRetentionPerformance: 'FLOAT',
  estimatedRevenue: 'CURRENCY',
  estimatedAdRevenue: 'CURRENCY',
  grossRevenue: 'CURRENCY',
  estimatedRedPartnerRevenue: 'CURRENCY',
  cpm: 'CURRENCY',
  playbackBasedCpm: 'CURRENCY',
};

/** Sums over a set of (day, video) cells; averages and CPMs are derived at the end. */
export interface Bucket {
  views: number;
  engagedViews: number;
  estimatedMinutesWatched: number;
  likes: number;
  dislikes: number;
  comments: number;
  shares: number;
  subscribersGained: number;
  subscribersLost: number;
  percentWeighted: number;
  revenue: number;
  gross: number;
  redRevenue: number;
  monetizedPlaybacks: number;
  adImpressions: number;
}

export const emptyBucket = (): Bucket => ({
  views: 0,
  engagedViews: 0,
  estimatedMinutesWatched: 0,
  likes: 0,
  dislikes: 0,
  comments: 0,
  shares: 0,
  subscribersGained: 0,
  subscribersLost: 0,
  percentWeighted: 0,
  revenue: 0,
  gross: 0,
  redRevenue: 0,
  monetizedPlaybacks: 0,
  adImpressions: 0,
});

export const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * How estimatedRevenue splits, as at YouTube: ad revenue + YouTube Premium (estimatedRedPartnerRevenue) + transactions
 * (memberships, Super Chat, …). The sandbox keeps the three parts in these proportions of each cell's revenue.
 */
export const AD_SHARE_OF_REVENUE = 0.84;
export const PREMIUM_SHARE_OF_REVENUE = 0.06;

export function metricValue(bucket: Bucket, metric: string): number {
  switch (metric) {
    case 'averageViewDuration':
      return bucket.views ? Math.round((bucket.estimatedMinutesWatched * 60) / bucket.views) : 0;
    case 'averageViewPercentage':
      return bucket.views ? round2(bucket.percentWeighted / bucket.views) : 0;
    case 'estimatedMinutesWatched':
      return Math.round(bucket.estimatedMinutesWatched);
    case 'estimatedRevenue':
      return round2(bucket.revenue);
    case 'estimatedAdRevenue':
      return round2(bucket.revenue * AD_SHARE_OF_REVENUE);
    case 'grossRevenue':
      return round2(bucket.gross);
    case 'estimatedRedPartnerRevenue':
      return round2(bucket.redRevenue);
    case 'monetizedPlaybacks':
      return bucket.monetizedPlaybacks;
    case 'adImpressions':
      return bucket.adImpressions;
    case 'cpm':
      return bucket.adImpressions ? round2((bucket.gross / bucket.adImpressions) * 1000) : 0;
    case 'playbackBasedCpm':
      return bucket.monetizedPlaybacks ? round2((bucket.gross / bucket.monetizedPlaybacks) * 1000) : 0;
    default:
      return bucket[metric as (typeof ADDITIVE)[number]] ?? 0;
  }
}


export type ReportKind = 'total' | 'day' | 'video' | 'traffic' | 'demographics' | 'country' | 'retention';

/** Which documented report a dimensions + metrics combination is, or null ("The query is not supported."). */
export function reportOf(dimensions: readonly string[], metrics: readonly string[]): ReportKind | null {
  const key = dimensions.join(',');
  const only = (allowed: readonly string[]) => metrics.every((metric) => allowed.includes(metric));
  const basicOrRevenue = only([...BASIC_METRICS, ...REVENUE_METRICS]);
  if (key === '') return basicOrRevenue ? 'total' : null;
  if (key === 'day') return basicOrRevenue ? 'day' : null;
  if (key === 'video') return basicOrRevenue ? 'video' : null;
  if (key === 'insightTrafficSourceType' || key === 'day,insightTrafficSourceType') return only(TRAFFIC_METRICS) ? 'traffic' : null;
  // Demographics: viewerPercentage alone, never with day.
  if (['ageGroup', 'gender', 'ageGroup,gender', 'gender,ageGroup'].includes(key)) return metrics.length === 1 && metrics[0] === 'viewerPercentage' ? 'demographics' : null;
  if (key === 'country') return only(BASIC_METRICS) ? 'country' : null;
  if (key === 'elapsedVideoTimeRatio') return only(RETENTION_METRICS) ? 'retention' : null;
  return null;
}

/** A share of a bucket (one country's part of the views): additive counts scaled, ratios kept. */
export function scaleBucket(bucket: Bucket, share: number, views: number): Bucket {
  const scaled = emptyBucket();
  for (const key of Object.keys(bucket) as (keyof Bucket)[]) scaled[key] = key === 'views' ? views : key === 'estimatedMinutesWatched' || key === 'percentWeighted' || key === 'revenue' || key === 'gross' || key === 'redRevenue' ? bucket[key] * share : Math.round(bucket[key] * share);
  return scaled;
}

/** Sorts table rows by `sort` keys (`-` = descending) naming columns of `columns`. */
export function sortRows(rows: (string | number)[][], columns: readonly string[], sort: readonly string[]): (string | number)[][] {
  const keys = sort.map((key) => ({ column: columns.indexOf(key.replace(/^-/, '')), direction: key.startsWith('-') ? -1 : 1 }));
  return [...rows].sort((a, b) => {
    for (const { column, direction } of keys) {
      const left = a[column]!;
      const right = b[column]!;
      // Plain code-unit order (what the ids and codes need); localeCompare is far too slow for thousands of rows.
      const order = typeof left === 'number' && typeof right === 'number' ? left - right : left < right ? -1 : left > right ? 1 : 0;
      if (order !== 0) return order * direction;
    }
    return 0;
  });
}
