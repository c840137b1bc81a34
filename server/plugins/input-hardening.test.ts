// Hostile input and what the logs keep of it, against the real server over HTTP.
import net from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConnections } from '../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { signUpWithAccess } from '../test/platforms.ts';
import { deliverWebhook, signPayload } from '../test/stripe.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { registerErrorHandler } from './error-handler.ts';
import { serializeError } from '../lib/database-errors.ts';
import { stdSerializers } from 'pino';

let server: TestServer;
beforeAll(async () => {
  // Stripe and the platforms too: the 404 and OAuth cases need a subscribed user.
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/** Sends bytes as they are (fetch refuses NUL in headers and merges repeated ones) and reads the whole answer. */
async function rawRequest(head: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.baseUrl);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  const [statusLine = '', ...rest] = answer.split('\r\n');
  return { status: Number(statusLine.split(' ')[1]), body: rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n') };
}

const logEvents = (event: string) =>
  server.logLines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('NUL characters', () => {
  it('checklist 38: a NUL character in a JSON body answers 400 in words, never 500', async () => {
    const bodies: unknown[] = [
      { username: 'creator\u0000', password: 'correct horse battery staple' },
      { username: 'creator', password: 'pass\u0000word-long-enough' },
      { username: 'creator', password: 'correct horse battery staple', ['ke\u0000y']: 'x' },
    ];
    for (const body of bodies) {
      const response = await server.request('POST', '/api/auth/login', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/NUL character/) });
    }
    // The same, written as the JSON escape a client would send, on a registration (which writes to the database).
    const raw = await server.request('POST', '/api/auth/register', {
      rawBody: '{"username":"nul\\u0000user","email":"nul@example.com","password":"correct horse battery staple"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(raw.body.message).toMatch(/field username contains a NUL character/);
  });

  it('checklist 38: a NUL character in the query string or the path answers 400 in words', async () => {
    for (const path of ['/api/health?probe=%00', '/api/oauth/you%00tube/auth-url', '/api/health?a[b]=x%00']) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body.message, path).toMatch(/NUL character/);
    }
  });

  it('checklist 12: a NUL byte in a header, the Authorization header included, answers 400 in words', async () => {
    for (const header of ['X-Probe: a\u0000b', 'Authorization: Bearer abc\u0000def']) {
      const response = await rawRequest(`GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\nConnection: close\r\n\r\n`);
      expect(response.status, header).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/not allowed there \(such as NUL\)/) });
    }
  });

  it('checklist 12: duplicate Authorization header answers 400', async () => {
    const { token } = await server.signUp();
    const response = await rawRequest(
      `GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nauthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ code: 'bad_request', message: 'Send one Authorization header, not several.' });
    expect(response.body).not.toContain(token);
    // One header is still fine.
    expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
  });
});

describe('database errors', () => {
  let database: TestDatabase;
  const lines: string[] = [];
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = Fastify({
      logger: {
        serializers: { err: (error: Error) => serializeError(error, stdSerializers.err) },
        stream: new Writable({
          write(chunk, _encoding, callback) {
            lines.push(String(chunk));
            callback();
          },
        }),
      },
    });
    registerErrorHandler(app);
    const { db } = database.handle;
    // Straight to the database, past the input guard: what a route would hit if a NUL slipped through.
    app.get('/nul-text', async () => db.execute(sql`select ${'secret-parameter\u0000'}::text as value`));
    app.get('/nul-json', async () => db.execute(sql`select ${'{"a":"secret-parameter\\u0000"}'}::jsonb as value`));
    app.get('/division', async () => db.execute(sql`select count(*) / ${0} from users where username = ${'secret-parameter'}`));
    app.get('/logged-elsewhere', async (request) => {
      try {
        await db.execute(sql`select 1 / ${0} from users where username = ${'secret-parameter'}`);
      } catch (error) {
        request.log.error({ err: error }, 'a job failed');
      }
      return { ok: true };
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('checklist 38: PostgreSQL encoding errors (22021, 22P05) answer 400, logged by code and query name without the parameters', async () => {
    for (const path of ['/nul-text', '/nul-json']) {
      const response = await app.inject({ url: path });
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/cannot be stored/) });
    }
    const logged = lines.filter((line) => line.includes('the database refused text')).map((line) => JSON.parse(line) as { db: { code: string; query: string } });
    expect(logged.map((line) => line.db.code).sort()).toEqual(['22021', '22P05'].sort());
    expect(logged[0]!.db.query).toBe('select');
  });

  it('checklist 40: database errors are logged with their code and the query name, never the bound parameters', async () => {
    const response = await app.inject({ url: '/division' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret-parameter');
    expect((await app.inject({ url: '/logged-elsewhere' })).statusCode).toBe(200);
    const errorLines = lines.filter((line) => line.includes('"22012"'));
    expect(errorLines).toHaveLength(2);
    expect(JSON.parse(errorLines[0]!)).toMatchObject({ db: { code: '22012', query: 'select users' } });
    expect(JSON.parse(errorLines[1]!)).toMatchObject({ err: { type: 'DatabaseError', code: '22012', query: 'select users' } });
    expect(lines.join('\n')).not.toContain('secret-parameter');
  });
});

describe('security events', () => {
  it('checklist 40: 401, 403 and a 404 on an id the user does not own are logged as structured security events', async () => {
    await server.request('GET', '/api/auth/me', { token: 'not-a-real-token', headers: { 'x-forwarded-for': '203.0.113.9' } });
    const [unauthenticated] = logEvents('security.auth_failed').filter((event) => event.route === '/api/auth/me');
    expect(unauthenticated).toMatchObject({ outcome: 'denied', status: 401, userId: null, ip: '127.0.0.1', method: 'GET', level: 40 });
    expect(typeof unauthenticated!.time).toBe('number');
    expect(JSON.stringify(unauthenticated)).not.toContain('not-a-real-token');

    const unconfirmed = await server.signUp({ confirm: false });
    const login = await server.request('POST', '/api/auth/login', { body: { username: unconfirmed.username, password: unconfirmed.password } });
    expect(login.status).toBe(403);
    expect(logEvents('security.access_denied').find((event) => event.status === 403)).toMatchObject({ route: '/api/auth/login', ip: '127.0.0.1' });

    // Another user's connection, asked for by id.
    const owner = await signUpWithAccess(server);
    const now = server.clock.now();
    const [foreign] = await server.db
      .insert(platformConnections)
      .values({ userId: owner.user.id, platform: 'instagram', platformUserId: 'owned-by-someone-else', manual: true, connectedAt: now, updatedAt: now })
      .returning({ id: platformConnections.id });
    const intruder = await signUpWithAccess(server);
    const response = await server.request('DELETE', `/api/platformconnections/${foreign!.id}`, { token: intruder.token });
    expect(response.status).toBe(404);
    expect(logEvents('security.access_denied').find((event) => event.status === 404)).toMatchObject({
      userId: intruder.user.id,
      route: '/api/platformconnections/:id',
      method: 'DELETE',
      ip: '127.0.0.1',
    });
  });

  it('checklist 20: a rejected OAuth state is logged as a security event', async () => {
    const { token, user } = await signUpWithAccess(server);
    const response = await server.request('POST', '/api/oauth/youtube/callback', { token, body: { code: 'some-code', state: 'a-state-nobody-issued' } });
    expect(response.status).toBe(400);
    expect(logEvents('security.oauth_state_rejected')).toContainEqual(
      expect.objectContaining({ outcome: 'denied', reason: 'unknown_or_used', userId: user.id, platform: 'youtube' }),
    );
    expect(server.logLines.join('\n')).not.toContain('a-state-nobody-issued');
  });
});

describe('checklist 40: audit events', () => {
  it('checklist 40: every sign-in success and failure, refusal, state rejection and webhook signature failure is a structured event with a UTC time, a user or IP, and an outcome', async () => {
    const account = await server.signUp();
    const { token } = await signUpWithAccess(server);
    server.clock.advance(3_600_000);
    const linesBefore = server.logLines.length;
    const newEvents = (event: string) =>
      server.logLines
        .slice(linesBefore)
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.includes(`"event":"${event}"`))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'not the password' } });
    await server.request('POST', '/api/auth/login', { body: { username: 'nobody_at_all', password: 'not the password' } });
    for (let attempt = 0; attempt < 6; attempt += 1) await server.request('POST', '/api/auth/login', { body: { username: account.username, password: `guess ${attempt}` } });
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.updated', data: { object: {} } });
    await deliverWebhook(server, signPayload(payload, 'whsec_not_the_endpoint_secret'));
    await deliverWebhook(server, { payload });
    await server.request('POST', '/api/oauth/youtube/callback', { token, body: { code: 'some-code', state: 'a-state-nobody-issued' } });

    const expectations: [string, number, Record<string, unknown>][] = [
      ['login.succeeded', 1, { outcome: 'success', userId: account.user.id, ip: '127.0.0.1' }],
      // One wrong password, one unknown user, then four more wrong guesses before the account is blocked (5 in all).
      ['login.failed', 6, { outcome: 'failure', ip: '127.0.0.1' }],
      ['login.rate_limited', 2, { outcome: 'denied', ip: '127.0.0.1', userId: account.user.id }],
      ['stripe.webhook_rejected', 2, { outcome: 'denied', ip: '127.0.0.1' }],
      ['security.oauth_state_rejected', 1, { outcome: 'denied', platform: 'youtube' }],
    ];
    for (const [event, count, fields] of expectations) {
      const found = newEvents(event);
      expect({ event, count: found.length }).toEqual({ event, count });
      for (const line of found) {
        expect(line).toMatchObject({ event, ...fields });
        // pino's time: milliseconds since the epoch, which is UTC.
        expect(typeof line.time).toBe('number');
        expect(Math.abs((line.time as number) - Date.now())).toBeLessThan(120_000);
        expect(line.userId !== undefined || line.ip !== undefined).toBe(true);
      }
    }
  });

  it('checklist 40: a username or path carrying a line break and a JSON log line stays inside its own log line', async () => {
    const forged = '\n{"level":30,"msg":"forged: admin signed in","event":"login.succeeded"}\n';
    const linesBefore = server.logLines.length;
    await server.request('POST', '/api/auth/login', { body: { username: `x${forged}`, password: 'whatever it is' } });
    await server.request('POST', '/api/auth/register', { body: { username: `x${forged}`, email: 'forged@example.com', password: 'a long enough passphrase' } });
    await server.request('GET', `/api/nope/${encodeURIComponent(forged)}`);
    const lines = server.logLines.slice(linesBefore).flatMap((chunk) => chunk.split('\n')).filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed.msg).not.toMatch(/^forged/);
    }
  });
});
