// Live updates over real HTTP: stream tickets (single use, expiry, bound to their user and session, behind the
// access gate), the event stream, and events crossing server processes through LISTEN/NOTIFY (two app instances
// on one PostgreSQL database; on PGlite, one instance).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PlatformName } from '#contract/platforms.ts';
import { buildApp } from '../../app.ts';
import { eventStreams, eventStreamTickets } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import { openPostgres } from '../../db/client.ts';
import { type Account, connect, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { REGISTER_LIMIT_PER_IP } from '../../lib/account-limits.ts';
import { TICKET_TTL_MS } from './events.service.ts';
import { MAX_STREAMS_PER_USER } from './event-stream.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

interface StreamEvent {
  event: string;
  data: unknown;
}

/** Opens GET /api/events/stream with a ticket and collects its events; `next(predicate)` waits for a matching one. */
function openStream(baseUrl: string, ticket: string) {
  return openStreamWith(baseUrl, {}, `?ticket=${encodeURIComponent(ticket)}`);
}

/** Opens GET /api/events/stream with these headers (and query) and collects its events. */
async function openStreamWith(baseUrl: string, headers: Record<string, string>, query = '') {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events/stream${query}`, { headers, signal: controller.signal });
  const events: StreamEvent[] = [];
  const raw: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let boundary: number;
          while ((boundary = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            raw.push(block);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event) events.push({ event, data: data ? JSON.parse(data) : undefined });
          }
          for (const wake of [...waiters]) wake();
        }
      } catch {
        // aborted
      }
      ended = true;
      for (const wake of [...waiters]) wake();
    })();
  }
  return {
    response,
    events,
    raw,
    get ended() {
      return ended;
    },
    /**
     * Resolves with the first event (from index `from`) matching; fails after a minute of real time, saying what came
     * instead (a guard against a hang, well inside the test's timeout: a loaded CI machine once took seconds).
     */
    next(predicate: (event: StreamEvent) => boolean, from = 0): Promise<StreamEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (ended) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended without the event; got ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such event within a minute; got ${JSON.stringify(events)}`));
        }, 60_000);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

async function ticketFor(account: { token: string }, target: { request: TestServer['request'] } = server) {
  const response = await target.request('POST', '/api/events/ticket', { token: account.token });
  expect(response.status).toBe(201);
  return response.body as { ticket: string; expiresAt: string; streamUrl: string };
}

/** Each sandbox account links to one user: every test here picks its own platform and account. */
async function connectTo(account: Account, platform: PlatformName, accountIndex: number) {
  const response = await connect(server, account, platform, { account: accountIndex });
  expect(response.status).toBe(200);
  return response.body.id as number;
}

describe('stream tickets', () => {
  it('need a session and premium access, like every premium call', async () => {
    expect((await server.request('POST', '/api/events/ticket')).status).toBe(401);
    const free = await server.signUp();
    const refused = await server.request('POST', '/api/events/ticket', { token: free.token });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ code: 'payment_required' });
  });

  it('open one stream once, and only before they expire', async () => {
    const account = await signUpWithAccess(server);
    const { ticket, expiresAt, streamUrl } = await ticketFor(account);
    expect(streamUrl).toBe(`/api/events/stream?ticket=${ticket}`);
    expect(Date.parse(expiresAt)).toBe(server.clock.now().getTime() + TICKET_TTL_MS);
    // Only its hash is stored.
    const stored = await server.db.select().from(eventStreamTickets).where(eq(eventStreamTickets.userId, account.user.id));
    expect(stored).toEqual([expect.objectContaining({ ticketHash: sha256(ticket) })]);
    expect(JSON.stringify(stored)).not.toContain(ticket);

    const stream = await openStream(server.baseUrl, ticket);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await stream.next((event) => event.event === 'ready');
    expect(stream.raw[0]).toBe('retry: 3000');
    stream.close();

    const again = await openStream(server.baseUrl, ticket);
    expect(again.response.status).toBe(401);
    expect(await again.response.json()).toMatchObject({ code: 'unauthorized' });

    const late = await ticketFor(account);
    server.clock.advance(TICKET_TTL_MS + 1);
    expect((await openStream(server.baseUrl, late.ticket)).response.status).toBe(401);

    expect((await openStream(server.baseUrl, 'not-a-ticket')).response.status).toBe(401);
    const missing = await fetch(`${server.baseUrl}/api/events/stream`);
    expect(missing.status).toBe(401);
    // A client that can send headers may use its bearer session instead of a ticket.
    const withHeader = new AbortController();
    const direct = await fetch(`${server.baseUrl}/api/events/stream`, { headers: { authorization: `Bearer ${account.token}` }, signal: withHeader.signal });
    expect(direct.status).toBe(200);
    withHeader.abort();
  });

  it('are not the only way in: a bearer session opens the stream too (decision 006), a bad one does not', async () => {
    // This file signs up more users than one network may in an hour.
    server.clock.advance(REGISTER_LIMIT_PER_IP.windowMs);
    const account = await signUpWithAccess(server);
    const withBearer = (token: string | undefined) => openStreamWith(server.baseUrl, token === undefined ? {} : { authorization: `Bearer ${token}` });

    const stream = await withBearer(account.token);
    expect(stream.response.status).toBe(200);
    await stream.next((event) => event.event === 'ready');
    // The stream is the session's user's: their sync reaches it.
    const connectionId = await connectTo(account, 'linkedin', 0);
    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
    await stream.next((event) => event.event === 'sync' && JSON.stringify(event.data).includes(`"connectionId":${connectionId}`));
    stream.close();
    await server.sync.drain();

    for (const refused of [await withBearer('not-a-session-token'), await withBearer(''), await withBearer(undefined)]) {
      expect(refused.response.status).toBe(401);
      expect(await refused.response.json()).toMatchObject({ code: 'unauthorized' });
    }
    // The access gate still applies: a valid session without a subscription or trial gets 402, not a stream.
    const free = await server.signUp();
    const unpaid = await withBearer(free.token!);
    expect(unpaid.response.status).toBe(402);
    expect(await unpaid.response.json()).toMatchObject({ code: 'payment_required' });
    // A signed-out session is as bad as a made-up one.
    expect((await server.request('POST', '/api/auth/logout', { token: account.token })).status).toBe(200);
    expect((await withBearer(account.token)).response.status).toBe(401);
  });

  it('die with their session, and a stream only ever carries its own user’s events', async () => {
    const alice = await signUpWithAccess(server);
    const bob = await signUpWithAccess(server);
    const unused = await ticketFor(alice);
    expect((await server.request('POST', '/api/auth/logout', { token: alice.token })).status).toBe(200);
    expect((await openStream(server.baseUrl, unused.ticket)).response.status).toBe(401);

    const carol = await signUpWithAccess(server);
    const carolsStream = await openStream(server.baseUrl, (await ticketFor(carol)).ticket);
    const bobsStream = await openStream(server.baseUrl, (await ticketFor(bob)).ticket);
    await carolsStream.next((event) => event.event === 'ready');
    await bobsStream.next((event) => event.event === 'ready');
    const connectionId = await connectTo(bob, 'tiktok', 1);
    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: bob.token })).status).toBe(202);
    await server.sync.drain();
    await bobsStream.next((event) => event.event === 'analytics-changed');
    // Carol's stream heard nothing of Bob's sync (her later event proves the stream was alive to hear it).
    const carolsConnection = await connectTo(carol, 'tiktok', 2);
    expect((await server.request('POST', `/api/sync/platform/${carolsConnection}`, { token: carol.token })).status).toBe(202);
    const carolsSync = await carolsStream.next((event) => event.event === 'sync');
    expect(carolsSync.data).toMatchObject({ connections: [{ connectionId: carolsConnection, status: 'queued' }], finished: 0, total: 1 });
    expect(JSON.stringify(carolsStream.events)).not.toContain(`"connectionId":${connectionId}`);
    expect(carolsStream.events.filter((event) => event.event === 'analytics-changed')).toEqual([]);
    carolsStream.close();
    bobsStream.close();
  });
});

describe('the event stream', () => {
  it('follows a sync from queued to done, then says the numbers changed', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'tiktok', 0);
    const stream = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
    await stream.next((event) => event.event === 'ready');
    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
    await stream.next((event) => event.event === 'sync' && JSON.stringify(event.data).includes('"queued"'));
    await server.sync.drain();
    const changed = await stream.next((event) => event.event === 'analytics-changed');
    const afterChange = stream.events.indexOf(changed);
    await stream.next((event) => event.event === 'sync' && (event.data as { finished: number }).finished === 1, afterChange - 1);
    expect(stream.events.some((event) => event.event === 'sync' && JSON.stringify(event.data).includes('"running"'))).toBe(true);
    stream.close();
  });

  it('reports a failed sync too', async () => {
    const account = await signUpWithAccess(server);
    const connectionId = await connectTo(account, 'twitter', 0);
    server.platformSandbox!.failNext('twitter', 'metrics', 'malformed_json');
    const stream = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
    await stream.next((event) => event.event === 'ready');
    expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
    await server.sync.drain();
    const failed = await stream.next((event) => event.event === 'sync' && JSON.stringify(event.data).includes('"failed"'));
    expect(failed.data).toMatchObject({ connections: [{ connectionId, status: 'failed' }], finished: 1, total: 1 });
    stream.close();
  });

  it('closes open streams when the server shuts down', async () => {
    const account = await signUpWithAccess(server);
    const second = await startSecondInstance(server);
    const stream = await openStream(second.baseUrl, (await ticketFor(account, second)).ticket);
    await stream.next((event) => event.event === 'ready');
    await second.close();
    await expect(stream.next(() => false)).rejects.toThrow('ended');
    // Shutting down ends no session: the browser comes back, to another process.
    expect(stream.events.map((event) => event.event)).not.toContain('session-ended');
  });
});

/** Another server process on the same database (PostgreSQL), or on PGlite a second listener on the same instance. */
async function startSecondInstance(first: TestServer) {
  const database = first.database.url ? openPostgres(first.database.url, { max: 4 }) : first.database.handle;
  const logStream = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const { app } = await buildApp({ config: first.config, database, clock: first.clock, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    baseUrl,
    async request(method: string, path: string, init: { token?: string } = {}) {
      const response = await fetch(`${baseUrl}${path}`, { method, headers: init.token ? { authorization: `Bearer ${init.token}` } : {} });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async close() {
      await app.close();
      if (database !== first.database.handle) await database.close();
    },
  };
}

describe('across server processes', () => {
  it('a sync finishing in one process reaches a stream opened on another', async () => {
    const second = await startSecondInstance(server);
    try {
      const account = await signUpWithAccess(server);
      const connectionId = await connectTo(account, 'patreon', 0);
      const stream = await openStream(second.baseUrl, (await ticketFor(account, second)).ticket);
      await stream.next((event) => event.event === 'ready');
      expect((await server.request('POST', `/api/sync/platform/${connectionId}`, { token: account.token })).status).toBe(202);
      await server.sync.drain();
      await stream.next((event) => event.event === 'analytics-changed');
      const done = await stream.next((event) => event.event === 'sync' && (event.data as { finished: number }).finished === 1);
      expect(done.data).toMatchObject({ connections: [{ connectionId, status: 'idle' }], total: 1 });
      stream.close();
    } finally {
      await second.close();
    }
  });
});

/** The rows of the user's open streams, as every process counts them. */
const streamRows = (userId: number) => server.db.select().from(eventStreams).where(eq(eventStreams.userId, userId));

async function loginAgain(account: Account) {
  const response = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

describe('a stream ends with its session', () => {
  it('closes when its session signs out', async () => {
    server.clock.advance(REGISTER_LIMIT_PER_IP.windowMs);
    const account = await signUpWithAccess(server);
    const stream = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
    await stream.next((event) => event.event === 'ready');
    expect(await streamRows(account.user.id)).toHaveLength(1);
    expect((await server.request('POST', '/api/auth/logout', { token: account.token })).status).toBe(200);
    await stream.next((event) => event.event === 'session-ended');
    await expect(stream.next(() => false)).rejects.toThrow('ended');
    await vi.waitFor(async () => expect(await streamRows(account.user.id)).toEqual([]));
  });

  it('checklist 9: closes when its session is revoked from another session, on another server process too; other sessions’ streams stay', async () => {
    const account = await signUpWithAccess(server);
    const phone = await loginAgain(account);
    const second = await startSecondInstance(server);
    try {
      const onSecond = await openStream(second.baseUrl, (await ticketFor({ token: phone }, second)).ticket);
      const onFirst = await openStream(server.baseUrl, (await ticketFor({ token: phone })).ticket);
      const kept = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
      for (const stream of [onSecond, onFirst, kept]) await stream.next((event) => event.event === 'ready');

      const phoneSession = phone.split('.')[0]!;
      expect((await server.request('DELETE', `/api/settings/sessions/${phoneSession}`, { token: account.token })).status).toBe(200);
      // Each says so last, so the browser does not come back.
      for (const stream of [onSecond, onFirst]) await stream.next((event) => event.event === 'session-ended');
      await expect(onSecond.next(() => false)).rejects.toThrow('ended');
      await expect(onFirst.next(() => false)).rejects.toThrow('ended');
      expect(kept.ended).toBe(false);
      expect((await streamRows(account.user.id)).map((row) => row.sessionId)).toEqual([account.token.split('.')[0]]);
      // The revoked token gets no new ticket: the web app's retry ends in a 401 and signs that tab out.
      expect((await server.request('POST', '/api/events/ticket', { token: phone })).status).toBe(401);
      kept.close();
    } finally {
      await second.close();
    }
  });

  it('checklist 9: “sign out everywhere else” closes the other sessions’ streams', async () => {
    const account = await signUpWithAccess(server);
    const laptop = await loginAgain(account);
    const other = await openStream(server.baseUrl, (await ticketFor({ token: laptop })).ticket);
    const mine = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
    await other.next((event) => event.event === 'ready');
    await mine.next((event) => event.event === 'ready');
    expect((await server.request('DELETE', '/api/settings/sessions', { token: account.token })).body.signedOutSessions).toBe(1);
    await expect(other.next(() => false)).rejects.toThrow('ended');
    expect(mine.ended).toBe(false);
    mine.close();
  });
});

describe('streams per user', () => {
  it(`refuses the ${MAX_STREAMS_PER_USER + 1}th concurrent stream of a user with a 429 in words, counted across server processes`, async () => {
    server.clock.advance(REGISTER_LIMIT_PER_IP.windowMs);
    const account = await signUpWithAccess(server);
    const stranger = await signUpWithAccess(server);
    const second = await startSecondInstance(server);
    try {
      const open = [];
      for (let index = 0; index < MAX_STREAMS_PER_USER; index += 1) {
        const target = index % 2 === 0 ? server : second;
        const stream = await openStream(target.baseUrl, (await ticketFor(account, target)).ticket);
        await stream.next((event) => event.event === 'ready');
        open.push(stream);
      }
      for (const target of [server, second]) {
        const refused = await openStream(target.baseUrl, (await ticketFor(account, target)).ticket);
        expect(refused.response.status).toBe(429);
        expect(refused.response.headers.get('retry-after')).toBe('15');
        expect(await refused.response.json()).toEqual({
          code: 'rate_limited',
          message: `Your account already has ${MAX_STREAMS_PER_USER} live update connections open, the most it may have. Close a tab or window with Analytics Hub, and this one reconnects by itself.`,
        });
      }
      // Another user is not affected.
      const strangers = await openStream(second.baseUrl, (await ticketFor(stranger, second)).ticket);
      expect(strangers.response.status).toBe(200);
      strangers.close();

      // A tab closes: its row goes, and the next stream is accepted.
      open.shift()!.close();
      await vi.waitFor(async () => expect(await streamRows(account.user.id)).toHaveLength(MAX_STREAMS_PER_USER - 1));
      const next = await openStream(second.baseUrl, (await ticketFor(account, second)).ticket);
      expect(next.response.status).toBe(200);
      for (const stream of [...open, next]) stream.close();
    } finally {
      await second.close();
    }
  });

  it('does not count the rows a crashed process left behind (not seen for three heartbeats)', async () => {
    const account = await signUpWithAccess(server);
    const sessionId = account.token.split('.')[0]!;
    const long = new Date(server.clock.now().getTime() - 60 * 60_000);
    await server.db.insert(eventStreams).values(
      Array.from({ length: MAX_STREAMS_PER_USER }, (_, index) => ({ id: `left-by-a-dead-process-${index}`, userId: account.user.id, sessionId, openedAt: long, seenAt: long })),
    );
    const stream = await openStream(server.baseUrl, (await ticketFor(account)).ticket);
    expect(stream.response.status).toBe(200);
    await stream.next((event) => event.event === 'ready');
    expect((await streamRows(account.user.id)).map((row) => row.id)).not.toContain('left-by-a-dead-process-0');
    stream.close();
  });
});
