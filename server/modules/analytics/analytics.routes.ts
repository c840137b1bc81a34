// The analytics calls: thin routes over analytics.service.ts, sending the cached JSON text as it is.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsQuery, analyticsResponse, analyticsSummaryQuery, analyticsSummaryResponse, metricTypesResponse, platformAnalyticsParams, platformAnalyticsQuery } from '#contract/analytics.ts';
import { platformById } from '#contract/platforms.ts';
import { currentSession } from '../../plugins/authentication.ts';
import type { CacheOwner } from './analytics-cache.ts';
import type { AnalyticsService } from './analytics.service.ts';

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/analytics route before it runs.
export function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The answers are sent as the cached JSON text: the response schemas stay for documentation, and the text was
  // validated against them when it was computed (a JSON content type with a Buffer skips the serializer).
  const sendJson = (reply: FastifyReply, json: Buffer) => reply.type('application/json; charset=utf-8').send(json);
  // The caller's platform data fingerprint was read with the session: a cached answer then costs no query.
  const ownerOf = (request: FastifyRequest): CacheOwner => {
    const session = currentSession(request);
    return { userId: session.user.id, currentFingerprint: session.dataFingerprint };
  };

  routes.get('/api/analytics/summary', { schema: { querystring: analyticsSummaryQuery, response: { 200: analyticsSummaryResponse } } }, async (request, reply) =>
    sendJson(reply, await analytics.summaryJson(ownerOf(request), request.query)),
  );

  routes.get('/api/analytics', { schema: { querystring: analyticsQuery, response: { 200: analyticsResponse } } }, async (request, reply) => {
    const platform = request.query.platformId !== undefined ? platformById(request.query.platformId) : undefined;
    return sendJson(reply, await analytics.analyticsJson(ownerOf(request), request.query, platform));
  });

  routes.get(
    '/api/analytics/platform/:id',
    { schema: { params: platformAnalyticsParams, querystring: platformAnalyticsQuery, response: { 200: analyticsResponse } } },
    async (request, reply) => sendJson(reply, await analytics.analyticsJson(ownerOf(request), request.query, platformById(request.params.id))),
  );

  routes.get('/api/analytics/metrics', { schema: { response: { 200: metricTypesResponse } } }, async (request, reply) =>
    sendJson(reply, await analytics.metricTypesJson(ownerOf(request))),
  );
}
