// "Forgot password?" (issue 25) over real HTTP: POST /api/auth/password-reset answers the same for every address,
// after the response floor, within the mail budgets, and mails a single-use link valid an hour (only its SHA-256
// stored); POST /api/auth/password-reset/confirm sets a password under sign-up's rules and ends every session.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordResetTokens, sessions, users } from '../../db/schema.ts';
import { sha256 } from '../../lib/secure-random.ts';
import type { CapturedMail } from '../../test/smtp-capture.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { PASSWORD_RESET_ACCEPTED, PASSWORD_RESET_INVALID } from './password-reset.ts';

const HOUR = 3_600_000;
const FLOOR_MS = 150;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_RESPONSE_FLOOR_MS: String(FLOOR_MS) } });
});
afterAll(async () => {
  await server?.close();
});
// Fresh mail budgets for every test.
beforeEach(() => {
  server.clock.advance(2 * HOUR);
});

function resetLink(mail: CapturedMail): { link: string; userId: number; token: string } {
  const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('No reset link in the email');
  const url = new URL(link);
  return { link, userId: Number(url.searchParams.get('userId')), token: url.searchParams.get('token') ?? '' };
}

async function requestReset(email: string) {
  const started = performance.now();
  const response = await server.request('POST', '/api/auth/password-reset', { body: { email } });
  return { ...response, ms: performance.now() - started };
}

async function mailedLink(email: string) {
  await server.mailer.idle();
  const mail = server.smtp.messages.filter((message) => message.to.includes(email) && message.subject === 'Reset your Analytics Hub password').at(-1);
  if (!mail) throw new Error(`no reset mail to ${email}`);
  return { mail, ...resetLink(mail) };
}

const signIn = (username: string, password: string) => server.request('POST', '/api/auth/login', { body: { username, password } });

describe('POST /api/auth/password-reset', () => {
  it('answers the same 202 for a known, an unknown and a differently cased address, after the floor, and mails only the account', async () => {
    const account = await server.signUp();
    await server.mailer.idle();
    const before = server.smtp.messages.length;
    const unknown = await requestReset(`nobody_${Date.now()}@example.com`);
    const known = await requestReset(account.email.toUpperCase());
    for (const response of [unknown, known]) {
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: PASSWORD_RESET_ACCEPTED });
      expect(response.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
    await server.mailer.idle();
    const sent = server.smtp.messages.slice(before).filter((mail) => mail.subject === 'Reset your Analytics Hub password');
    expect(sent.map((mail) => mail.to)).toEqual([account.email]);
    const { link, userId, token } = resetLink(sent[0]!);
    expect(sent[0]!.text).toContain(account.username);
    expect(sent[0]!.text).toContain('expires in 60 minutes');
    expect(link.startsWith(`${TEST_PUBLIC_URL}/reset-password?userId=${userId}&token=`)).toBe(true);
    // A 256-bit token; the database holds its SHA-256 and the address it went to, never the token.
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    const [stored] = await server.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    expect(stored).toMatchObject({ tokenHash: sha256(token), email: account.email });
    expect(stored!.expiresAt.getTime() - server.clock.now().getTime()).toBe(HOUR);
    expect(server.logLines.join('\n')).not.toContain(token);
  });

  it('refuses a malformed address with a message, and stops mailing past the address budget with the same 429 for any address', async () => {
    const bad = await server.request('POST', '/api/auth/password-reset', { body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/valid email/);
    const account = await server.signUp();
    await server.mailer.idle();
    const before = server.smtp.messages.length;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      // Under the per-network budget (3 a minute): a minute apart.
      server.clock.advance(61_000);
      statuses.push((await server.request('POST', '/api/auth/password-reset', { body: { email: account.email } })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    await server.mailer.idle();
    expect(server.smtp.messages.slice(before).filter((mail) => mail.to.includes(account.email) && mail.subject === 'Reset your Analytics Hub password')).toHaveLength(5);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  it('sets the new password, ends every session, works once, and the old password no longer signs in', async () => {
    const account = await server.signUp();
    const other = await signIn(account.username, account.password);
    expect(other.status).toBe(200);
    await requestReset(account.email);
    const { userId, token } = await mailedLink(account.email);

    const done = await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'a brand new passphrase' } });
    expect(done.status).toBe(200);
    expect(done.body.message).toMatch(/Sign in with the new password/);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    for (const token of [account.token, other.body.token]) expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await signIn(account.username, account.password)).status).toBe(401);
    expect((await signIn(account.username, 'a brand new passphrase')).status).toBe(200);

    // Single use.
    const again = await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'yet another passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(PASSWORD_RESET_INVALID);
    await server.mailer.idle();
    expect(server.smtp.messages.filter((mail) => mail.to.includes(account.email)).map((mail) => mail.subject)).toContain('Your Analytics Hub password was reset');
  });

  it('refuses an expired link, a replaced one, another account’s, and one sent to an address the account no longer has', async () => {
    const account = await server.signUp();
    await requestReset(account.email);
    const first = await mailedLink(account.email);
    server.clock.advance(61_000);
    await requestReset(account.email);
    const second = await mailedLink(account.email);
    expect(second.token).not.toBe(first.token);
    const confirm = (userId: number, token: string) => server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'a brand new passphrase' } });
    // Only the newest link works.
    expect((await confirm(first.userId, first.token)).status).toBe(400);
    // Another account's id with this token.
    const stranger = await server.signUp();
    expect((await confirm(stranger.user.id, second.token)).status).toBe(400);
    // Past the hour (the failed attempt above spent nothing: the newest link is still stored).
    server.clock.advance(HOUR + 1_000);
    const expired = await confirm(second.userId, second.token);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(PASSWORD_RESET_INVALID);
    expect((await signIn(account.username, account.password)).status).toBe(200);

    // Sent to the old address, then the account's address changed: the link is void.
    await requestReset(account.email);
    const beforeChange = await mailedLink(account.email);
    await server.db.update(users).set({ email: `changed_${account.email}` }).where(eq(users.id, beforeChange.userId));
    expect((await confirm(beforeChange.userId, beforeChange.token)).status).toBe(400);
  });

  it('holds sign-up’s password rules, says what is wrong, and spends no link on a refused password', async () => {
    const account = await server.signUp();
    await requestReset(account.email);
    const { userId, token } = await mailedLink(account.email);
    const tooShort = await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'short' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toMatch(/at least 8 characters/);
    const common = await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'Password123!' } });
    expect(common.status).toBe(400);
    expect(common.body.message).toMatch(/too common/);
    const missing = await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, password: 'a brand new passphrase' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/Token is required/);
    expect((await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId, token, password: 'a brand new passphrase' } })).status).toBe(200);
  });

  it('lets an account locked out by failed sign-ins in at once, and confirms an address never confirmed', async () => {
    const locked = await server.signUp();
    for (let attempt = 0; attempt < 6; attempt += 1) await signIn(locked.username, 'wrong password here');
    expect((await signIn(locked.username, locked.password)).status).toBe(429);
    await requestReset(locked.email);
    const link = await mailedLink(locked.email);
    expect((await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId: link.userId, token: link.token, password: 'a brand new passphrase' } })).status).toBe(200);
    expect((await signIn(locked.username, 'a brand new passphrase')).status).toBe(200);

    const unconfirmed = await server.signUp({ confirm: false });
    server.clock.advance(61_000);
    await requestReset(unconfirmed.email);
    const unconfirmedLink = await mailedLink(unconfirmed.email);
    expect((await server.request('POST', '/api/auth/password-reset/confirm', { body: { userId: unconfirmedLink.userId, token: unconfirmedLink.token, password: 'a brand new passphrase' } })).status).toBe(200);
    expect((await signIn(unconfirmed.username, 'a brand new passphrase')).status).toBe(200);
  });
});
