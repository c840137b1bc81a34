// Live updates: sync progress and fresh numbers pushed to open screens (server-sent events), fanned out between
// processes through LISTEN/NOTIFY.
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/client.ts';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import { createEventBus } from '../../lib/event-bus.ts';
import { createEventStreams } from './event-stream.ts';
import { createEventsRepository } from './events.repository.ts';
import { createRequireStreamTicket, eventsRoutes } from './events.routes.ts';
import { createEventsService, type EventsServiceDeps } from './events.service.ts';

export interface EventsModuleDeps extends Pick<EventsServiceDeps, 'accounts' | 'syncStates'> {
  database: DatabaseHandle;
}

export async function eventsModule({ db, clock, logger }: Infrastructure, { database, accounts, syncStates }: EventsModuleDeps) {
  const bus = createEventBus({ database, logger });
  await bus.start();
  const repository = createEventsRepository(db);
  const service = createEventsService({ repository, accounts, syncStates, clock });
  const streams = createEventStreams({ bus, service, registry: repository, clock, logger });
  return {
    routes: (app: FastifyInstance, { requireUser }: RouteContext) => eventsRoutes(app, { service, streams, requireStreamTicket: createRequireStreamTicket(service, requireUser) }),
    /** Open streams would hold the server open (browsers reconnect to another process): closed, their rows gone. */
    closeStreams: () => streams.closeAll(),
    close: () => bus.close(),
  };
}
