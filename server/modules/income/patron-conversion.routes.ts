// GET /api/income/patron-conversion: a thin route over patron-conversion.service.ts. Premium: the access gate covers
// every /api/income route (server/plugins/access.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { patronConversionQuery, patronConversionResponse } from '#contract/patron-conversion.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { PatronConversionService } from './patron-conversion.service.ts';

export function patronConversionRoutes(app: FastifyInstance, { patronConversion }: { patronConversion: PatronConversionService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/income/patron-conversion', { schema: { querystring: patronConversionQuery, response: { 200: patronConversionResponse } } }, async (request) =>
    patronConversion.conversion(currentUser(request).id, request.query),
  );
}
