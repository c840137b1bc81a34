// Fan-out of live events across server processes through the database: PostgreSQL LISTEN/NOTIFY (PGlite has it
// too). A notification names only the user and the kind of event, never data: each process that holds a stream of
// that user reads what changed from the database itself, with that user's rights.
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { holdDedicatedConnection } from './dedicated-connection.ts';

const EVENTS_CHANNEL = 'analytics_hub_events';

const LIVE_EVENT_KINDS = ['sync', 'analytics-changed'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/**
 * Notifies the owner of a connection. Inside a transaction PostgreSQL delivers it on commit (and never on
 * rollback), so listeners never hear of data they cannot read yet.
 */
export const notifyConnectionOwner = (connectionId: number, kinds: readonly LiveEventKind[]) =>
  sql`select pg_notify(${EVENTS_CHANNEL}, json_build_object('userId', c.user_id, 'kind', k.kind)::text)
    from platform_connections c cross join unnest(array[${sql.join(
      kinds.map((kind) => sql`${kind}`),
      sql`, `,
    )}]::text[]) as k(kind)
    where c.id = ${connectionId}`;

export type LiveEventListener = (kind: LiveEventKind) => void;

/**
 * The kind a stream's registry row says when it is deleted (the trigger `event_streams_notify_end`, migration 0014):
 * the process holding that stream closes it. Internal to the servers; never sent to a browser.
 */
const STREAM_ENDED = 'stream-ended';

export interface EventBus {
  /** Starts listening; resolves once notifications are being received. */
  start(): Promise<void>;
  /** Calls `listener` for each event of the user; answers the function that stops it. */
  subscribe(userId: number, listener: LiveEventListener): () => void;
  /** Calls `listener` with the id of every stream whose registry row was deleted, by any process. */
  onStreamEnded(listener: (streamId: string) => void): () => void;
  close(): Promise<void>;
}

type Notification = { userId: number; kind: LiveEventKind } | { kind: typeof STREAM_ENDED; streamId: string };

function parsePayload(payload: string | undefined): Notification | undefined {
  try {
    const value = JSON.parse(payload ?? '') as { userId?: unknown; kind?: unknown; streamId?: unknown };
    if (value.kind === STREAM_ENDED && typeof value.streamId === 'string') return { kind: STREAM_ENDED, streamId: value.streamId };
    if (typeof value.userId === 'number' && LIVE_EVENT_KINDS.includes(value.kind as LiveEventKind)) return { userId: value.userId, kind: value.kind as LiveEventKind };
  } catch {
    // not ours: ignored below
  }
  return undefined;
}

export function createEventBus({ database, logger }: { database: { kind: 'pglite' | 'postgres'; pglite?: PGlite; url?: string }; logger: FastifyBaseLogger }): EventBus {
  const listeners = new Map<number, Set<LiveEventListener>>();
  const streamEndedListeners = new Set<(streamId: string) => void>();
  let stop: (() => Promise<void>) | undefined;

  function deliver(userId: number, kind: LiveEventKind) {
    for (const listener of [...(listeners.get(userId) ?? [])]) {
      try {
        listener(kind);
      } catch (error) {
        logger.error({ err: error }, 'a live event listener failed');
      }
    }
  }

  function onNotification(payload: string | undefined) {
    const event = parsePayload(payload);
    if (!event) return;
    if (event.kind === STREAM_ENDED) {
      for (const listener of [...streamEndedListeners]) listener(event.streamId);
      return;
    }
    deliver(event.userId, event.kind);
  }

  /** After a gap in listening, events may have been missed: every local stream refetches. */
  function deliverToEveryone() {
    for (const userId of listeners.keys()) for (const kind of LIVE_EVENT_KINDS) deliver(userId, kind);
  }

  async function listenOnPostgres(url: string) {
    stop = await holdDedicatedConnection({
      url,
      logger,
      what: 'live events',
      setUp: async (client) => {
        client.on('notification', (message) => {
          if (message.channel === EVENTS_CHANNEL) onNotification(message.payload);
        });
        await client.query(`listen ${EVENTS_CHANNEL}`);
      },
      // Events sent while nobody listened were missed: every local stream refetches.
      onOpened: (again) => {
        if (again) deliverToEveryone();
      },
    });
  }

  return {
    async start() {
      if (database.kind === 'pglite') {
        if (!database.pglite) throw new Error('the embedded database is not open');
        stop = await database.pglite.listen(EVENTS_CHANNEL, onNotification);
      } else {
        if (!database.url) throw new Error('the PostgreSQL connection string is missing');
        await listenOnPostgres(database.url);
      }
    },

    subscribe(userId, listener) {
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(userId) === set) listeners.delete(userId);
      };
    },

    onStreamEnded(listener) {
      streamEndedListeners.add(listener);
      return () => {
        streamEndedListeners.delete(listener);
      };
    },

    async close() {
      listeners.clear();
      streamEndedListeners.clear();
      await stop?.();
    },
  };
}
