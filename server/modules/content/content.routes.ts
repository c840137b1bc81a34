import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { benchmarkParams, benchmarkResponse } from '#contract/benchmark.ts';
import { noQuery } from '#contract/common.ts';
import { contentListQuery, contentListResponse } from '#contract/content.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { BenchmarkService } from './benchmark.service.ts';
import type { ContentService } from './content.service.ts';


// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/content route before it runs. Posts are looked up among the signed-in user's own. The CSV export of the
// table, GET /api/content/export, is served by the exports module with the other files.
export function contentRoutes(app: FastifyInstance, { benchmarks, content }: { benchmarks: BenchmarkService; content: ContentService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/content',
    { schema: { querystring: contentListQuery, response: { 200: contentListResponse } } },
    async (request) => content.list(currentUser(request).id, request.query),
  );

  routes.get(
    '/api/content/:id/benchmark',
    { schema: { params: benchmarkParams, querystring: noQuery, response: { 200: benchmarkResponse } } },
    async (request) => benchmarks.benchmark(currentUser(request).id, request.params.id),
  );
}
