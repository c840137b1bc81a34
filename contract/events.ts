// Live updates (server-sent events). A browser's EventSource cannot send an Authorization header, so the web app
// first trades its session for a single-use ticket (POST /api/events/ticket, bearer-authenticated), then opens
// GET /api/events/stream?ticket=… . Both are premium calls (402 without access).
import { z } from 'zod';
import { syncStatus } from './sync-status.ts';

/** POST /api/events/ticket → 201. The ticket opens one stream, once, before `expiresAt`. */
export const eventTicketResponse = z.object({
  ticket: z.string(),
  expiresAt: z.string(),
  /** Where to open the stream, ticket included. */
  streamUrl: z.string(),
});
export type EventTicketResponse = z.infer<typeof eventTicketResponse>;

/** The ticket, unless the client sends its bearer session in the Authorization header instead. */
export const eventStreamQuery = z.strictObject({ ticket: z.string().trim().min(1).max(200).optional() });

/** `event: sync` — a connection's sync moved on (queued, running, idle after success, failed). */
export const syncEventData = z.object({
  connections: z.array(z.object({ connectionId: z.number().int(), status: syncStatus })),
  /** Connections not queued or running, out of all the user's connections. */
  finished: z.number().int(),
  total: z.number().int(),
});
export type SyncEventData = z.infer<typeof syncEventData>;

/**
 * Event names on the stream. `analytics-changed` carries no data: the screens refetch what they show.
 * `session-ended` is the last thing a stream says when its session ended (signed out, revoked, the account deleted):
 * there is nothing to reconnect to, and the tab's next call answers 401 if it was not this tab's own doing.
 */
export const LIVE_EVENTS = { sync: 'sync', analyticsChanged: 'analytics-changed', ready: 'ready', sessionEnded: 'session-ended' } as const;
