// The sync calls: thin routes over the sync requests service.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { syncStatusResponse, syncTriggerResponse } from '#contract/analytics.ts';
import { syncParams } from '#contract/platforms.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { SyncRequests } from './sync.service.ts';

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription before a sync is
// requested. The status is on the gate's lapsed allowlist (it says that syncing paused when the subscription ended),
// so it authenticates on its own.
export function syncRoutes(app: FastifyInstance, { requests, requireUser }: { requests: SyncRequests; requireUser: (request: FastifyRequest) => Promise<void> }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The spec's name says platformId; it takes the connection id. Another user's connection reads as absent (404).
  routes.post('/api/sync/platform/:connectionId', { schema: { params: syncParams, response: { 202: syncTriggerResponse } } }, async (request, reply) =>
    reply.status(202).send(await requests.requestSync(currentUser(request).id, request.params.connectionId)),
  );

  routes.get('/api/sync/status', { onRequest: requireUser, schema: { response: { 200: syncStatusResponse } } }, async (request) => requests.statusesOf(currentUser(request).id));
}
