// GET /api/forecasts: a thin route over forecasts.service.ts. Premium: the access gate (server/plugins/access.ts)
// authenticates and checks the subscription of every /api/forecasts route; only the caller's connections are read.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noQuery } from '#contract/common.ts';
import { forecastsResponse } from '#contract/forecasts.ts';
import { currentSession } from '../../plugins/authentication.ts';
import type { ForecastsService } from './forecasts.service.ts';

export function forecastsRoutes(app: FastifyInstance, { forecasts }: { forecasts: ForecastsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The answer is sent as the cached JSON text, validated against the response schema when it was computed (a JSON
  // content type with a Buffer skips the serializer); the caller's data fingerprint came with the session.
  const sendJson = (reply: FastifyReply, json: Buffer) => reply.type('application/json; charset=utf-8').send(json);

  routes.get('/api/forecasts', { schema: { querystring: noQuery, response: { 200: forecastsResponse } } }, async (request, reply) => {
    const session = currentSession(request);
    return sendJson(reply, await forecasts.forecastsJson({ userId: session.user.id, currentFingerprint: session.dataFingerprint }));
  });
}
