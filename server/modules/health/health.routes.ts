import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponse, notReadyResponse, readyResponse } from '#contract/health.ts';

export const HEALTH_PATHS = ['/api/health', '/api/ready'] as const;

/**
 * Liveness never touches the database; readiness answers 200 only when the database does, no migration is
 * pending and the server is not draining for a shutdown (503 at once, without asking the database).
 */
export function healthRoutes(app: FastifyInstance, { isReady, isDraining }: { isReady: () => Promise<boolean>; isDraining: () => boolean }) {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get('/api/health', { schema: { response: { 200: healthResponse } } }, async () => ({ status: 'ok' as const }));

  routes.get('/api/ready', { schema: { response: { 200: readyResponse, 503: notReadyResponse } } }, async (_request, reply) => {
    if (shuttingDown || isDraining()) {
      return reply.status(503).send({ status: 'unavailable' as const, message: 'The server is shutting down', code: 'unavailable' as const });
    }
    // The database handle bounds the wait (PostgreSQL); PGlite, inside this process, cannot hang apart from it.
    const ready = await isReady();
    if (ready) return reply.status(200).send({ status: 'ready' as const });
    return reply.status(503).send({ status: 'unavailable' as const, message: 'The database is not ready', code: 'unavailable' as const });
  });
}
