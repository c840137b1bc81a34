// GET /api/income: a thin route over income.service.ts. Premium: the access gate covers /api/income.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { incomeQuery, incomeResponse } from '#contract/income.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { IncomeService } from './income.service.ts';

export function incomeRoutes(app: FastifyInstance, { income }: { income: IncomeService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/income', { schema: { querystring: incomeQuery, response: { 200: incomeResponse } } }, async (request) =>
    income.income(currentUser(request).id, request.query),
  );
}
