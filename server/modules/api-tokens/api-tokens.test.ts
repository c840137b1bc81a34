// Personal API tokens (decision 020) over HTTP on a real database: made and revoked with a session, used read-only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_API_TOKENS_PER_USER } from '#contract/api-tokens.ts';
import { apiTokens } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import { concretePath, isWriteMethod, registeredRoutes } from '../../test/routes.ts';
import { grantActiveSubscription } from '../../test/subscriptions.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { API_TOKEN_READABLE_PREFIXES, API_TOKEN_READABLE_ROUTES, apiTokenRefusal } from './api-token-scope.ts';

let server: TestServer;

async function subscribedUser() {
  server.clock.advance(3_600_000); // fresh per-network sign-up windows
  const account = await server.signUp();
  await grantActiveSubscription(server, account.user.id);
  return { session: account.token!, userId: account.user.id as number };
}

async function createToken(session: string, name = 'Reporting script') {
  const created = await server.request('POST', '/api/settings/api-tokens', { token: session, body: { name } });
  expect(created.status).toBe(201);
  return created.body as { token: string; apiToken: { id: number; name: string; prefix: string; lastUsedAt: string | null } };
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('managing personal API tokens', () => {
  it('checklist 8: shows a new token once; the list names it by its prefix and never shows it again; the row holds only its hash', async () => {
    const { session, userId } = await subscribedUser();
    const created = await createToken(session, '  Weekly export  ');
    expect(created.token).toMatch(/^ahp_[A-Za-z0-9_-]{43}$/);
    expect(created.apiToken).toMatchObject({ name: 'Weekly export', prefix: created.token.slice(0, 12), lastUsedAt: null });

    const listed = await server.request('GET', '/api/settings/api-tokens', { token: session });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual([created.apiToken]);
    const secret = created.token.slice(4);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toContain(sha256(created.token));

    const rows = await server.db.select().from(apiTokens).where(eq(apiTokens.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(created.token));
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('refuses a blank or overlong name and unknown fields in words', async () => {
    const { session } = await subscribedUser();
    for (const body of [{ name: '   ' }, { name: 'x'.repeat(61) }, {}, { name: 'ok', scope: 'write' }]) {
      const response = await server.request('POST', '/api/settings/api-tokens', { token: session, body });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.message).toMatch(/\w+ \w+/);
    }
  });

  it(`holds at most ${MAX_API_TOKENS_PER_USER} live tokens per account (409 in words); revoking one makes room`, async () => {
    const { session } = await subscribedUser();
    const made = [];
    for (let index = 0; index < MAX_API_TOKENS_PER_USER; index += 1) made.push(await createToken(session, `Token ${index}`));
    const refused = await server.request('POST', '/api/settings/api-tokens', { token: session, body: { name: 'One too many' } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`${MAX_API_TOKENS_PER_USER} API tokens`);
    expect((await server.request('DELETE', `/api/settings/api-tokens/${made[0]!.apiToken.id}`, { token: session })).status).toBe(200);
    await createToken(session, 'Now it fits');
  });

  it(`keeps the newest ${MAX_API_TOKENS_PER_USER} revoked tokens of an account and no more: making and revoking in a loop does not grow the table`, async () => {
    const { session, userId } = await subscribedUser();
    const revokedIds: number[] = [];
    for (let index = 0; index < MAX_API_TOKENS_PER_USER + 5; index += 1) {
      const made = await createToken(session, `Loop ${index}`);
      server.clock.advance(1_000);
      expect((await server.request('DELETE', `/api/settings/api-tokens/${made.apiToken.id}`, { token: session })).status).toBe(200);
      revokedIds.push(made.apiToken.id);
    }
    const live = await createToken(session, 'Still here');
    const rows = await server.db.select({ id: apiTokens.id, revokedAt: apiTokens.revokedAt }).from(apiTokens).where(eq(apiTokens.userId, userId));
    expect(rows.filter((row) => row.revokedAt !== null).map((row) => row.id).sort((a, b) => a - b)).toEqual(revokedIds.slice(-MAX_API_TOKENS_PER_USER));
    expect(rows.filter((row) => row.revokedAt === null).map((row) => row.id)).toEqual([live.apiToken.id]);
  });

  it("checklist 9: revoking makes the token answer 401 from then on, like an unknown one; checklist 16: another user's token id answers 404 like a missing one", async () => {
    const alice = await subscribedUser();
    const bob = await subscribedUser();
    const alices = await createToken(alice.session);
    expect((await server.request('GET', '/api/analytics/summary', { token: alices.token })).status).toBe(200);

    const missing = await server.request('DELETE', '/api/settings/api-tokens/2000000000', { token: bob.session });
    const others = await server.request('DELETE', `/api/settings/api-tokens/${alices.apiToken.id}`, { token: bob.session });
    expect(missing.status).toBe(404);
    expect(others).toMatchObject({ status: 404, body: missing.body });
    expect((await server.request('GET', '/api/analytics/summary', { token: alices.token })).status).toBe(200);
    expect((await server.request('DELETE', '/api/settings/api-tokens/not-a-number', { token: alice.session })).status).toBe(400);

    expect((await server.request('DELETE', `/api/settings/api-tokens/${alices.apiToken.id}`, { token: alice.session })).status).toBe(200);
    const revoked = await server.request('GET', '/api/analytics/summary', { token: alices.token });
    const unknown = await server.request('GET', '/api/analytics/summary', { token: `ahp_${'A'.repeat(43)}` });
    expect(revoked).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(unknown).toMatchObject({ status: 401, body: revoked.body });
    expect((await server.request('GET', '/api/settings/api-tokens', { token: alice.session })).body.tokens).toEqual([]);
    // Revoked again: already gone.
    expect((await server.request('DELETE', `/api/settings/api-tokens/${alices.apiToken.id}`, { token: alice.session })).status).toBe(404);
  });
});

describe('reading with a personal API token', () => {
  it('reads the analytics summary and the CSV export as its user, and the list shows when it was last used', async () => {
    const { session } = await subscribedUser();
    const { token, apiToken } = await createToken(session);
    // The docs' curl example.
    const summary = await server.request('GET', '/api/analytics/summary?compare=previous', { token });
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual((await server.request('GET', '/api/analytics/summary?compare=previous', { token: session })).body);
    const csv = await server.request('GET', '/api/analytics/export?format=csv', { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const me = await server.request('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    // The post list, as the docs say (it answered 403: only routes under /api/content/ were open; issue 25).
    const posts = await server.request('GET', '/api/content', { token });
    expect(posts.status).toBe(200);
    expect(posts.body).toEqual((await server.request('GET', '/api/content', { token: session })).body);

    const listed = (await server.request('GET', '/api/settings/api-tokens', { token: session })).body.tokens;
    expect(listed).toEqual([{ ...apiToken, lastUsedAt: server.clock.now().toISOString() }]);
  });

  it('writes last use at most once a minute', async () => {
    const { session, userId } = await subscribedUser();
    const { token } = await createToken(session);
    const lastUsed = async () => (await server.db.select().from(apiTokens).where(eq(apiTokens.userId, userId)))[0]!.lastUsedAt?.toISOString();
    const first = server.clock.now().toISOString();
    await server.request('GET', '/api/analytics/summary', { token });
    server.clock.advance(59_000);
    await server.request('GET', '/api/analytics/summary', { token });
    expect(await lastUsed()).toBe(first);
    server.clock.advance(1_000);
    await server.request('GET', '/api/analytics/summary', { token });
    expect(await lastUsed()).toBe(server.clock.now().toISOString());
  });

  it('any write answers 403 read_only_token, and the management calls answer 403 to a token', async () => {
    const { session } = await subscribedUser();
    const { token, apiToken } = await createToken(session);
    for (const [method, url, body] of [
      ['POST', '/api/youtubeanalytics/sync', undefined],
      ['PATCH', '/api/settings/profile', { firstName: 'Mallory', lastName: 'X' }],
      ['DELETE', '/api/settings/sessions', undefined],
      ['POST', '/api/auth/logout', undefined],
      ['PUT', '/api/reports/preferences', {}],
    ] as const) {
      const response = await server.request(method, url, { token, body });
      expect({ method, url, status: response.status, code: response.body.code }).toEqual({ method, url, status: 403, code: 'read_only_token' });
      expect(response.body.message).toContain('read-only');
    }
    for (const [method, url, code] of [
      ['GET', '/api/settings/api-tokens', 'session_required'],
      ['POST', '/api/settings/api-tokens', 'read_only_token'],
      ['DELETE', `/api/settings/api-tokens/${apiToken.id}`, 'read_only_token'],
      ['GET', '/api/settings/sessions', 'session_required'],
      ['GET', '/api/settings/account', 'session_required'],
      ['POST', '/api/events/ticket', 'read_only_token'],
      ['GET', '/api/events/stream', 'session_required'],
      ['GET', '/api/oauth/youtube/auth-url', 'session_required'],
      ['GET', '/api/stripe/subscription-status', 'session_required'],
    ] as const) {
      const response = await server.request(method, url, { token, body: method === 'POST' && url.endsWith('api-tokens') ? { name: 'Another' } : undefined });
      expect({ method, url, status: response.status, code: response.body.code }).toEqual({ method, url, status: 403, code });
    }
    // Nothing was changed by any of it: the token is still the only one, and the profile name unchanged.
    expect((await server.request('GET', '/api/settings/api-tokens', { token: session })).body.tokens).toHaveLength(1);
    expect((await server.request('GET', '/api/settings/account', { token: session })).body.user.firstName).not.toBe('Mallory');
    expect((await server.request('GET', '/api/auth/me', { token: session })).status).toBe(200);
  });

  it('checklist 18: follows the premium rules exactly as a session does: no subscription or trial, 402', async () => {
    server.clock.advance(3_600_000);
    const account = await server.signUp();
    const { token } = await createToken(account.token!);
    const withToken = await server.request('GET', '/api/analytics/summary', { token });
    const withSession = await server.request('GET', '/api/analytics/summary', { token: account.token! });
    expect(withToken.status).toBe(402);
    expect(withToken.body).toEqual(withSession.body);
  });

  it('over every route of the app: a token reads only the routes of its scope, and every write is refused', async () => {
    const { session } = await subscribedUser();
    const { token } = await createToken(session);
    const routes = registeredRoutes(server.app).filter((route) => route.path.startsWith('/api/') && !route.path.startsWith('/api/docs'));
    expect(routes.length).toBeGreaterThan(40);
    let authenticated = 0;
    for (const { method, path } of routes) {
      const url = concretePath(path, { platform: 'youtube' });
      // Routes open to anyone (sign-in, webhooks, health) answer as they would without a token: nothing to decide.
      if ((await server.request(method, url)).status !== 401) continue;
      authenticated += 1;
      const response = await server.request(method, url, { token });
      const refusal = apiTokenRefusal(method, path);
      if (isWriteMethod(method)) expect(refusal).toBe('read_only_token');
      // (A HEAD answer has no body to carry the code.)
      if (refusal) expect({ method, path, status: response.status, code: method === 'HEAD' ? refusal : response.body?.code }).toEqual({ method, path, status: 403, code: refusal });
      else expect({ method, path, refused: [401, 403].includes(response.status) }).toEqual({ method, path, refused: false });
    }
    expect(authenticated).toBeGreaterThan(30);
  });
});

describe('the API docs', () => {
  it('describe the three calls, what a token may read, its refusals and its rate limit as configured', async () => {
    const document = (await server.request('GET', '/api/openapi.json')).body as { info: { description: string }; paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/settings/api-tokens']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/settings/api-tokens/{id}']!)).toEqual(['delete']);
    const { description } = document.info;
    for (const path of [...API_TOKEN_READABLE_ROUTES, ...API_TOKEN_READABLE_PREFIXES]) expect(description).toContain(path);
    expect(description).toContain('read_only_token');
    expect(description).toContain('session_required');
    expect(description).toContain('600 requests per\n10 minutes');
    expect(description).toContain('curl -H "Authorization: Bearer $ANALYTICS_HUB_TOKEN" "https://your-host/api/analytics/summary?compare=previous"');
  });
});

describe('the per-token rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { API_TOKEN_RATE_LIMIT: '5', API_TOKEN_RATE_WINDOW_SECONDS: '600' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 with Retry-After past the limit, for that token only, until its window ends', async () => {
    const account = await limited.signUp();
    await grantActiveSubscription(limited, account.user.id);
    const first = (await limited.request('POST', '/api/settings/api-tokens', { token: account.token!, body: { name: 'Busy' } })).body.token as string;
    const second = (await limited.request('POST', '/api/settings/api-tokens', { token: account.token!, body: { name: 'Quiet' } })).body.token as string;
    for (let index = 0; index < 5; index += 1) expect((await limited.request('GET', '/api/analytics/summary', { token: first })).status).toBe(200);
    const refused = await limited.request('GET', '/api/analytics/summary', { token: first });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/more than 5 requests in 10 minutes/);
    expect(Number(refused.headers.get('retry-after'))).toBe(600);
    expect((await limited.request('GET', '/api/analytics/summary', { token: second })).status).toBe(200);
    // The session of the same user is not limited by its tokens.
    expect((await limited.request('GET', '/api/analytics/summary', { token: account.token! })).status).toBe(200);
    limited.clock.advance(600_000);
    expect((await limited.request('GET', '/api/analytics/summary', { token: first })).status).toBe(200);
  });
});
