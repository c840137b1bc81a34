// The per-network login limit keys on request.ip, so TRUST_PROXY decides whether X-Forwarded-For can move a
// client into a fresh bucket. The test server is reached from 127.0.0.1: with a proxy trusted, that loopback
// peer plays the reverse proxy, which appends the address it saw as the right-most X-Forwarded-For entry.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const unique = () => randomBytes(4).toString('hex');
/** An address the client makes up: a new one on every call. */
const spoofedAddress = () => [...randomBytes(4)].join('.');

function useServer(env: Record<string, string>) {
  const context = {} as { server: TestServer };
  beforeAll(async () => {
    context.server = await startTestServer({ env });
  });
  afterAll(async () => {
    await context.server.close();
  });
  // Every test starts with fresh rate-limit windows.
  beforeEach(() => {
    context.server.clock.advance(2 * 3_600_000);
  });
  return context;
}

async function failedLogin(server: TestServer, forwardedFor: string) {
  const response = await server.request('POST', '/api/auth/login', {
    body: { username: `spray_${unique()}`, password: 'Summer2026!' },
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return response.status;
}

describe.each([
  { form: 'a hop count', TRUST_PROXY: '1' },
  { form: "the proxy's address", TRUST_PROXY: '127.0.0.1' },
])('behind a reverse proxy (TRUST_PROXY as $form)', ({ TRUST_PROXY }) => {
  const context = useServer({ TRUST_PROXY });

  it('checklist 2: limits a client to 20 attempts a minute however it rotates the X-Forwarded-For entries it writes itself; a user on another network still signs in', async () => {
    const victim = await context.server.signUp();
    const statuses = [];
    for (let index = 0; index < 21; index += 1) {
      statuses.push(await failedLogin(context.server, `${spoofedAddress()}, ${spoofedAddress()}, 203.0.113.7`));
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);

    // Another client, as the proxy reports it, has a bucket of its own: a failure is judged, the right password signs in.
    expect(await failedLogin(context.server, `${spoofedAddress()}, 198.51.100.23`)).toBe(401);
    const signIn = await context.server.request('POST', '/api/auth/login', {
      body: { username: victim.username, password: victim.password },
      headers: { 'x-forwarded-for': '198.51.100.24' },
    });
    expect(signIn.status).toBe(200);
  });

  it('checklist 1: counts failures per account: 20 networks taking turns get the same 5 guesses as one', async () => {
    const account = await context.server.signUp();
    const statuses = [];
    for (let index = 0; index < 20; index += 1) {
      const response = await context.server.request('POST', '/api/auth/login', {
        body: { username: account.username, password: `guess ${index}` },
        headers: { 'x-forwarded-for': `198.51.100.${index + 1}` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    const right = await context.server.request('POST', '/api/auth/login', {
      body: { username: account.username, password: account.password },
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(right.status).toBe(429);
  });
});

describe('without TRUST_PROXY', () => {
  const context = useServer({});

  it('checklist 2: ignores X-Forwarded-For: the socket address is the network, whatever the header says', async () => {
    const statuses = [];
    for (let index = 0; index < 21; index += 1) {
      statuses.push(await failedLogin(context.server, `${spoofedAddress()}, ${spoofedAddress()}`));
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
  });
});
