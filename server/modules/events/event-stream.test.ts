// The stream's own timing and clean-up, on a bare Fastify server holding only the stream factory: a heartbeat
// interval of a few milliseconds (the factory's `heartbeatMs`), a bus that keeps its listeners where the test can see
// them, and a real HTTP client that goes away. Nothing sleeps: the test reads the stream until the line it waits for
// arrives, and waits for the response's `close` event before looking at what is left.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventBus, LiveEventKind, LiveEventListener } from '../../lib/event-bus.ts';
import { createEventStreams, type EventStreams, STREAM_RETRY_MS } from './event-stream.ts';
import type { EventsService } from './events.service.ts';

const HEARTBEAT_TEST_MS = 25;
const USER_ID = 7;

/** A bus without a database: the listeners of each user, so a test can see what a stream holds. */
function createMemoryBus() {
  const listeners = new Map<number, Set<LiveEventListener>>();
  const bus: EventBus = {
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
  };
}

let app: FastifyInstance;
let baseUrl: string;
let streams: EventStreams;
let memory: ReturnType<typeof createMemoryBus>;
/** Resolves when the server side of the latest stream saw its response close. */
let serverSideClosed: Promise<void>;

beforeAll(async () => {
  memory = createMemoryBus();
  const service = { syncEvent: async () => ({ connections: [], finished: 0, total: 0 }) } as unknown as EventsService;
  streams = createEventStreams({ bus: memory.bus, service, heartbeatMs: HEARTBEAT_TEST_MS });
  // Closing the app must not wait for the test client's idle keep-alive connections.
  app = Fastify({ logger: false, forceCloseConnections: true });
  app.get('/stream', async (request, reply) => {
    // Registered before the stream's own listener, so by the time this promise's continuation runs, the stream's
    // clean-up (run by the same `close` event) has run too.
    serverSideClosed = new Promise((resolve) => reply.raw.once('close', () => resolve()));
    streams.stream(request, reply, USER_ID);
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
