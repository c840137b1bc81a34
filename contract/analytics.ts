// The /api/analytics calls (spec section 7). Premium: every one of them is behind the 402 gate.
import { z } from 'zod';

/** Spec section 3, "Analytics summary". */
export const analyticsSummaryResponse = z.object({
  totalFollowers: z.number(),
  /** Percent, e.g. 4.2 for 4.2 %. */
  averageEngagementRate: z.number(),
  totalViews: z.number(),
  /** USD, major units. */
  totalRevenue: z.number(),
  connectedPlatforms: z.number().int(),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummaryResponse>;
