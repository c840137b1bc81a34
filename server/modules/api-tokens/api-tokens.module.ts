// Personal API tokens: created, listed and revoked by their owner; checked on every call that carries one.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import { createApiTokensRepository } from './api-tokens.repository.ts';
import { apiTokensRoutes } from './api-tokens.routes.ts';
import { createApiTokensService } from './api-tokens.service.ts';

export function apiTokensModule({ config, db, clock, logger, rateLimiter }: Infrastructure) {
  const apiTokens = createApiTokensService({ repository: createApiTokensRepository(db), rateLimiter, clock, logger, rateLimit: config.apiTokenRateLimit });
  return {
    apiTokens,
    routes: (app: FastifyInstance, { requireUser }: RouteContext) => apiTokensRoutes(app, { apiTokens, requireUser }),
  };
}
