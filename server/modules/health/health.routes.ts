import type { FastifyInstance } from 'fastify';

/** Liveness never touches the database; readiness answers 200 only when the database does and no migration is pending. */
export function healthRoutes(app: FastifyInstance, { isReady }: { isReady: () => Promise<boolean> }) {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  app.get('/api/health', async () => ({ status: 'ok' }));

  app.get('/api/ready', async (_request, reply) => {
    const ready = !shuttingDown && (await withTimeout(isReady(), 1_000));
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
