import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authUrlResponse,
  connectPlatformRequest,
  connectPlatformResponse,
  disconnectResponse,
  oauthCallbackRequest,
  oauthCallbackResponse,
  platformConnectionsResponse,
  platformsResponse,
  updateConnectionRequest,
  updateConnectionResponse,
} from '#contract/platforms.ts';
import { connectionIdParams, platformParams } from '#contract/platforms.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { PlatformsService } from './platforms.service.ts';

// An unknown platform name is a 404 from the service, so the path only bounds its shape here.

// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of these routes before
// they run, except listing the connections and disconnecting them, which a user whose subscription ended still needs
// (the gate's lapsed allowlist): those authenticate on their own, before anything else, as the gate would.
export function platformsRoutes(app: FastifyInstance, { platforms, requireUser }: { platforms: PlatformsService; requireUser: (request: FastifyRequest) => Promise<void> }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/platforms', { schema: { response: { 200: platformsResponse } } }, async () => platforms.listPlatforms());

  routes.get('/api/platformconnections', { onRequest: requireUser, schema: { response: { 200: platformConnectionsResponse } } }, async (request) =>
    platforms.listConnections(currentUser(request).id),
  );

  routes.post(
    '/api/platformconnections/connect',
    { schema: { body: connectPlatformRequest, response: { 201: connectPlatformResponse } } },
    async (request, reply) => reply.status(201).send(await platforms.connectManually(currentUser(request).id, request.body)),
  );

  routes.patch(
    '/api/platformconnections/:id',
    { schema: { params: connectionIdParams, body: updateConnectionRequest, response: { 200: updateConnectionResponse } } },
    async (request) => platforms.updateConnection(currentUser(request).id, request.params.id, request.body),
  );

  routes.delete('/api/platformconnections/:id', { onRequest: requireUser, schema: { params: connectionIdParams, response: { 200: disconnectResponse } } }, async (request) =>
    platforms.disconnect(currentUser(request).id, request.params.id),
  );

  routes.get('/api/oauth/:platform/auth-url', { schema: { params: platformParams, response: { 200: authUrlResponse } } }, async (request) =>
    platforms.createAuthUrl(currentUser(request).id, request.params.platform),
  );

  routes.post(
    '/api/oauth/:platform/callback',
    { schema: { params: platformParams, body: oauthCallbackRequest, response: { 200: oauthCallbackResponse } } },
    async (request) => platforms.completeAuthorization(currentUser(request).id, request.params.platform, request.body),
  );

  routes.delete('/api/oauth/:platform/disconnect', { onRequest: requireUser, schema: { params: platformParams, response: { 200: disconnectResponse } } }, async (request) =>
    platforms.disconnectPlatform(currentUser(request).id, request.params.platform),
  );
  // POST /api/sync/platform/:connectionId and GET /api/sync/status: server/modules/sync/sync.routes.ts.
}
