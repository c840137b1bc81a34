// The stream's own timing and clean-up, on a bare Fastify server holding only the stream factory: a heartbeat
// interval of a few milliseconds (the factory's `heartbeatMs`), a bus and a stream registry kept in memory where the
// test can see them, and a real HTTP client that goes away. Nothing sleeps: the test reads the stream until the line
// it waits for arrives, and waits for the response's `close` event before looking at what is left. The registry on a
// real database, across processes, is tested in events.test.ts.
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventBus, LiveEventKind, LiveEventListener } from '../../lib/event-bus.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { createManualClock } from '../../test/manual-clock.ts';
import { createEventStreams, type EventStreams, type StreamRegistry, STREAM_RETRY_MS } from './event-stream.ts';
import type { EventsService } from './events.service.ts';

const HEARTBEAT_TEST_MS = 25;
const MAX_TEST_STREAMS = 2;
const USER_ID = 7;

/** A bus without a database: the listeners of each user, so a test can see what a stream holds. */
function createMemoryBus() {
  const listeners = new Map<number, Set<LiveEventListener>>();
  const endedListeners = new Set<(streamId: string) => void>();
  const bus: EventBus = {
    onStreamEnded(listener) {
      endedListeners.add(listener);
      return () => endedListeners.delete(listener);
    },
    async start() {},
    subscribe(userId, listener) {
      const set = listeners.get(userId) ?? new Set();
      listeners.set(userId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    async close() {},
  };
  return {
    bus,
    listenerCount: (userId: number) => listeners.get(userId)?.size ?? 0,
    deliver: (userId: number, kind: LiveEventKind) => {
      for (const listener of [...(listeners.get(userId) ?? [])]) listener(kind);
    },
    /** What the database trigger does when a stream's row is deleted by someone else. */
    endStream: (streamId: string) => {
      for (const listener of [...endedListeners]) listener(streamId);
    },
  };
}

/** The registry's rows in memory, with the same answers as events.repository.ts. */
function createMemoryRegistry() {
  const rows = new Map<string, { userId: number; sessionId: string }>();
  const registry: StreamRegistry = {
    async registerStream(stream, { max }) {
      if ([...rows.values()].filter((row) => row.userId === stream.userId).length >= max) return 'too_many';
      rows.set(stream.id, { userId: stream.userId, sessionId: stream.sessionId });
      return 'registered';
    },
    async unregisterStream(streamId) {
      rows.delete(streamId);
    },
    async refreshStreams(streamIds) {
      return new Set(streamIds.filter((id) => rows.has(id)));
    },
    async sessionExists(sessionId) {
      return !endedSessions.has(sessionId);
    },
  };
  const endedSessions = new Set<string>();
  return { registry, rows, endedSessions };
}

let app: FastifyInstance;
let baseUrl: string;
let streams: EventStreams;
let memory: ReturnType<typeof createMemoryBus>;
let registry: ReturnType<typeof createMemoryRegistry>;
/** Resolves when the server side of the latest stream saw its response close. */
let serverSideClosed: Promise<void>;

beforeAll(async () => {
  memory = createMemoryBus();
  registry = createMemoryRegistry();
  const service = { syncEvent: async () => ({ connections: [], finished: 0, total: 0 }) } as unknown as EventsService;
  streams = createEventStreams({
    bus: memory.bus,
    service,
    registry: registry.registry,
    clock: createManualClock(),
    logger: pino({ level: 'silent' }),
    heartbeatMs: HEARTBEAT_TEST_MS,
    maxPerUser: MAX_TEST_STREAMS,
  });
  // Closing the app must not wait for the test client's idle keep-alive connections.
  app = Fastify({ logger: false, forceCloseConnections: true });
  registerErrorHandler(app);
  app.get('/stream', async (request, reply) => {
    // Registered before the stream's own listener, so by the time this promise's continuation runs, the stream's
    // clean-up (run by the same `close` event) has run too.
    serverSideClosed = new Promise((resolve) => reply.raw.once('close', () => resolve()));
    await streams.stream(request, reply, { userId: USER_ID, sessionId: 'session-of-user-7' });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Opens the stream and reads it as text; `until(text)` resolves once the text read so far contains `text`. */
async function openStream() {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/stream`, { signal: controller.signal });
  let received = '';
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        received += decoder.decode(chunk, { stream: true });
        for (const wake of [...waiters]) wake();
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    response,
    get received() {
      return received;
    },
    /** Resolves once `text` has arrived `times` times in all; the test's own timeout bounds the wait. */
    until(text: string, times = 1): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (received.split(text).length - 1 >= times) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    disconnect: () => controller.abort(),
  };
}

describe('the event stream heartbeat', () => {
  it('writes a comment line after each interval, after the retry hint and the ready event', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const stream = await openStream();
    expect(stream.response.status).toBe(200);
    await stream.until(': heartbeat\n\n', 2);
    expect(stream.received.startsWith(`retry: ${STREAM_RETRY_MS}\n\nevent: ready\ndata: {}\n\n: heartbeat\n\n`)).toBe(true);
    // The interval is the one the factory was given, not the 15 s default.
    expect(setIntervalSpy.mock.calls.map((call) => call[1])).toContain(HEARTBEAT_TEST_MS);
    stream.disconnect();
    await serverSideClosed;
  });

  it('releases its timer and its bus subscription when the client disconnects', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const clearIntervalSpy = vi.spyOn(globalThis, 'clearInterval');
    const stream = await openStream();
    await stream.until(': heartbeat\n\n');
    const heartbeatTimer = setIntervalSpy.mock.results[setIntervalSpy.mock.calls.findIndex((call) => call[1] === HEARTBEAT_TEST_MS)]?.value;
    expect(heartbeatTimer).toBeDefined();
    // While open, the stream holds one subscription and is counted, and a bus event reaches the client.
    expect(memory.listenerCount(USER_ID)).toBe(1);
    expect(streams.openCount).toBe(1);
    memory.deliver(USER_ID, 'analytics-changed');
    await stream.until('event: analytics-changed\n');
    expect(clearIntervalSpy).not.toHaveBeenCalledWith(heartbeatTimer);

    stream.disconnect();
    await serverSideClosed;
    expect(clearIntervalSpy).toHaveBeenCalledWith(heartbeatTimer);
    expect(memory.listenerCount(USER_ID)).toBe(0);
    expect(streams.openCount).toBe(0);
  });
});

describe('the end of a stream', () => {
  it('closes a stream when its session ends elsewhere (the database trigger’s notification), saying so last, and forgets it', async () => {
    const stream = await openStream();
    await stream.until('event: ready\n');
    const [streamId] = [...registry.rows.keys()];
    registry.rows.delete(streamId!);
    registry.endedSessions.add('session-of-user-7');
    memory.endStream(streamId!);
    await serverSideClosed;
    await stream.until('event: session-ended\ndata: {}\n\n');
    expect(stream.received.endsWith('event: session-ended\ndata: {}\n\n')).toBe(true);
    expect(streams.openCount).toBe(0);
    expect(memory.listenerCount(USER_ID)).toBe(0);
    registry.endedSessions.clear();
  });

  it('just closes a stream whose row went while its session lives (a clean-up): the browser reconnects', async () => {
    const stream = await openStream();
    await stream.until('event: ready\n');
    const [streamId] = [...registry.rows.keys()];
    registry.rows.delete(streamId!);
    memory.endStream(streamId!);
    await serverSideClosed;
    expect(stream.received).not.toContain('session-ended');
  });

  it('closes a stream whose row is gone at the heartbeat check, when the notification never came', async () => {
    const stream = await openStream();
    await stream.until('event: ready\n');
    registry.rows.clear();
    await streams.refresh();
    await serverSideClosed;
    expect(streams.openCount).toBe(0);
  });

  it('refuses a stream past the per-user limit with a 429 in words, before writing anything of a stream', async () => {
    const first = await openStream();
    const second = await openStream();
    await first.until('event: ready\n');
    await second.until('event: ready\n');
    const refused = await fetch(`${baseUrl}/stream`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      code: 'rate_limited',
      message: 'Your account already has 2 live update connections open, the most it may have. Close a tab or window with Analytics Hub, and this one reconnects by itself.',
    });
    first.disconnect();
    second.disconnect();
    await vi.waitFor(() => expect(registry.rows.size).toBe(0));
  });
});
