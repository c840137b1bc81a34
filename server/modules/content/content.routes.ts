import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { benchmarkParams, benchmarkResponse } from '#contract/benchmark.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { BenchmarkService } from './benchmark.service.ts';

const noQuery = z.strictObject({});

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/content route before it runs. The post is looked up among the signed-in user's own.
export function contentRoutes(app: FastifyInstance, { benchmarks }: { benchmarks: BenchmarkService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/content/:id/benchmark',
    { schema: { params: benchmarkParams, querystring: noQuery, response: { 200: benchmarkResponse } } },
    async (request) => benchmarks.benchmark(currentUser(request).id, request.params.id),
  );
}
