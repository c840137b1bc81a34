// The engagement rate every screen and report shows: engagements over reach (views, or impressions where a platform
// has no views), in per cent with two decimals.

/** engagements / reach × 100, two decimals; null without a reach to measure against. */
export const engagementRate = (engagements: number | string | null, reach: number | string | null): number | null =>
  reach === null || !(Number(reach) > 0) ? null : Math.round((Number(engagements ?? 0) / Number(reach)) * 100 * 100) / 100;
