// GET /api/analytics/best-times: a thin route over best-times.service.ts. Premium: the access gate covers every
// /api/analytics route. Not cached: one benchmark query per call, and the zone is part of the question.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bestTimesQuery, bestTimesResponse } from '#contract/best-times.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { BestTimesService } from './best-times.service.ts';

export function bestTimesRoutes(app: FastifyInstance, { bestTimes }: { bestTimes: BestTimesService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/analytics/best-times', { schema: { querystring: bestTimesQuery, response: { 200: bestTimesResponse } } }, async (request) =>
    bestTimes.bestTimes(currentUser(request), request.query),
  );
}
