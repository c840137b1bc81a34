import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventStreamQuery, eventTicketResponse } from '#contract/events.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { EventStreams } from './event-stream.ts';
import type { EventsService } from './events.service.ts';

const EVENT_STREAM_PATH = '/api/events/stream';

/**
 * Authenticates the stream by its single-use ticket (EventSource cannot send headers), or, for clients that can
 * send one, by the bearer session as every other call. Runs as the route's authentication inside the access
 * gate, so the stream also needs premium access (server/plugins/access.ts).
 */
export function createRequireStreamTicket(service: EventsService, requireUser: (request: FastifyRequest) => Promise<void>) {
  return async function requireStreamTicket(request: FastifyRequest) {
    const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
    if (ticket === undefined && request.headers.authorization !== undefined) return requireUser(request);
    request.auth = await service.redeemTicket(ticket);
  };
}

// Premium: the access gate authenticates and checks the subscription of every /api/events route before it runs.
export function eventsRoutes(app: FastifyInstance, { service, streams, requireStreamTicket }: { service: EventsService; streams: EventStreams; requireStreamTicket: ReturnType<typeof createRequireStreamTicket> }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post('/api/events/ticket', { schema: { response: { 201: eventTicketResponse } } }, async (request, reply) => {
    const auth = request.auth!;
    const { ticket, expiresAt } = await service.issueTicket({ sessionId: auth.sessionId, userId: currentUser(request).id });
    return reply.status(201).send({ ticket, expiresAt: expiresAt.toISOString(), streamUrl: `${EVENT_STREAM_PATH}?ticket=${encodeURIComponent(ticket)}` });
  });

  routes.get(EVENT_STREAM_PATH, { schema: { querystring: eventStreamQuery }, config: { authenticate: requireStreamTicket } }, async (request, reply) => {
    await streams.stream(request, reply, { userId: currentUser(request).id, sessionId: request.auth!.sessionId });
  });
}
