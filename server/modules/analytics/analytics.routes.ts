import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsSummaryResponse } from '../../../contract/analytics.ts';

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/analytics route before it runs.
export function analyticsRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // No platform can be connected yet, so every total is honestly zero. The sync issue fills this from the
  // user's connections and their synced metrics.
  routes.get('/api/analytics/summary', { schema: { response: { 200: analyticsSummaryResponse } } }, async () => ({
    totalFollowers: 0,
    averageEngagementRate: 0,
    totalViews: 0,
    totalRevenue: 0,
    connectedPlatforms: 0,
  }));
}
