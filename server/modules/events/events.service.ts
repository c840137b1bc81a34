// Live updates: tickets that open a stream, and what a stream says when an event arrives.
import type { SyncEventData } from '#contract/events.ts';
import type { SyncStatus } from '#contract/platforms.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { EventsRepository } from './events.repository.ts';

/** Long enough to open the stream right after asking, short enough that a leaked URL is useless. */
export const TICKET_TTL_MS = 60_000;
/** A tab holds one stream; a few more cover reconnections racing each other. */
const MAX_LIVE_TICKETS_PER_USER = 20;
const TICKET_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

export interface ConnectionSyncState {
  connectionId: number;
  status: SyncStatus;
}

export interface EventsServiceDeps {
  repository: EventsRepository;
  accounts: Pick<AccountsRepository, 'sessionContextById'>;
  /** The user's connections and their sync status (server/modules/sync). */
  syncStates: (userId: number) => Promise<ConnectionSyncState[]>;
  clock: Clock;
}

export function createEventsService({ repository, accounts, syncStates, clock }: EventsServiceDeps) {
  const invalidTicket = () => new AppError('unauthorized', 'This event stream ticket is invalid, expired or used. Ask for a new one.');

  return {
    async issueTicket(auth: { sessionId: string; userId: number }) {
      const now = clock.now();
      await repository.deleteExpiredTickets(now);
      if ((await repository.countLiveTickets(auth.userId, now)) >= MAX_LIVE_TICKETS_PER_USER) {
        throw new AppError('rate_limited', 'Too many event stream tickets. Try again in a minute.', { headers: { 'retry-after': String(TICKET_TTL_MS / 1000) } });
      }
      const ticket = randomToken(32);
      const expiresAt = new Date(now.getTime() + TICKET_TTL_MS);
      await repository.insertTicket({ ticketHash: sha256(ticket), userId: auth.userId, sessionId: auth.sessionId, expiresAt });
      return { ticket, expiresAt };
    },

    /** The session and user a ticket was issued to; the ticket is spent. */
    async redeemTicket(ticket: unknown) {
      if (typeof ticket !== 'string' || !TICKET_PATTERN.test(ticket)) throw invalidTicket();
      const taken = await repository.takeTicket(sha256(ticket), clock.now());
      if (!taken) throw invalidTicket();
      // Signing out deletes the session and, with it, its tickets; this also catches a session ended meanwhile.
      const context = await accounts.sessionContextById(taken.sessionId);
      if (!context || context.user.id !== taken.userId) throw invalidTicket();
      return context;
    },

    /** What `event: sync` says: each connection's status and how many are done. */
    async syncEvent(userId: number): Promise<SyncEventData> {
      const connections = await syncStates(userId);
      const finished = connections.filter((connection) => connection.status === 'idle' || connection.status === 'failed').length;
      return { connections, finished, total: connections.length };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
