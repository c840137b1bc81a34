// One server-sent-events response: the `retry:` hint, a `ready` event, the user's events as they come, a comment
// line as a heartbeat (proxies drop silent connections; the browser notices a dead one), and clean-up when the
// browser goes away or the server shuts down.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIVE_EVENTS } from '#contract/events.ts';
import type { EventBus, LiveEventKind } from '../../lib/event-bus.ts';
import type { EventsService } from './events.service.ts';

/** How soon the browser should come back after a dropped connection. */
export const STREAM_RETRY_MS = 3_000;
const HEARTBEAT_MS = 15_000;

export function createEventStreams({ bus, service, heartbeatMs = HEARTBEAT_MS }: { bus: EventBus; service: EventsService; heartbeatMs?: number }) {
  const open = new Set<() => void>();

  function stream(request: FastifyRequest, reply: FastifyReply, userId: number) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    const write = (text: string) => {
      if (!raw.writableEnded && !raw.destroyed) raw.write(text);
    };
    const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    write(`retry: ${STREAM_RETRY_MS}\n\n`);
    send(LIVE_EVENTS.ready, {});

    // Several sync events in a burst need one fresh read each time the previous one is done, not one read each.
    let reading = false;
    let readAgain = false;
    async function sendSyncState() {
      if (reading) {
        readAgain = true;
        return;
      }
      reading = true;
      try {
        do {
          readAgain = false;
          send(LIVE_EVENTS.sync, await service.syncEvent(userId));
        } while (readAgain);
      } catch (error) {
        request.log.warn({ err: error }, 'live events: reading the sync state failed');
      } finally {
        reading = false;
      }
    }

    const unsubscribe = bus.subscribe(userId, (kind: LiveEventKind) => {
      if (kind === 'sync') void sendSyncState();
      else send(LIVE_EVENTS.analyticsChanged, {});
    });
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
    heartbeat.unref();

    let closed = false;
    function close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(close);
      if (!raw.writableEnded) raw.end();
    }
    open.add(close);
    // The response's socket closing (the tab went away) or the response ending: either way the stream is over.
    raw.on('close', close);
    raw.on('error', close);
  }

  return {
    stream,
    /** Ends every open stream (server shutdown); browsers reconnect to another process. */
    closeAll() {
      for (const close of [...open]) close();
    },
    get openCount() {
      return open.size;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
