import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { emailConfirmationTokens, sessions, users } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import { confirmationLink, confirmationLinkParams, isConfirmationMailTo } from '../../test/smtp-capture.ts';
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
  it('creates an unconfirmed account, answers the user without secrets and emails a confirmation link (checklist 6: a 256-bit token, only its SHA-256 and the email stored)', async () => {
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

    const mail = await server.smtp.waitFor((message) => isConfirmationMailTo(message, email));
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
    expect(tokens[0]!.tokenHash).toBe(sha256(token));
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

  it('checklist 5: refuses 7 characters and common passwords; accepts 8, 15, 64 and 128 characters, Unicode and spaces; never truncates; refuses over 1 KiB before hashing', async () => {
    const register = (password: string) =>
      server.request('POST', '/api/auth/register', { body: { username: `pw_${unique()}`, email: `pw_${unique()}@example.com`, password } });
    const seven = await register('k3#Lm9q');
    expect(seven.status).toBe(400);
    expect(seven.body.message).toMatch(/at least 8 characters/);
    for (const common of ['iloveyou', 'Password123', 'qwertyuiop', 'analyticshub']) {
      const response = await register(common);
      expect({ common, status: response.status, message: response.body.message }).toEqual({ common, status: 400, message: expect.stringMatching(/too common/) });
    }
    for (const password of ['k3#Lm9q-', 'k3#Lm9q-Xv2!Tz8', 'q'.repeat(60) + 'k3#L', 'Zx9!'.repeat(32), 'ça marche très bien 🚀 '.repeat(5), '   spaces   around  ']) {
      expect({ length: password.length, status: (await register(password)).status }).toEqual({ length: password.length, status: 201 });
    }

    // A 100-character password changed only at character 80 does not sign in (argon2id reads every byte; bcrypt would stop at 72).
    server.clock.advance(2 * HOUR);
    const long = 'a-long-passphrase-'.repeat(6).slice(0, 100);
    const account = await server.signUp({ password: long });
    const [stored] = await server.db.select().from(users).where(eq(users.id, account.user.id));
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const altered = `${long.slice(0, 79)}${long[79] === 'X' ? 'Y' : 'X'}${long.slice(80)}`;
    expect(altered).toHaveLength(100);
    expect((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: altered } })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: long } })).status).toBe(200);

    // Over 1 KiB: 400 from the schema, before any hashing: the sign-in attempts are not even counted against the account.
    for (let index = 0; index < 6; index += 1) {
      const response = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'x'.repeat(1025 + index * 10_000) } });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Password is too long');
    }
    expect((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: 'wrong but short' } })).status).toBe(401);
    const tooLong = await register('x'.repeat(1025));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/at most 1024/);
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
  it('checklist 6: confirms once with the emailed token; opened again, the link says the address is already confirmed', async () => {
    const account = await server.signUp({ confirm: false });
    const params = confirmationLinkParams(await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, account.email)));
    const first = await server.request('POST', '/api/auth/confirm-email', { body: { userId: params.userId, token: params.token } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Your email is confirmed. You can sign in now.', alreadyConfirmed: false });
    const [confirmed] = await server.db.select().from(users).where(eq(users.id, params.userId));
    // Weeks later, past the link's 48 hours: still the same answer, and nothing is confirmed a second time.
    server.clock.advance(30 * DAY);
    const again = await server.request('POST', '/api/auth/confirm-email', { body: { userId: params.userId, token: params.token } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Your email is already confirmed: this link was used before. You can sign in.', alreadyConfirmed: true });
    const [after] = await server.db.select().from(users).where(eq(users.id, params.userId));
    expect(after!.emailConfirmedAt).toEqual(confirmed!.emailConfirmedAt);
    // The used token is kept marked, never as a hash an unused token could match.
    const tokens = await server.db.select().from(emailConfirmationTokens).where(eq(emailConfirmationTokens.userId, params.userId));
    expect(tokens.map((token) => token.tokenHash)).toEqual([`used:${sha256(params.token)}`]);
  });

  it('checklist 6: says "already confirmed" only to the link that confirmed the address: a guessed token, another account’s used link or a link of an address since changed hear the generic answer', async () => {
    const alice = await server.signUp({ confirm: false });
    const bob = await server.signUp({ confirm: false });
    const aliceParams = confirmationLinkParams(await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, alice.email)));
    const bobParams = confirmationLinkParams(await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, bob.email)));
    for (const params of [aliceParams, bobParams]) {
      expect((await server.request('POST', '/api/auth/confirm-email', { body: { userId: params.userId, token: params.token } })).status).toBe(200);
    }
    const lastCharacter = aliceParams.token.at(-1) === 'A' ? 'B' : 'A';
    const answers = [
      await server.request('POST', '/api/auth/confirm-email', { body: { userId: aliceParams.userId, token: aliceParams.token.slice(0, -1) + lastCharacter } }),
      await server.request('POST', '/api/auth/confirm-email', { body: { userId: bobParams.userId, token: aliceParams.token } }),
      await server.request('POST', '/api/auth/confirm-email', { body: { userId: 2_000_000_000, token: aliceParams.token } }),
    ];
    // Bob's address changes: the link that confirmed the old one no longer speaks for the account.
    await server.db.update(users).set({ email: `moved_${unique()}@example.com` }).where(eq(users.id, bobParams.userId));
    answers.push(await server.request('POST', '/api/auth/confirm-email', { body: { userId: bobParams.userId, token: bobParams.token } }));
    for (const response of answers) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'This confirmation link is invalid or has expired. Request a new one.', code: 'bad_request' });
    }
  });

  it('checklist 6: refuses a token for another user, a token one character off, and an expired token, with one generic message', async () => {
    const alice = await server.signUp({ confirm: false });
    const bob = await server.signUp({ confirm: false });
    const aliceParams = confirmationLinkParams(await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, alice.email)));
    const bobParams = confirmationLinkParams(await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, bob.email)));

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

  it('checklist 6: builds the link on PUBLIC_URL whatever Host or X-Forwarded-Host the sign-up came with, and the page it opens sends no Referer', async () => {
    const username = `host_${unique()}`;
    const email = `${username}@example.com`;
    const registered = await server.request('POST', '/api/auth/register', {
      body: { username, email, password: 'a long enough passphrase' },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(registered.status).toBe(201);
    const mail = await server.smtp.waitFor((message) => isConfirmationMailTo(message, email));
    expect(confirmationLink(mail).startsWith(`${TEST_PUBLIC_URL}/confirm-email?`)).toBe(true);
    expect(`${mail.text}${mail.html}`).not.toContain('evil.example');
    const { userId, token } = confirmationLinkParams(mail);
    const page = await server.request('GET', `/confirm-email?userId=${userId}&token=${token}`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('validates the body: userId must be an integer', async () => {
    const response = await server.request('POST', '/api/auth/confirm-email', { body: { userId: '12', token: 'abc' } });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/userId/);
  });
});

describe('POST /api/auth/resend-confirmation', () => {
  it('checklist 6: makes the earlier link useless once a new one is sent', async () => {
    const account = await server.signUp({ confirm: false });
    await server.mailer.idle();
    const firstMail = await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, account.email));
    await server.request('POST', '/api/auth/resend-confirmation', { body: { email: account.email } });
    await server.mailer.idle();
    const mails = server.smtp.messages.filter((mail) => isConfirmationMailTo(mail, account.email));
    expect(mails).toHaveLength(2);
    const old = await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(firstMail) });
    expect(old.status).toBe(400);
    const fresh = await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(mails[1]!) });
    expect(fresh.status).toBe(200);
  });

  it('checklist 7: limits requests to 3 a minute per network', async () => {
    const statuses = [];
    for (let index = 0; index < 4; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/resend-confirmation', { body: { email: `n${index}_${unique()}@example.com` } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('checklist 7: sends at most 5 confirmation emails an hour to one address, however slowly they are asked for', async () => {
    const account = await server.signUp({ confirm: false });
    const statuses = [];
    for (let index = 0; index < 7; index += 1) {
      server.clock.advance(61_000); // a fresh per-network minute each time: only the per-address cap is left
      statuses.push((await server.request('POST', '/api/auth/resend-confirmation', { body: { email: account.email } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    await server.mailer.idle();
    // The sign-up's own email and five resends.
    expect(server.smtp.messages.filter((mail) => isConfirmationMailTo(mail, account.email))).toHaveLength(6);
    server.clock.advance(HOUR);
    expect((await server.request('POST', '/api/auth/resend-confirmation', { body: { email: account.email } })).status).toBe(202);
  });

  it('checklist 7: lets one network sign up 10 accounts an hour, and mails only those', async () => {
    const limit = server.config.registerLimitPerIpPerHour;
    expect(limit).toBe(10);
    const emails = Array.from({ length: limit + 2 }, () => `burst_${unique()}@example.com`);
    const statuses = [];
    for (const email of emails) {
      statuses.push((await server.request('POST', '/api/auth/register', { body: { username: email.split('@')[0], email, password: 'a long enough passphrase' } })).status);
    }
    expect(statuses).toEqual([...Array(limit).fill(201), 429, 429]);
    await server.mailer.idle();
    expect(server.smtp.messages.filter((mail) => emails.some((email) => isConfirmationMailTo(mail, email)))).toHaveLength(limit);
  });

  it('checklist 7: the caps are shared by two server processes on one database', async () => {
    // A second app on the same database, with its own mail server: what a second instance behind the load balancer is.
    const second = await startTestServer({ database: { ...server.database, drop: async () => {} } });
    try {
      const advanceBoth = (ms: number) => {
        server.clock.advance(ms);
        second.clock.set(server.clock.now());
      };
      advanceBoth(0);
      const account = await server.signUp({ confirm: false });
      const instances = [server, second];
      const perAddress = [];
      for (let index = 0; index < 6; index += 1) {
        advanceBoth(61_000);
        perAddress.push((await instances[index % 2]!.request('POST', '/api/auth/resend-confirmation', { body: { email: account.email } })).status);
      }
      expect(perAddress).toEqual([202, 202, 202, 202, 202, 429]);

      advanceBoth(61_000);
      const perNetwork = [];
      for (let index = 0; index < 4; index += 1) {
        perNetwork.push((await instances[index % 2]!.request('POST', '/api/auth/resend-confirmation', { body: { email: `n${index}_${unique()}@example.com` } })).status);
      }
      expect(perNetwork).toEqual([202, 202, 202, 429]);
      await Promise.all([server.mailer.idle(), second.mailer.idle()]);
      const outbox = [...server.smtp.messages, ...second.smtp.messages].filter((mail) => isConfirmationMailTo(mail, account.email));
      expect(outbox).toHaveLength(6);
    } finally {
      await second.close();
    }
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
    await floored.smtp.waitFor((mail) => isConfirmationMailTo(mail, owner.email));
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
  it('checklist 8: signs in with username (any case) and returns a new opaque id.secret token (256-bit secret) that the database holds only as a SHA-256', async () => {
    const account = await server.signUp();
    // The token the client already holds, sent along: the server never adopts a token it did not just make (no fixation).
    const response = await server.request('POST', '/api/auth/login', {
      token: account.token,
      body: { username: account.username.toUpperCase(), password: account.password },
    });
    expect(response.status).toBe(200);
    expect(response.body.token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(response.body.user).toMatchObject({ username: account.username, emailConfirmed: true });
    const [id, secret] = (response.body.token as string).split('.') as [string, string];
    const [oldId, oldSecret] = account.token!.split('.') as [string, string];
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(id).not.toBe(oldId);
    expect(secret).not.toBe(oldSecret);
    // Both sessions live on, each its own.
    expect((await server.request('GET', '/api/auth/me', { token: response.body.token })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);

    // Every session row of every user: no token or secret in any form, only the SHA-256 of each secret.
    const stored = await server.db.select().from(sessions);
    const dump = JSON.stringify(stored);
    for (const value of [response.body.token, secret, account.token!, oldSecret]) expect(dump).not.toContain(value);
    expect(stored.find((row) => row.id === id)!.secretHash).toBe(sha256(secret));
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.secretHash))).toBe(true);

    // The right id with a wrong secret is no session.
    const wrongSecret = await server.request('GET', '/api/auth/me', { token: `${id}.${oldSecret}` });
    expect(wrongSecret.status).toBe(401);
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

  it('checklist 3: an unknown user, a wrong password and an unconfirmed account with a wrong password get the same status, body and headers, in the same time', async () => {
    const confirmed = await server.signUp();
    const unconfirmed = await server.signUp({ confirm: false });
    const ghost = `ghost_${unique()}`;
    const cases = { unknown: ghost, 'wrong password': confirmed.username, 'unconfirmed, wrong password': unconfirmed.username };
    const answers = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as { status: number; body: unknown; headers: Record<string, string>; ms: number }[]]));
    // Two warm-up rounds (the first unknown user also computes the dummy hash), then 30 samples of each, interleaved.
    for (let round = 0; round < 32; round += 1) {
      server.clock.advance(HOUR); // fresh throttle windows: every sample is a first failure
      for (const [name, username] of Object.entries(cases)) {
        const started = performance.now();
        const response = await server.request('POST', '/api/auth/login', { body: { username, password: 'whatever password' } });
        const ms = performance.now() - started;
        const headers: Record<string, string> = {};
        response.headers.forEach((value, header) => {
          if (!['date', 'x-request-id'].includes(header)) headers[header] = value;
        });
        if (round >= 2) answers[name]!.push({ status: response.status, body: response.body, headers, ms });
      }
    }
    const [reference] = answers.unknown!;
    expect(reference).toMatchObject({ status: 401, body: { message: 'Invalid username or password', code: 'unauthorized' } });
    expect(reference!.headers['www-authenticate']).toBe('Bearer');
    for (const [name, samples] of Object.entries(answers)) {
      for (const { status, body, headers } of samples) expect({ name, status, body, headers }).toEqual({ name, status: reference!.status, body: reference!.body, headers: reference!.headers });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const medians = Object.fromEntries(Object.entries(answers).map(([name, samples]) => [name, median(samples.map((sample) => sample.ms))]));
    const tolerance = Math.max(25, 0.2 * Math.min(...Object.values(medians)));
    expect({ medians, spread: Math.max(...Object.values(medians)) - Math.min(...Object.values(medians)) <= tolerance }).toEqual({ medians, spread: true });
  });

  it('refuses missing fields and over-long passwords with 400, before hashing', async () => {
    expect((await server.request('POST', '/api/auth/login', { body: { username: 'a' } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/login', { body: { username: 'a', password: 'x'.repeat(5000) } })).status).toBe(400);
    const malformed = await server.request('POST', '/api/auth/login', { rawBody: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBeTruthy();
  });

  it('checklist 1: blocks an account after 5 failures in 15 minutes, even for the right password, with a growing delay; after it the right password signs in and the count starts afresh', async () => {
    const account = await server.signUp();
    const statuses = [];
    // 18 wrong guesses in the same second from one network (whose own limit, 20 a minute, is not reached: the
    // sign-up's own sign-in, these and the right password make 20).
    for (let index = 0; index < 18; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: `wrong guess ${index}` } })).status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(13).fill(429)]);
    const blocked = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: account.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many failed sign-in attempts. Please wait and try again.');
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
    // The success reset the count: five more failures before the next block.
    const afterReset = [];
    for (let index = 0; index < 6; index += 1) {
      afterReset.push((await server.request('POST', '/api/auth/login', { body: { username: account.username, password: `wrong again ${index}` } })).status);
    }
    expect(afterReset).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('checklist 1: lets a patient guesser, retrying whenever Retry-After allows, have far fewer than 100 passwords checked in an hour', async () => {
    const account = await server.signUp();
    const start = server.clock.now().getTime();
    let evaluated = 0;
    let requests = 0;
    while (server.clock.now().getTime() - start < HOUR) {
      requests += 1;
      const response = await server.request('POST', '/api/auth/login', { body: { username: account.username, password: `patient guess ${requests}` } });
      if (response.status === 401) {
        evaluated += 1;
        server.clock.advance(1000);
      } else {
        expect(response.status).toBe(429);
        server.clock.advance(Number(response.headers.get('retry-after')) * 1000);
      }
    }
    expect(evaluated).toBeGreaterThanOrEqual(5);
    expect(evaluated).toBeLessThanOrEqual(100);
  });

  it('checklist 1: evaluates at most 5 of 50 parallel wrong guesses for one account (an atomic counter)', async () => {
    const account = await server.signUp();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) => server.request('POST', '/api/auth/login', { body: { username: account.username, password: `parallel ${index}` } })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(45);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });

  it('checklist 2: limits one network to 20 attempts a minute across usernames (password spraying)', async () => {
    const statuses = [];
    for (let index = 0; index < 21; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/login', { body: { username: `spray_${index}_${unique()}`, password: 'Summer2026!' } })).status);
    }
    // Each username has a bucket of its own: a shared one (the onRequest pitfall) would answer 429 from the sixth on.
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('checklist 39: under 50 concurrent connections the per-network sign-in limiter admits exactly its 20', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) => server.request('POST', '/api/auth/login', { body: { username: `load_${index}_${unique()}`, password: 'Summer2026!' } })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it('checklist 2: keeps per-account buckets apart: a blocked account leaves another account on the same network untouched', async () => {
    const victim = await server.signUp();
    const neighbour = await server.signUp();
    const statuses = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await server.request('POST', '/api/auth/login', { body: { username: victim.username, password: `wrong ${index}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await server.request('POST', '/api/auth/login', { body: { username: neighbour.username, password: 'not it either' } })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/login', { body: { username: neighbour.username, password: neighbour.password } })).status).toBe(200);
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
      timeZone: null,
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

  it('checklist 10: expires after 7 idle days', async () => {
    const account = await server.signUp();
    server.clock.advance(6 * DAY);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    server.clock.advance(7 * DAY + 60_000);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('checklist 10: expires 30 days after sign-in however active the session is', async () => {
    const account = await server.signUp();
    for (let day = 0; day < 29; day += 1) {
      server.clock.advance(DAY);
      expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    }
    server.clock.advance(DAY + 60_000);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('checklist 10: writes the last use of a session at most once an hour, however often it is used', async () => {
    const account = await server.signUp();
    const [sessionId] = account.token!.split('.');
    const lastUsed = async () => (await server.db.select().from(sessions).where(eq(sessions.id, sessionId!)))[0]!.lastUsedAt.getTime();
    const signedIn = await lastUsed();
    for (let minute = 0; minute < 60; minute += 5) {
      server.clock.advance(5 * 60_000 - 1000);
      expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
      expect(await lastUsed()).toBe(signedIn);
      server.clock.advance(1000);
    }
    server.clock.advance(1000);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    expect(await lastUsed()).toBe(server.clock.now().getTime());
  });

  it('checklist 12: answers 401 with WWW-Authenticate for every malformed Authorization header, never 5xx and never echoing it, and ignores tokens in the query', async () => {
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
      `Bearer ${account.token} ${account.token}`,
      `bearer${account.token}`,
    ];
    for (const authorization of headers) {
      const response = await server.request('GET', '/api/auth/me', { headers: authorization ? { authorization } : {} });
      expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.body).toEqual({ message: 'Authentication required. Please sign in.', code: 'unauthorized' });
    }
    for (const query of [`access_token=${account.token}`, `token=${account.token}`]) {
      const queryToken = await server.request('GET', `/api/auth/me?${query}`);
      expect(queryToken.status).toBe(401);
      expect(JSON.stringify(queryToken.body)).not.toContain(account.token!);
    }
    // (A NUL byte or a second Authorization header is a malformed request: 400, tested in server/plugins/input-hardening.test.ts.)
  });
});

describe('the HTTP surface', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await server.request('GET', '/api/nope');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No such API call: GET /api/nope', code: 'not_found' });
  });

  it('checklist 14: sends the security headers on every response: API, authenticated API, pages and the OAuth callback page', async () => {
    const account = await server.signUp();
    const responses = {
      health: await server.request('GET', '/api/health'),
      me: await server.request('GET', '/api/auth/me', { token: account.token }),
      refused: await server.request('GET', '/api/auth/me'),
      page: await server.request('GET', '/'),
      callbackPage: await server.request('GET', '/auth/youtube/callback?code=abc&state=def'),
    };
    for (const [name, response] of Object.entries(responses)) {
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((directive) => directive.trim().split(/\s+/)).map(([key, ...values]) => [key, values.join(' ')]));
      expect({ name, script: directives['script-src'] }).toEqual({ name, script: "'self'" });
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      expect(directives).toMatchObject({ 'object-src': "'none'", 'base-uri': "'none'", 'frame-ancestors': "'none'" });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      const hsts = /max-age=(\d+)/.exec(response.headers.get('strict-transport-security') ?? '');
      expect(Number(hsts?.[1])).toBeGreaterThanOrEqual(31_536_000);
    }
    for (const name of ['health', 'me', 'refused'] as const) expect(responses[name].headers.get('cache-control')).toBe('no-store');
    expect(responses.me.status).toBe(200);
  });

  it('checklist 14: has no CORS: no origin, listed or not, gets Access-Control-Allow-Origin, and a preflight is not granted', async () => {
    const account = await server.signUp();
    for (const origin of ['https://evil.example', TEST_PUBLIC_URL, 'null']) {
      const simple = await server.request('GET', '/api/auth/me', { token: account.token, headers: { origin } });
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
      expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
      const preflight = await server.request('OPTIONS', '/api/auth/me', {
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status).toBeGreaterThanOrEqual(400);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    }
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
  /** The schema as PostgreSQL describes it, and the migrations table: what must match a single migrating process. */
  async function describeDatabase(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const columns = await client.query(
        `select table_schema, table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
          where table_schema in ('public', 'drizzle') order by 1, 2, 3`,
      );
      const indexes = await client.query(`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1, 2, 3`);
      const constraints = await client.query(
        `select conrelid::regclass::text as on_table, conname, pg_get_constraintdef(oid) as definition from pg_constraint
          where connamespace = 'public'::regnamespace order by 1, 2`,
      );
      const migrations = await client.query('select hash, created_at from drizzle.__drizzle_migrations order by id');
      return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows, migrations: migrations.rows };
    } finally {
      await client.end();
    }
  }

  // Processes racing to migrate only exist on a shared PostgreSQL; PGlite belongs to one process.
  it.runIf(databaseUrl)('checklist 36: run once when three processes start on an empty database at the same time, leaving what one process leaves', async () => {
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
      // Each waits for the advisory lock, then finds nothing left to apply: all three succeed.
      expect(await Promise.all([run(), run(), run()])).toEqual([0, 0, 0]);
      const raced = await describeDatabase(url.toString());
      const journal = (await import('../../db/migrations/meta/_journal.json', { with: { type: 'json' } })).default;
      expect(raced.migrations).toHaveLength(journal.entries.length);
      expect(new Set(raced.migrations.map((row) => row.hash)).size).toBe(journal.entries.length);
      // The run's template database was migrated by one process alone (server/test/global-setup.ts).
      const single = new URL(databaseUrl!);
      single.pathname = `/${inject('postgresTemplate')}`;
      expect(raced).toEqual(await describeDatabase(single.toString()));
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
