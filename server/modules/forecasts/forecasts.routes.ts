// GET /api/forecasts: a thin route over forecasts.service.ts. Premium: the access gate (server/plugins/access.ts)
// authenticates and checks the subscription of every /api/forecasts route; only the caller's connections are read.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noQuery } from '#contract/common.ts';
import { forecastsResponse } from '#contract/forecasts.ts';
import { cacheOwnerOf, sendCachedJson } from '../../lib/cached-answer-reply.ts';
import type { ForecastsService } from './forecasts.service.ts';

export function forecastsRoutes(app: FastifyInstance, { forecasts }: { forecasts: ForecastsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The day's answer from the analytics cache while the caller's data is unchanged.
  routes.get('/api/forecasts', { schema: { querystring: noQuery, response: { 200: forecastsResponse } } }, async (request, reply) =>
    sendCachedJson(reply, await forecasts.forecastsJson(cacheOwnerOf(request))),
  );
}
