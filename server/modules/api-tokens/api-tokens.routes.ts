// /api/settings/api-tokens: the Settings screen's personal API tokens. Signed in, not premium (like the rest of
// Settings). Only a session may manage tokens: a personal token calling these gets 403 (api-token-scope.ts).
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiTokenIdParams, apiTokensResponse, createApiTokenRequest, createApiTokenResponse, revokeApiTokenResponse } from '#contract/api-tokens.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

export function apiTokensRoutes(app: FastifyInstance, { apiTokens, requireUser }: { apiTokens: ApiTokensService; requireUser: preHandlerAsyncHookHandler }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/settings/api-tokens', { preHandler: requireUser, schema: { response: { 200: apiTokensResponse } } }, async (request) => ({
    tokens: await apiTokens.list(currentUser(request).id),
  }));

  routes.post(
    '/api/settings/api-tokens',
    { preHandler: requireUser, schema: { body: createApiTokenRequest, response: { 201: createApiTokenResponse } } },
    async (request, reply) => reply.status(201).send(await apiTokens.create(currentUser(request).id, request.body)),
  );

  routes.delete(
    '/api/settings/api-tokens/:id',
    { preHandler: requireUser, schema: { params: apiTokenIdParams, response: { 200: revokeApiTokenResponse } } },
    async (request) => apiTokens.revoke(currentUser(request).id, request.params.id),
  );
}
