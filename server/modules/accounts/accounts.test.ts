import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { emailConfirmationTokens, sessions, users } from '../../db/schema.ts';
import { confirmationLink, confirmationLinkParams } from '../../test/smtp-capture.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
// Every test starts with fresh rate-limit windows.
beforeEach(() => {
  server.clock.advance(2 * 3_600_000);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const unique = () => randomBytes(4).toString('hex');

describe('POST /api/auth/register', () => {
  it('creates an unconfirmed account, answers the user without secrets and emails a confirmation link', async () => {
    const username = `Maya_${unique()}`;
    const email = `${username.toLowerCase()}@example.com`;
    const response = await server.request('POST', '/api/auth/register', {
      body: { username, email, password: 'a long enough passphrase', firstName: 'Maya', lastName: 'Lopez' },
    });
    expect(response.status).toBe(201);
    // What was submitted, waiting for confirmation: nothing a duplicate could not answer too (no id, no dates).
    expect(response.body).toEqual({
      user: { username, email, firstName: 'Maya', lastName: 'Lopez', emailConfirmed: false },
      message: 'Registration successful. Please check your email to confirm your account.',
    });
    expect(JSON.stringify(response.body)).not.toMatch(/argon|hash|passphrase/i);

    const mail = await server.smtp.waitFor((message) => message.to.includes(email));
    expect(mail.subject).toBe('Confirm your email for Analytics Hub');
    expect(mail.html).toContain('Confirm email');
    const link = confirmationLink(mail);
    const { userId, token } = confirmationLinkParams(mail);
    const [stored] = await server.db.select().from(users).where(eq(users.id, userId));
    expect(stored!.username).toBe(username);
    expect(link.startsWith(`${TEST_PUBLIC_URL}/confirm-email?userId=${stored!.id}&token=`)).toBe(true);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);

    expect(stored!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const tokens = await server.db.select().from(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, userId));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenHash).not.toContain(token);
    expect(tokens[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0]!.email).toBe(email);
  });

  it.each([
    [{ email: 'x@example.com', password: 'long enough pass' }, /Username is required/],
    [{ username: 'someone', password: 'long enough pass' }, /Email is required/],
    [{ username: 'someone', email: 'x@example.com' }, /Password is required/],
    [{ username: 'someone', email: 'not-an-email', password: 'long enough pass' }, /valid email/],
    [{ username: 'someone', email: 'x@example.com', password: 'short' }, /at least 8 characters/],
    [{ username: 'someone', email: 'x@example.com', password: 'x'.repeat(1025) }, /at most 1024/],
    [{ username: 'so me!', email: 'x@example.com', password: 'long enough pass' }, /letters, digits/],
    [{ username: 'someone', email: 'x@example.com', password: 'long enough pass', isAdmin: true }, /Unknown field.*isAdmin/],
    [{ username: 'someone', email: 'x@example.com', password: 'Password123' }, /too common/],
  ])('refuses %j with a 400 that says why', async (body, message) => {
    const response = await server.request('POST', '/api/auth/register', { body });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
    expect(response.body.code).toBe('bad_request');
  });

  it('accepts long Unicode passphrases with spaces', async () => {
    const response = await server.request('POST', '/api/auth/register', {
      body: { username: `uni_${unique()}`, email: `uni_${unique()}@example.com`, password: 'ça marche très bien 🚀 '.repeat(5) },
    });
    expect(response.status).toBe(201);
  });

  it('answers 409 for a username already taken, whatever its case (decision 003: an accepted disclosure)', async () => {
    const first = await server.signUp({ confirm: false });
    const sameName = await server.request('POST', '/api/auth/register', {
      body: { username: first.username.toUpperCase(), email: `other_${unique()}@example.com`, password: 'long enough pass' },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body.message).toBe('That username is already taken');
  });

  it('lets exactly one of several concurrent sign-ups for one username win', async () => {
    const username = `race_${unique()}`;
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        server.request('POST', '/api/auth/register', { body: { username, email: `race${index}_${unique()}@example.com`, password: 'long enough pass' } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await server.db.select().from(users).where(sql`lower(${users.username}) = ${username}`);
    expect(rows).toHaveLength(1);
  });
});

describe('email confirmation', () => {
  it('confirms once with the emailed token, and never again', async () => {
    const account = await server.signUp({ confirm: false });
    const params = confirmationLinkParams(await server.smtp.waitFor((mail) => mail.to.includes(account.email)));
    const first = await server.request('POST', '/api/auth/confirm-email', { body: { userId: params.userId, token: params.token } });
    expect(first.status).toBe(200);
    const again = await server.request('POST', '/api/auth/confirm-email', { body: { userId: params.userId, token: params.token } });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/invalid or has expired/);
  });

  it('refuses a token for another user, a token one character off, and an expired token, with one generic message', async () => {
    const alice = await server.signUp({ confirm: false });
    const bob = await server.signUp({ confirm: false });
    const aliceParams = confirmationLinkParams(await server.smtp.waitFor((mail) => mail.to.includes(alice.email)));
    const bobParams = confirmationLinkParams(await server.smtp.waitFor((mail) => mail.to.includes(bob.email)));

    const wrongUser = await server.request('POST', '/api/auth/confirm-email', { body: { userId: bobParams.userId, token: aliceParams.token } });
    const lastCharacter = aliceParams.token.at(-1) === 'A' ? 'B' : 'A';
    const offByOne = await server.request('POST', '/api/auth/confirm-email', {
      body: { userId: aliceParams.userId, token: aliceParams.token.slice(0, -1) + lastCharacter },
    });
    server.clock.advance(49 * HOUR);
    const expired = await server.request('POST', '/api/auth/confirm-email', { body: { userId: bobParams.userId, token: bobParams.token } });
    for (const response of [wrongUser, offByOne, expired]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'This confirmation link is invalid or has expired. Request a new one.', code: 'bad_request' });
    }
  });

  it('validates the body: userId must be an integer', async () => {
    const response = await server.request('POST', '/api/auth/confirm-email', { body: { userId: '12', token: 'abc' } });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/userId/);
  });
});

describe('POST /api/auth/resend-confirmation', () => {
  it('makes the earlier link useless once a new one is sent', async () => {
    const account = await server.signUp({ confirm: false });
    await server.mailer.idle();
    const firstMail = await server.smtp.waitFor((mail) => mail.to.includes(account.email));
    await server.request('POST', '/api/auth/resend-confirmation', { body: { email: account.email } });
    await server.mailer.idle();
    const mails = server.smtp.messages.filter((mail) => mail.to.includes(account.email));
    expect(mails).toHaveLength(2);
    const old = await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(firstMail) });
    expect(old.status).toBe(400);
    const fresh = await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(mails[1]!) });
    expect(fresh.status).toBe(200);
  });

  it('limits requests to 3 a minute per network', async () => {
    const statuses = [];
    for (let index = 0; index < 4; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/resend-confirmation', { body: { email: `n${index}_${unique()}@example.com` } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

// Checklist 4 on a server with a response-time floor of its own (the shared one has none, to keep tests quick). The
// floor's arithmetic is tested with a fake timer in server/lib/response-floor.test.ts; here, that the configured value
// holds for every path over real HTTP.
describe('checklist 4: sign-up and resend enumeration', () => {
  const FLOOR_MS = 150;
  let floored: TestServer;
  beforeAll(async () => {
    floored = await startTestServer({ env: { AUTH_RESPONSE_FLOOR_MS: String(FLOOR_MS) } });
  });
  afterAll(async () => {
    await floored?.close();
  });
  beforeEach(() => {
    floored.clock.advance(2 * HOUR);
  });

  async function timed(method: string, path: string, body: unknown) {
    const started = performance.now();
    const response = await floored.request(method, path, { body });
    return { ...response, ms: performance.now() - started };
  }
  const usersWithEmail = (email: string) => floored.db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  /** The response with its values blanked: what an observer compares besides the echoed input. */
  const shape = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(shape) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)])) : typeof value;
  const mailsTo = (email: string) => floored.smtp.messages.filter((mail) => mail.to.toLowerCase().includes(email.toLowerCase()));

  it('checklist 4: uses the configured floor', () => {
    expect(floored.config.authResponseFloorMs).toBe(FLOOR_MS);
  });

  it('checklist 4: an existing email signs up with the same status, body shape and floor as a new one, creates nothing and mails the owner', async () => {
    const owner = await floored.signUp({ password: 'the owner passphrase' });
    await floored.mailer.idle();
    const mailsBefore = mailsTo(owner.email).length;

    const fresh = { username: `fresh_${unique()}`, email: `fresh_${unique()}@example.com`, password: 'long enough pass' };
    const intruder = { username: `intruder_${unique()}`, email: owner.email.toUpperCase(), password: 'another long pass' };
    const created = await timed('POST', '/api/auth/register', fresh);
    const duplicate = await timed('POST', '/api/auth/register', intruder);

    expect(created.status).toBe(201);
    expect(duplicate.status).toBe(201);
    expect(shape(duplicate.body)).toEqual(shape(created.body));
    expect(duplicate.body).toEqual({
      user: { username: intruder.username, email: intruder.email, firstName: '', lastName: '', emailConfirmed: false },
      message: created.body.message,
    });
    for (const header of ['content-type', 'cache-control', 'www-authenticate']) expect(duplicate.headers.get(header)).toBe(created.headers.get(header));
    for (const response of [created, duplicate]) expect(response.ms).toBeGreaterThanOrEqual(FLOOR_MS);

    // Nothing was created: one account with the address (the owner's), none with the intruder's username.
    expect((await usersWithEmail(owner.email)).map((row) => row.username)).toEqual([owner.username]);
    expect(await floored.db.select().from(users).where(sql`lower(${users.username}) = ${intruder.username.toLowerCase()}`)).toEqual([]);
    expect((await floored.request('POST', '/api/auth/login', { body: { username: intruder.username, password: intruder.password } })).status).toBe(401);
    expect((await floored.request('POST', '/api/auth/login', { body: { username: owner.username, password: 'the owner passphrase' } })).status).toBe(200);

    // The owner is told, with a way in and no confirmation link; the intruder's address (the owner's) gets nothing else.
    const notice = await floored.smtp.waitFor((mail) => mail.to.includes(owner.email) && mail.subject === 'Someone tried to sign up with your email address');
    expect(notice.text).toContain(`sign in with your username ${owner.username}`);
    expect(notice.text).toContain(`${TEST_PUBLIC_URL}/login`);
    expect(notice.text).not.toContain('/confirm-email?');
    await floored.mailer.idle();
    expect(mailsTo(owner.email)).toHaveLength(mailsBefore + 1);
  });

  it('checklist 4: an unconfirmed owner is told the account waits for confirmation, and it stays unconfirmed', async () => {
    const owner = await floored.signUp({ confirm: false });
    await floored.smtp.waitFor((mail) => mail.to.includes(owner.email));
    const duplicate = await floored.request('POST', '/api/auth/register', { body: { username: `squat_${unique()}`, email: owner.email, password: 'long enough pass' } });
    expect(duplicate.status).toBe(201);
    const notice = await floored.smtp.waitFor((mail) => mail.to.includes(owner.email) && mail.subject === 'Someone tried to sign up with your email address');
    expect(notice.text).toContain(`was never confirmed`);
    expect(notice.text).toContain(`${TEST_PUBLIC_URL}/resend-confirmation`);
    expect(notice.text).not.toContain('/confirm-email?');
    const [row] = await usersWithEmail(owner.email);
    expect(row!.emailConfirmedAt).toBeNull();
  });

  it('checklist 4: concurrent sign-ups for one email make one account; every answer is the same 201', async () => {
    const email = `race_${unique()}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, index) => floored.request('POST', '/api/auth/register', { body: { username: `racer${index}_${unique()}`, email, password: 'long enough pass' } })),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(responses.map((response) => JSON.stringify(shape(response.body)))).size).toBe(1);
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it('checklist 4: caps the owner notices at the address mail budget, answering the same past it', async () => {
    const owner = await floored.signUp();
    await floored.mailer.idle();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      statuses.push((await floored.request('POST', '/api/auth/register', { body: { username: `flood${attempt}_${unique()}`, email: owner.email, password: 'long enough pass' } })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201]);
    await floored.mailer.idle();
    expect(mailsTo(owner.email).filter((mail) => mail.subject === 'Someone tried to sign up with your email address')).toHaveLength(5);
  });

  it('checklist 4: resend answers the same 202 body for unknown, unconfirmed and confirmed emails, after the floor, and mails only the unconfirmed one', async () => {
    const waiting = await floored.signUp({ confirm: false });
    const confirmed = await floored.signUp();
    await floored.mailer.idle();
    const before = floored.smtp.messages.length;

    const unknownResponse = await timed('POST', '/api/auth/resend-confirmation', { email: `nobody_${unique()}@example.com` });
    const confirmedResponse = await timed('POST', '/api/auth/resend-confirmation', { email: confirmed.email });
    const waitingResponse = await timed('POST', '/api/auth/resend-confirmation', { email: waiting.email.toUpperCase() });
    for (const response of [unknownResponse, confirmedResponse, waitingResponse]) {
      expect(response.status).toBe(202);
      expect(response.body).toEqual(waitingResponse.body);
      expect(response.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
    await floored.mailer.idle();
    expect(floored.smtp.messages.slice(before).map((mail) => mail.to)).toEqual([waiting.email]);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with username (any case) and returns an opaque token and the user', async () => {
    const account = await server.signUp();
    const response = await server.request('POST', '/api/auth/login', { body: { username: account.username.toUpperCase(), password: account.password } });
    expect(response.status).toBe(200);
    expect(response.body.token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(response.body.user).toMatchObject({ username: account.username, emailConfirmed: true });
    expect(response.body.token).not.toBe(account.token);

    const stored = await server.db.select().from(sessions).where(eq(sessions.userId, account.user.id));
    const dump = JSON.stringify(stored);
    expect(dump).not.toContain(response.body.token.split('.')[1]);
  });

  it('answers 403 with requiresEmailConfirmation only after a correct password', async () => {
    const account = await server.signUp({ confirm: false });
    const wrong = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    const right = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    expect(right.status).toBe(403);
    expect(right.body).toEqual({
      message: 'Please confirm your email address before logging in.',
      code: 'forbidden',
      requiresEmailConfirmation: true,
      email: account.email,
    });
  });

  it('gives unknown users and wrong passwords the same answer', async () => {
    const account = await server.signUp();
    const unknown = await server.request('POST', '/api/auth/login', { body: { username: `ghost_${unique()}`, password: 'whatever password' } });
    const wrong = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'whatever password' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({ message: 'Invalid username or password', code: 'unauthorized' });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses missing fields and over-long passwords with 400, before hashing', async () => {
    expect((await server.request('POST', '/api/auth/login', { body: { username: 'a' } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/login', { body: { username: 'a', password: 'x'.repeat(5000) } })).status).toBe(400);
    const malformed = await server.request('POST', '/api/auth/login', { rawBody: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBeTruthy();
  });

  it('blocks an account after 5 failures in 15 minutes, even for the right password, with a growing delay', async () => {
    const account = await server.signUp();
    const statuses = [];
    for (let index = 0; index < 7; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: `wrong guess ${index}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const blocked = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    expect(blocked.status).toBe(429);
    const firstDelay = Number(blocked.headers.get('retry-after'));
    expect(firstDelay).toBeGreaterThan(0);
    expect(firstDelay).toBeLessThanOrEqual(60);

    // After the block, one more wrong guess blocks again for twice as long.
    server.clock.advance(61_000);
    const probe = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'still wrong' } });
    expect(probe.status).toBe(401);
    const again = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(60);

    server.clock.advance(16 * 60_000);
    const later = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    expect(later.status).toBe(200);
  });

  it('evaluates at most 5 of 30 parallel wrong guesses for one account', async () => {
    const account = await server.signUp();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) => server.request('POST', '/api/auth/login', { body: { username: account.username, password: `parallel ${index}` } })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
  });

  it('limits one network to 20 attempts a minute across usernames, without touching other accounts', async () => {
    const statuses = [];
    for (let index = 0; index < 21; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/login', { body: { username: `spray_${index}_${unique()}`, password: 'Summer2026!' } })).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('sessions', () => {
  it('authenticates /api/auth/me with the bearer token and revokes it on logout', async () => {
    const account = await server.signUp();
    const me = await server.request('GET', '/api/auth/me', { token: account.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: account.user.id,
      username: account.username,
      email: account.email,
      firstName: '',
      lastName: '',
      emailConfirmed: true,
      createdAt: expect.any(String),
    });
    const logout = await server.request('POST', '/api/auth/logout', { token: account.token });
    expect(logout.status).toBe(200);
    const replay = await server.request('GET', '/api/auth/me', { token: account.token });
    expect(replay.status).toBe(401);
  });

  it('keeps other sessions when one logs out', async () => {
    const account = await server.signUp();
    const second = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    await server.request('POST', '/api/auth/logout', { token: account.token });
    expect((await server.request('GET', '/api/auth/me', { token: second.body.token })).status).toBe(200);
  });

  it('expires after 7 idle days', async () => {
    const account = await server.signUp();
    server.clock.advance(6 * DAY);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    server.clock.advance(7 * DAY + 60_000);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('expires 30 days after sign-in however active the session is', async () => {
    const account = await server.signUp();
    for (let day = 0; day < 29; day += 1) {
      server.clock.advance(DAY);
      expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    }
    server.clock.advance(DAY + 60_000);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('answers 401 with WWW-Authenticate for every malformed Authorization header, and ignores tokens in the query', async () => {
    const account = await server.signUp();
    const [id] = account.token!.split('.');
    const headers = [
      undefined,
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${'x'.repeat(10_000)}`,
      `Bearer ${id}.${'A'.repeat(43)}`,
      'Bearer \u00e9\u00e8',
    ];
    for (const authorization of headers) {
      const response = await server.request('GET', '/api/auth/me', { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.body.message).toBe('Authentication required. Please sign in.');
    }
    const queryToken = await server.request('GET', `/api/auth/me?access_token=${account.token}`);
    expect(queryToken.status).toBe(401);
  });
});

describe('the HTTP surface', () => {
  it('answers health and readiness', async () => {
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    const ready = await server.request('GET', '/api/ready');
    expect(ready.status).toBe(200);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await server.request('GET', '/api/nope');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No such API call: GET /api/nope', code: 'not_found' });
  });

  it('sends the security headers on every response', async () => {
    const response = await server.request('GET', '/api/health');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses oversized and non-JSON bodies with a 4xx', async () => {
    const big = await server.request('POST', '/api/auth/login', { rawBody: JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    const text = await server.request('POST', '/api/auth/login', { rawBody: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(text.status).toBe(415);
  });

  it('never writes passwords, session tokens or confirmation tokens to the log', async () => {
    const account = await server.signUp({ password: 'a very distinctive passphrase 42' });
    await server.request('GET', '/confirm-email?userId=1&token=secret-token-in-url');
    const log = server.logLines.join('\n');
    expect(log).not.toContain('a very distinctive passphrase 42');
    expect(log).not.toContain(account.token!.split('.')[1]);
    expect(log).not.toContain('secret-token-in-url');
    expect(log).toContain('"event":"login.succeeded"');
  });
});

describe('migrations', () => {
  const databaseUrl = inject('databaseUrl');
  // Two processes racing to migrate only exists on a shared PostgreSQL; PGlite belongs to one process.
  it.runIf(databaseUrl)('run once when two processes start on an empty database at the same time', async () => {
    const name = `ah_migrate_${unique()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    try {
      const run = () =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { env: { ...process.env, DATABASE_URL: url.toString() }, stdio: 'ignore' });
          child.on('exit', (code) => resolve(code ?? 1));
        });
      expect(await Promise.all([run(), run()])).toEqual([0, 0]);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const applied = await client.query('select count(*)::int as count from drizzle.__drizzle_migrations');
      const journal = (await import('../../db/migrations/meta/_journal.json', { with: { type: 'json' } })).default;
      expect(applied.rows[0].count).toBe(journal.entries.length);
      await client.end();
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

describe('database helpers', () => {
  it('read raw rows the same way on both drivers', async () => {
    const rows = await queryRows<{ one: number }>(server.db, sql`select 1::int as one`);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
