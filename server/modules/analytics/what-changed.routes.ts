// GET /api/analytics/what-changed: a thin route over what-changed.service.ts. Premium: the access gate covers every
// /api/analytics route. Every row it reads is scoped to the caller's own connections (what-changed.repository.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { whatChangedQuery, whatChangedResponse } from '#contract/what-changed.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { WhatChangedService } from './what-changed.service.ts';

export function whatChangedRoutes(app: FastifyInstance, { whatChanged }: { whatChanged: WhatChangedService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/analytics/what-changed', { schema: { querystring: whatChangedQuery, response: { 200: whatChangedResponse } } }, async (request) =>
    whatChanged.whatChanged(currentUser(request).id, request.query),
  );
}
