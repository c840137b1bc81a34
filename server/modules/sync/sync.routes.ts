import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { syncStatusResponse, syncTriggerResponse } from '../../../contract/analytics.ts';
import { AppError } from '../../lib/app-error.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import { connectionIdParams } from '../platforms/platforms.routes.ts';
import type { SyncQueue } from './sync.queue.ts';
import type { SyncRepository } from './sync.repository.ts';

const syncParams = z.strictObject({ connectionId: connectionIdParams.shape.id });

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/sync route before it runs.
export function syncRoutes(
  app: FastifyInstance,
  { queue, repository, platformsRepository, intervalMs, displayName }: { queue: SyncQueue; repository: SyncRepository; platformsRepository: PlatformsRepository; intervalMs: number; displayName: (platform: string) => string },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The spec's name says platformId; it takes the connection id. Another user's connection reads as absent (404).
  routes.post('/api/sync/platform/:connectionId', { schema: { params: syncParams, response: { 202: syncTriggerResponse } } }, async (request, reply) => {
    const connectionId = request.params.connectionId;
    const row = await platformsRepository.findConnection(currentUser(request).id, connectionId);
    if (!row) throw new AppError('not_found', 'No such connection.');
    const { jobId, status } = await queue.enqueue(connectionId);
    return reply.status(202).send({ connectionId, jobId, status });
  });

  routes.get('/api/sync/status', { schema: { response: { 200: syncStatusResponse } } }, async (request) => {
    const rows = await repository.listForUser(currentUser(request).id);
    return rows.map(({ connection, state }) => {
      const status = state?.status === 'queued' || state?.status === 'running' || state?.status === 'failed' ? state.status : 'idle';
      const scheduled = state?.nextRunAt ?? (connection.lastSyncedAt ? new Date(connection.lastSyncedAt.getTime() + intervalMs) : null);
      return {
        connectionId: connection.id,
        platformName: displayName(connection.platform),
        status,
        message: state?.message ?? null,
        lastSyncedAt: connection.lastSyncedAt?.toISOString() ?? null,
        nextRunAt: connection.isActive && !connection.needsReconnect ? (scheduled?.toISOString() ?? null) : null,
      };
    });
  });
}
