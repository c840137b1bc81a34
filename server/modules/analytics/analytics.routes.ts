import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsSummaryResponse } from '../../../contract/analytics.ts';
import { currentUser } from '../../plugins/authentication.ts';

export interface AnalyticsSources {
  /** Totals over the user's active platform connections. */
  connectionSummary(userId: number): Promise<{ totalFollowers: number; connectedPlatforms: number }>;
}

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/analytics route before it runs.
export function analyticsRoutes(app: FastifyInstance, { connectionSummary }: AnalyticsSources) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Followers and connected platforms come from the connections' latest profiles. Views, engagement and revenue
  // stay 0 until the sync issue stores the platforms' metrics.
  routes.get('/api/analytics/summary', { schema: { response: { 200: analyticsSummaryResponse } } }, async (request) => {
    const { totalFollowers, connectedPlatforms } = await connectionSummary(currentUser(request).id);
    return { totalFollowers, averageEngagementRate: 0, totalViews: 0, totalRevenue: 0, connectedPlatforms };
  });
}
