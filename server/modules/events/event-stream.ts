// One server-sent-events response: the `retry:` hint, a `ready` event, the user's events as they come, a comment
// line as a heartbeat (proxies drop silent connections; the browser notices a dead one), and clean-up when the
// browser goes away, the server shuts down, or the stream's session ends.
//
// Streams are registered in the database (event_streams), so what must hold across server processes does: a user
// has at most MAX_STREAMS_PER_USER open, counted on every process; and when a session ends (logout, revocation, a
// password change, the account's deletion) its rows go with it and the trigger on that table tells the process
// holding each stream to close it. Every heartbeat the process marks its streams as seen, and closes any whose row
// has gone without the notification reaching it (its listening connection was down).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LIVE_EVENTS } from '#contract/events.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventBus, LiveEventKind } from '../../lib/event-bus.ts';
import type { EventsRepository } from './events.repository.ts';
import type { EventsService } from './events.service.ts';

/** How soon the browser should come back after a dropped connection. */
export const STREAM_RETRY_MS = 3_000;
const HEARTBEAT_MS = 15_000;
/** A tab holds one stream; five covers a few tabs and a reconnection racing the old stream's end. */
export const MAX_STREAMS_PER_USER = 5;
/** A registry row not marked as seen for this many heartbeats belongs to a process that is gone. */
const STALE_AFTER_HEARTBEATS = 3;

export type StreamRegistry = Pick<EventsRepository, 'registerStream' | 'unregisterStream' | 'refreshStreams' | 'sessionExists'>;

export interface EventStreamsDeps {
  bus: EventBus;
  service: Pick<EventsService, 'syncEvent'>;
  registry: StreamRegistry;
  clock: Clock;
  logger: FastifyBaseLogger;
  heartbeatMs?: number;
  maxPerUser?: number;
}

export function createEventStreams({ bus, service, registry, clock, logger, heartbeatMs = HEARTBEAT_MS, maxPerUser = MAX_STREAMS_PER_USER }: EventStreamsDeps) {
  /** This process's open streams by registry id: the function that ends each, and its session. */
  const open = new Map<string, { close: (sessionEnded?: boolean) => Promise<void>; sessionId: string }>();
  let refreshTimer: ReturnType<typeof setInterval> | undefined;

  /**
   * A stream whose row went away elsewhere: it says `session-ended` first if its session is gone (the browser then
   * stops reconnecting), and just closes otherwise (its row was taken for a dead process's; the browser reconnects).
   */
  async function endFromElsewhere(streamId: string) {
    const stream = open.get(streamId);
    if (!stream) return;
    let sessionEnded = false;
    try {
      sessionEnded = !(await registry.sessionExists(stream.sessionId));
    } catch (error) {
      logger.warn({ err: error }, 'live events: checking an ended stream’s session failed');
    }
    await stream.close(sessionEnded);
  }

  const stopListening = bus.onStreamEnded((streamId) => void endFromElsewhere(streamId));

  /** Marks this process's streams as seen; ends those whose rows are gone (an ending whose notification was missed). */
  async function refresh() {
    const ids = [...open.keys()];
    try {
      const alive = await registry.refreshStreams(ids, clock.now());
      for (const id of ids) if (!alive.has(id)) void endFromElsewhere(id);
    } catch (error) {
      logger.warn({ err: error }, 'live events: marking the open streams as seen failed');
    }
  }

  function startRefreshing() {
    if (refreshTimer) return;
    refreshTimer = setInterval(() => void refresh(), heartbeatMs);
    refreshTimer.unref();
  }

  function stopRefreshingWhenIdle() {
    if (open.size > 0 || !refreshTimer) return;
    clearInterval(refreshTimer);
    refreshTimer = undefined;
  }

  /**
   * Registers and opens the stream of this session's user, or refuses: 429 in words past the per-user limit, 401 when
   * the session ended meanwhile. Nothing is written to the response before the registration holds.
   */
  async function stream(request: FastifyRequest, reply: FastifyReply, auth: { userId: number; sessionId: string }) {
    const streamId = randomUUID();
    const now = clock.now();
    const registration = await registry.registerStream(
      { id: streamId, userId: auth.userId, sessionId: auth.sessionId },
      { now, staleBefore: new Date(now.getTime() - STALE_AFTER_HEARTBEATS * heartbeatMs), max: maxPerUser },
    );
    if (registration === 'too_many') {
      logger.info({ event: 'live_events.too_many_streams', userId: auth.userId }, 'live update stream refused: too many open');
      throw new AppError(
        'rate_limited',
        `Your account already has ${maxPerUser} live update connections open, the most it may have. Close a tab or window with Analytics Hub, and this one reconnects by itself.`,
        { headers: { 'retry-after': String(Math.ceil(heartbeatMs / 1000)) } },
      );
    }
    if (registration === 'session_ended') throw new AppError('unauthorized', 'Authentication required. Please sign in.');

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
          send(LIVE_EVENTS.sync, await service.syncEvent(auth.userId));
        } while (readAgain);
      } catch (error) {
        request.log.warn({ err: error }, 'live events: reading the sync state failed');
      } finally {
        reading = false;
      }
    }

    const unsubscribe = bus.subscribe(auth.userId, (kind: LiveEventKind) => {
      if (kind === 'sync') void sendSyncState();
      else send(LIVE_EVENTS.analyticsChanged, {});
    });
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
    heartbeat.unref();

    let closing: Promise<void> | undefined;
    function close(sessionEnded = false): Promise<void> {
      closing ??= (async () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(streamId);
        stopRefreshingWhenIdle();
        if (sessionEnded) send(LIVE_EVENTS.sessionEnded, {});
        if (!raw.writableEnded) raw.end();
        try {
          await registry.unregisterStream(streamId);
        } catch (error) {
          // The row goes stale and stops counting after a few heartbeats.
          logger.warn({ err: error }, 'live events: unregistering a closed stream failed');
        }
      })();
      return closing;
    }
    open.set(streamId, { close, sessionId: auth.sessionId });
    startRefreshing();
    // The response's socket closing (the tab went away) or the response ending: either way the stream is over.
    raw.on('close', () => void close());
    raw.on('error', () => void close());
  }

  return {
    stream,
    /** Ends every open stream and removes their rows (server shutdown); browsers reconnect to another process. */
    async closeAll() {
      stopListening();
      await Promise.all([...open.values()].map((stream) => stream.close()));
    },
    /** Runs the heartbeat's registry check now (tests; the timer does it every heartbeat). */
    refresh,
    get openCount() {
      return open.size;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
