import type { FastifyInstance } from 'fastify';

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

  app.get('/api/health', async () => ({ status: 'ok' }));

  app.get('/api/ready', async (_request, reply) => {
    if (shuttingDown || isDraining()) {
      return reply.status(503).send({ status: 'unavailable', message: 'The server is shutting down', code: 'unavailable' });
    }
    const ready = await withTimeout(isReady(), 1_000);
    return reply.status(ready ? 200 : 503).send(ready ? { status: 'ready' } : { status: 'unavailable', message: 'The database is not ready', code: 'unavailable' });
  });
}

async function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
