// Checklist 37, health and readiness: liveness never asks the database; readiness answers 503 within about a second
// while the database is down or hangs, or a migration is pending, and 200 once it is back; neither is rate-limited or
// says what runs behind it.
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, queryRows } from '../../db/client.ts';
import { createTestDatabase } from '../../test/databases.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

/** Times a request, in milliseconds. */
async function timed(server: TestServer, path: string) {
  const started = performance.now();
  const response = await server.request('GET', path);
  return { ...response, ms: performance.now() - started };
}

function expectNothingRevealed(response: { body: unknown; headers: Headers }) {
  const text = JSON.stringify(response.body);
  expect(text).not.toMatch(/version|postgres|pglite|node|fastify|\d+\.\d+\.\d+|database_url|127\.0\.0\.1/i);
  expect(response.headers.get('server')).toBeNull();
  expect(response.headers.get('x-powered-by')).toBeNull();
}

describe('checklist 37: health and readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('checklist 37: a pending migration makes readiness 503 while liveness stays 200; applying it makes it 200 again', async () => {
    expect((await server.request('GET', '/api/ready')).status).toBe(200);
    const [last] = await queryRows<{ id: number; hash: string; created_at: string }>(server.db, sql`select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1`);
    await server.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    try {
      const ready = await server.request('GET', '/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', message: 'The database is not ready', code: 'unavailable' });
      expectNothingRevealed(ready);
      expect((await server.request('GET', '/api/health')).status).toBe(200);
    } finally {
      await server.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    }
    expect((await server.request('GET', '/api/ready')).status).toBe(200);
  });

  it('checklist 37: neither endpoint is rate-limited, and neither says what runs behind it', async () => {
    const responses = await Promise.all(Array.from({ length: 60 }, (_, index) => server.request('GET', index % 2 ? '/api/health' : '/api/ready')));
    expect(responses.map((response) => response.status)).toEqual(Array(60).fill(200));
    expect(responses[0]!.body).toEqual({ status: 'ready' });
    expect(responses[1]!.body).toEqual({ status: 'ok' });
    for (const response of responses.slice(0, 2)) expectNothingRevealed(response);
  });
});

/**
 * A TCP relay in front of PostgreSQL that a test can take down: `refuse` drops every connection and refuses new ones
 * (a stopped server), `hang` accepts and never answers (a server that does not respond), `up` relays again. Every
 * change drops the connections open at the time.
 */
async function startDatabaseRelay(target: { host: string; port: number }) {
  let mode: 'up' | 'refuse' | 'hang' = 'up';
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'refuse') return client.destroy();
    if (mode === 'hang') return;
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address() as net.AddressInfo;
  return {
    port: address.port,
    set(next: 'up' | 'refuse' | 'hang') {
      mode = next;
      // Also when coming back up: a connection held open while hanging would otherwise wait for its timeout.
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

// Taking the database away needs one reached over the network; PGlite lives inside the process.
describe.runIf(inject('databaseUrl'))('checklist 37: while PostgreSQL is away', () => {
  let server: TestServer;
  let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const direct = new URL(database.url!);
    relay = await startDatabaseRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const relayed = new URL(direct);
    relayed.port = String(relay.port);
    const handle = openPostgres(relayed.toString(), { max: 4 });
    server = await startTestServer({
      database: {
        handle,
        url: relayed.toString(),
        async drop() {
          await handle.close().catch(() => {});
          await database.drop();
        },
      },
    });
  });
  afterAll(async () => {
    relay?.set('up');
    await server?.close();
    await relay?.close();
  });

  it('checklist 37: readiness answers 503 within about a second while the database is stopped or hangs, liveness 200 throughout without asking it, and readiness 200 once it is back', async () => {
    expect((await timed(server, '/api/ready')).status).toBe(200);
    for (const mode of ['refuse', 'hang'] as const) {
      relay.set(mode);
      const ready = await timed(server, '/api/ready');
      expect({ mode, status: ready.status }).toEqual({ mode, status: 503 });
      // About a second of the process's own time; what it guards against is a probe held for the pool's 5 s connection
      // timeout, or for ever while the database hangs (on a loaded machine the second can stretch, so the bound is 4 s).
      expect(ready.ms).toBeLessThan(4_000);
      expectNothingRevealed(ready);
      // While the database hangs, anything that asked it would hang too: liveness answers at once.
      const live = await timed(server, '/api/health');
      expect({ mode, status: live.status, body: live.body }).toEqual({ mode, status: 200, body: { status: 'ok' } });
      expect(live.ms).toBeLessThan(500);
      relay.set('up');
      // The pool replaces the connections it lost; the first check after the outage may still meet a dead one.
      let back = await timed(server, '/api/ready');
      for (let attempt = 0; back.status !== 200 && attempt < 5; attempt += 1) back = await timed(server, '/api/ready');
      expect({ mode, status: back.status }).toEqual({ mode, status: 200 });
    }
  });
});
