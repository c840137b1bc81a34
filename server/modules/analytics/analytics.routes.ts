// The analytics calls: thin routes over analytics.service.ts, sending the cached JSON text as it is.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsQuery, analyticsResponse, analyticsSummaryQuery, analyticsSummaryResponse, metricTypesResponse, platformAnalyticsParams, platformAnalyticsQuery } from '#contract/analytics.ts';
import { platformById } from '#contract/platforms.ts';
import { cacheOwnerOf, sendCachedJson } from '../../lib/cached-answer-reply.ts';
import type { AnalyticsService } from './analytics.service.ts';

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/analytics route before it runs.
export function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/analytics/summary', { schema: { querystring: analyticsSummaryQuery, response: { 200: analyticsSummaryResponse } } }, async (request, reply) =>
    sendCachedJson(reply, await analytics.summaryJson(cacheOwnerOf(request), request.query)),
  );

  routes.get('/api/analytics', { schema: { querystring: analyticsQuery, response: { 200: analyticsResponse } } }, async (request, reply) => {
    const platform = request.query.platformId !== undefined ? platformById(request.query.platformId) : undefined;
    return sendCachedJson(reply, await analytics.analyticsJson(cacheOwnerOf(request), request.query, platform));
  });

  routes.get(
    '/api/analytics/platform/:id',
    { schema: { params: platformAnalyticsParams, querystring: platformAnalyticsQuery, response: { 200: analyticsResponse } } },
    async (request, reply) => sendCachedJson(reply, await analytics.analyticsJson(cacheOwnerOf(request), request.query, platformById(request.params.id))),
  );

  routes.get('/api/analytics/metrics', { schema: { response: { 200: metricTypesResponse } } }, async (request, reply) =>
    sendCachedJson(reply, await analytics.metricTypesJson(cacheOwnerOf(request))),
  );
}
