// The account settings calls end to end: the real server and database, mail to a real SMTP server, Stripe and the
// platforms through their sandboxes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import type { CapturedMail } from '../../test/smtp-capture.ts';
import { FAILING_CARD, sandboxOf, stripeClient, submitHostedForm } from '../../test/stripe.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

function emailChangeLink(mail: CapturedMail) {
  const link = /https?:\/\/\S+\/confirm-email-change\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no email change link in the mail');
  const url = new URL(link);
  return { link, userId: Number(url.searchParams.get('userId')), token: url.searchParams.get('token') ?? '' };
}

async function login(username: string, password: string, userAgent?: string) {
  const response = await server.request('POST', '/api/auth/login', { body: { username, password }, headers: userAgent ? { 'user-agent': userAgent } : {} });
  return response;
}

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const sessionIdOf = (token: string) => token.split('.')[0]!;

describe('profile', () => {
  it('saves the first and last name, refuses bad input with a message, and needs a session', async () => {
    const account = await server.signUp();
    const saved = await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { firstName: '  Ada ', lastName: 'Lovelace' } });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: account.email });
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });

    const tooLong = await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { firstName: 'x'.repeat(101), lastName: '' } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/at most 100/);
    const extra = await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { firstName: 'A', lastName: 'B', email: 'x@example.com' } });
    expect(extra.status).toBe(400);
    expect((await server.request('PATCH', '/api/settings/profile', { body: { firstName: 'A', lastName: 'B' } })).status).toBe(401);
  });

  it('is open to users without a subscription (account management is never paywalled)', async () => {
    const account = await server.signUp();
    expect((await server.request('GET', '/api/stripe/subscription-status', { token: account.token })).body.hasValidAccess).toBe(false);
    const settings = await server.request('GET', '/api/settings/account', { token: account.token });
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({ user: expect.objectContaining({ username: account.username }), pendingEmail: null, timeZone: null, displayCurrency: 'USD' });
    // Report preferences are premium.
    expect((await server.request('GET', '/api/reports/preferences', { token: account.token })).status).toBe(402);
  });
});

describe('email change', () => {
  it('changes the email only when the link sent to the new address is opened, and tells the old address', async () => {
    const account = await server.signUp();
    const newEmail = `new_${account.email}`;
    const requested = await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail, currentPassword: account.password } });
    expect(requested.status).toBe(202);
    expect(requested.body.pendingEmail).toBe(newEmail);

    const confirmation = await server.smtp.waitFor((mail) => mail.to.includes(newEmail));
    const { link, userId, token } = emailChangeLink(confirmation);
    expect(link.startsWith(`${TEST_PUBLIC_URL}/confirm-email-change?`)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const notice = await server.smtp.waitFor((mail) => mail.to.includes(account.email) && /about to change/.test(mail.subject));
    expect(notice.text).toContain(newEmail);

    // Nothing changed yet.
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body.email).toBe(account.email);
    expect((await server.request('GET', '/api/settings/account', { token: account.token })).body.pendingEmail).toBe(newEmail);
    // Only the hash is stored.
    const stored = await queryRows<{ token_hash: string }>(server.db, sql`select token_hash from pending_email_changes where user_id = ${userId}`);
    expect(stored[0]!.token_hash).not.toContain(token);

    // A wrong token for this user, or this token for another user, is refused.
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId, token: 'A'.repeat(43) } })).status).toBe(400);
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId: userId + 100_000, token } })).status).toBe(400);

    const confirmed = await server.request('POST', '/api/settings/email/confirm', { body: { userId, token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: 'Your new email address is confirmed. Every device was signed out: sign in again.', email: newEmail });
    // Checklist 11: the change ends every session; the account is reached again by signing in.
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
    const again = (await login(newEmail, account.password)).body.token as string;
    expect((await server.request('GET', '/api/auth/me', { token: again })).body).toMatchObject({ email: newEmail, emailConfirmed: true });
    const done = await server.smtp.waitFor((mail) => mail.to.includes(account.email) && /was changed/.test(mail.subject));
    expect(done.text).toContain(newEmail);

    // Single use.
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId, token } })).status).toBe(400);
    // Signing in with the new address works.
    expect((await login(newEmail, account.password)).status).toBe(200);
  });

  it('needs the current password, refuses an address another account has (409), and expires', async () => {
    const account = await server.signUp();
    const other = await server.signUp();
    const wrong = await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail: `x_${account.email}`, currentPassword: 'not my password' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toMatch(/current password/);
    const taken = await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail: other.email.toUpperCase(), currentPassword: account.password } });
    expect(taken.status).toBe(409);
    const invalid = await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail: 'not-an-email', currentPassword: account.password } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/valid email/);

    const newEmail = `later_${account.email}`;
    expect((await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail, currentPassword: account.password } })).status).toBe(202);
    const { userId, token } = emailChangeLink(await server.smtp.waitFor((mail) => mail.to.includes(newEmail)));
    server.clock.advance(25 * 3_600_000);
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId, token } })).status).toBe(400);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body.email).toBe(account.email);
  });

  it('refuses the change with 409 when someone registered the address before the link was opened', async () => {
    const account = await server.signUp();
    const newEmail = `race_${account.email}`;
    await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail, currentPassword: account.password } });
    const { userId, token } = emailChangeLink(await server.smtp.waitFor((mail) => mail.to.includes(newEmail) && /new email/.test(mail.subject)));
    await server.signUp({ email: newEmail, confirm: false });
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId, token } })).status).toBe(409);
  });
});

describe('password change', () => {
  it('checklist 11: needs the current password (400 without it, 403 when wrong), applies the registration rules, signs out every other session and tells the user', async () => {
    const account = await server.signUp();
    const other = (await login(account.username, account.password)).body.token as string;
    expect((await server.request('GET', '/api/auth/me', { token: other })).status).toBe(200);

    const without = await server.request('POST', '/api/settings/password', { token: account.token, body: { newPassword: 'a brand new passphrase' } });
    expect(without.status).toBe(400);
    expect(without.body.code).toBe('bad_request');

    const wrong = await server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: 'wrong password', newPassword: 'a brand new passphrase' } });
    expect(wrong.status).toBe(403);
    const short = await server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: account.password, newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/at least 8/);
    const common = await server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: account.password, newPassword: 'password123' } });
    expect(common.status).toBe(400);
    expect(common.body.message).toMatch(/too common/);

    const changed = await server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: account.password, newPassword: 'a brand new passphrase' } });
    expect(changed.status).toBe(200);
    expect(changed.body.signedOutSessions).toBe(1);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: other })).status).toBe(401);
    expect((await login(account.username, account.password)).status).toBe(401);
    expect((await login(account.username, 'a brand new passphrase')).status).toBe(200);
    await server.smtp.waitFor((mail) => mail.to.includes(account.email) && /password was changed/.test(mail.subject));
  });

  it('checklist 11: drops a pending email change, so a change started from a stolen session cannot complete', async () => {
    const account = await server.signUp();
    const thief = (await login(account.username, account.password)).body.token as string;
    const newEmail = `thief_${account.email}`;
    expect((await server.request('POST', '/api/settings/email', { token: thief, body: { newEmail, currentPassword: account.password } })).status).toBe(202);
    const { userId, token } = emailChangeLink(await server.smtp.waitFor((mail) => mail.to.includes(newEmail)));

    const changed = await server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: account.password, newPassword: 'taken back passphrase' } });
    expect(changed.status).toBe(200);
    expect((await server.request('GET', '/api/settings/account', { token: account.token })).body.pendingEmail).toBeNull();
    expect((await server.request('POST', '/api/settings/email/confirm', { body: { userId, token } })).status).toBe(400);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).body.email).toBe(account.email);
  });

  it('throttles wrong current passwords per account', async () => {
    const account = await server.signUp();
    const attempt = () => server.request('POST', '/api/settings/password', { token: account.token, body: { currentPassword: 'guess', newPassword: 'another passphrase' } });
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses[5]).toBe(429);
  });
});

describe('sessions', () => {
  it('checklist 9: lists the account’s live sessions, the current one first, with device and dates, and no one else’s', async () => {
    const account = await server.signUp();
    const other = await server.signUp();
    server.clock.advance(2 * 3_600_000);
    const laptop = (await login(account.username, account.password, FIREFOX_ON_WINDOWS)).body.token as string;
    server.clock.advance(60_000);
    const phone = (await login(account.username, account.password, SAFARI_ON_IPHONE)).body.token as string;

    const listed = await server.request('GET', '/api/settings/sessions', { token: phone });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toEqual([
      { id: sessionIdOf(phone), device: 'Safari on iPhone', current: true, createdAt: server.clock.now().toISOString(), lastUsedAt: server.clock.now().toISOString() },
      { id: sessionIdOf(laptop), device: 'Firefox on Windows', current: false, createdAt: expect.any(String), lastUsedAt: expect.any(String) },
      { id: sessionIdOf(account.token!), device: expect.any(String), current: false, createdAt: expect.any(String), lastUsedAt: expect.any(String) },
    ]);
    // Ids only: never a secret or its hash.
    expect(JSON.stringify(listed.body)).not.toContain(phone.split('.')[1]);
    expect(JSON.stringify(listed.body)).not.toContain(sessionIdOf(other.token!));
    expect((await server.request('GET', '/api/settings/sessions')).status).toBe(401);
  });

  it('checklist 9: ending one session makes its token answer 401 on replay; the others keep working', async () => {
    const account = await server.signUp();
    const laptop = (await login(account.username, account.password, FIREFOX_ON_WINDOWS)).body.token as string;
    const ended = await server.request('DELETE', `/api/settings/sessions/${sessionIdOf(laptop)}`, { token: account.token });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ message: 'That device is signed out.' });
    expect((await server.request('GET', '/api/auth/me', { token: laptop })).status).toBe(401);
    expect((await server.request('GET', '/api/settings/sessions', { token: laptop })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    const listed = await server.request('GET', '/api/settings/sessions', { token: account.token });
    expect(listed.body.sessions.map((session: { id: string }) => session.id)).toEqual([sessionIdOf(account.token!)]);
    // Ended already, or never this account's: the same 404.
    const again = await server.request('DELETE', `/api/settings/sessions/${sessionIdOf(laptop)}`, { token: account.token });
    expect(again.status).toBe(404);
    const stranger = await server.signUp();
    const foreign = await server.request('DELETE', `/api/settings/sessions/${sessionIdOf(stranger.token!)}`, { token: account.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(again.body);
    expect((await server.request('GET', '/api/auth/me', { token: stranger.token })).status).toBe(200);
    expect((await server.request('DELETE', '/api/settings/sessions/not-a-session-id', { token: account.token })).status).toBe(400);
  });

  it('checklist 9: ending the current session is signing out', async () => {
    const account = await server.signUp();
    const ended = await server.request('DELETE', `/api/settings/sessions/${sessionIdOf(account.token!)}`, { token: account.token });
    expect(ended.body).toEqual({ message: 'You are signed out on this device.' });
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('checklist 9: sign out everywhere else ends every other session and keeps this one', async () => {
    const account = await server.signUp();
    const others = [
      (await login(account.username, account.password, FIREFOX_ON_WINDOWS)).body.token as string,
      (await login(account.username, account.password, SAFARI_ON_IPHONE)).body.token as string,
    ];
    const stranger = await server.signUp();
    const ended = await server.request('DELETE', '/api/settings/sessions', { token: account.token });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ message: 'Signed out everywhere else: 2 sessions ended.', signedOutSessions: 2 });
    for (const token of others) expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: stranger.token })).status).toBe(200);
    const again = await server.request('DELETE', '/api/settings/sessions', { token: account.token });
    expect(again.body).toEqual({ message: 'No other device was signed in.', signedOutSessions: 0 });
  });

  it('checklist 9: leaves out sessions past their idle timeout', async () => {
    const account = await server.signUp();
    const idle = (await login(account.username, account.password, FIREFOX_ON_WINDOWS)).body.token as string;
    // The account's first session stays in use; the other is not used for more than 7 days.
    for (let day = 0; day < 8; day += 1) {
      server.clock.advance(24 * 3_600_000);
      expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    }
    const listed = await server.request('GET', '/api/settings/sessions', { token: account.token });
    expect(listed.body.sessions.map((session: { id: string }) => session.id)).toEqual([sessionIdOf(account.token!)]);
    expect((await server.request('GET', '/api/auth/me', { token: idle })).status).toBe(401);
  });
});

describe('account deletion', () => {
  /** Rows that still belong to the user: every table with a user_id column, and every table keyed by one of its connections. */
  async function remainingRows(userId: number, connectionIds: number[]) {
    const columns = await queryRows<{ table_name: string; column_name: string }>(
      server.db,
      sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and column_name in ('user_id', 'connection_id') order by table_name`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table, column_name: column } of columns) {
      const ids = column === 'user_id' ? [userId] : connectionIds;
      if (ids.length === 0) continue;
      const [row] = await queryRows<{ count: number }>(
        server.db,
        sql`select count(*)::int as count from ${sql.identifier(table)} where ${sql.identifier(column)} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
      );
      counts[`${table}.${column}`] = row!.count;
    }
    const [user] = await queryRows<{ count: number }>(server.db, sql`select count(*)::int as count from users where id = ${userId}`);
    counts.users = user!.count;
    return counts;
  }

  it('checklist 11: cancels the subscription, deletes every row and token of the user, and ends every session', async () => {
    const account = await signUpWithAccess(server);
    const otherDevice = (await login(account.username, account.password)).body.token as string;
    const userId = account.user.id as number;
    const connected = await connect(server, account, 'youtube');
    expect(connected.status).toBe(200);
    const connectionId = connected.body.id as number;
    await syncNow(server, account.token, connectionId);
    await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 9, timeZone: 'Europe/Paris' } });
    await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail: `pending_${account.email}`, currentPassword: account.password } });
    await server.request('GET', '/api/analytics/summary', { token: account.token });

    const before = await remainingRows(userId, [connectionId]);
    for (const table of ['sessions.user_id', 'subscriptions.user_id', 'billing_customers.user_id', 'platform_connections.user_id', 'account_metrics.connection_id', 'report_preferences.user_id', 'pending_email_changes.user_id']) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const [subscription] = await queryRows<{ stripe_subscription_id: string }>(server.db, sql`select stripe_subscription_id from subscriptions where user_id = ${userId}`);

    const unconfirmed = await server.request('POST', '/api/settings/account/delete', { token: account.token, body: { currentPassword: account.password, confirmation: 'delete me' } });
    expect(unconfirmed.status).toBe(400);
    const wrong = await server.request('POST', '/api/settings/account/delete', { token: account.token, body: { currentPassword: 'nope', confirmation: 'DELETE' } });
    expect(wrong.status).toBe(403);
    expect((await remainingRows(userId, [connectionId])).users).toBe(1);

    const deleted = await server.request('POST', '/api/settings/account/delete', { token: account.token, body: { currentPassword: account.password, confirmation: 'DELETE' } });
    expect(deleted.status).toBe(200);

    const after = await remainingRows(userId, [connectionId]);
    expect(Object.entries(after).filter(([, count]) => count > 0)).toEqual([]);
    const buckets = await queryRows<{ key: string }>(server.db, sql`select key from rate_limit_buckets where key like ${`%:user:${userId}`}`);
    expect(buckets).toEqual([]);
    // Stripe stops charging at once.
    const atStripe = await stripeClient(sandboxOf(server)).subscriptions.retrieve(subscription!.stripe_subscription_id);
    expect(atStripe.status).toBe('canceled');
    // The sessions are gone, and so is the account.
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: otherDevice })).status).toBe(401);
    expect((await login(account.username, account.password)).status).toBe(401);
    await server.smtp.waitFor((mail) => mail.to.includes(account.email) && /was deleted/.test(mail.subject));
    // The name and address are free again.
    expect((await server.request('POST', '/api/auth/register', { body: { username: account.username, email: account.email, password: 'a fresh passphrase' } })).status).toBe(201);
  });

  it('relies on foreign keys that all cascade: no table can keep a deleted user’s rows', async () => {
    const restricting = await queryRows<{ table_name: string; constraint_name: string; delete_rule: string }>(
      server.db,
      sql`select tc.table_name, tc.constraint_name, rc.delete_rule
        from information_schema.table_constraints tc
        join information_schema.referential_constraints rc on rc.constraint_name = tc.constraint_name and rc.constraint_schema = tc.constraint_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public' and rc.delete_rule <> 'CASCADE'`,
    );
    expect(restricting).toEqual([]);
  });

  /** The user's Stripe customer id, read before the account (and the link) goes. */
  async function customerIdOf(userId: number) {
    const [row] = await queryRows<{ stripe_customer_id: string }>(server.db, sql`select stripe_customer_id from billing_customers where user_id = ${userId}`);
    return row!.stripe_customer_id;
  }
  const deleteAccount = (account: { token?: string; password: string }) =>
    server.request('POST', '/api/settings/account/delete', { token: account.token, body: { currentPassword: account.password, confirmation: 'DELETE' } });
  const REMOVE_APP_ACCESS_AT = [
    { platform: 'linkedin', name: 'LinkedIn', page: 'Permitted services', url: 'https://www.linkedin.com/mypreferences/d/permitted-services' },
    { platform: 'patreon', name: 'Patreon', page: 'Settings, Apps', url: 'https://www.patreon.com/settings/apps' },
    { platform: 'instagram', name: 'Instagram', page: 'Apps and websites', url: 'https://www.instagram.com/accounts/manage_access/' },
  ];

  it('deletes the Stripe customer once no invoice needs it; the answer and the email say where to remove the app at LinkedIn, Patreon and Instagram', async () => {
    const account = await signUpWithAccess(server);
    const customerId = await customerIdOf(account.user.id);
    const deleted = await deleteAccount(account);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Your account and all of its data were deleted.', removeAppAccessAt: REMOVE_APP_ACCESS_AT });
    expect(await stripeClient(sandboxOf(server)).customers.retrieve(customerId)).toEqual({ id: customerId, object: 'customer', deleted: true });
    expect(server.logLines.some((line) => line.includes('"event":"billing.customer_deleted"') && line.includes(customerId))).toBe(true);

    const mail = await server.smtp.waitFor((message) => message.to.includes(account.email) && /was deleted/.test(message.subject));
    for (const { name, url } of REMOVE_APP_ACCESS_AT) {
      expect(mail.text).toContain(`- ${name} (`);
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(`<a href="${url}"`);
    }
  });

  it('keeps the Stripe customer while an invoice is still open, and logs why', async () => {
    const account = await server.signUp();
    // No trial and a card whose charges fail: the first invoice stays open (the subscription incomplete).
    const checkout = await server.request('POST', '/api/stripe/create-checkout-session', { token: account.token, body: { trialDays: 0 } });
    await submitHostedForm(sandboxOf(server), checkout.body.url, FAILING_CARD);
    await sandboxOf(server).flushWebhooks();
    const customerId = await customerIdOf(account.user.id);
    const stripe = stripeClient(sandboxOf(server));
    expect((await stripe.invoices.list({ customer: customerId })).data.map((invoice) => invoice.status)).toEqual(['open']);

    expect((await deleteAccount(account)).status).toBe(200);
    const kept = await stripe.customers.retrieve(customerId);
    expect(kept.deleted).toBeUndefined();
    const logged = server.logLines.find((line) => line.includes('"event":"billing.customer_kept"') && line.includes(customerId));
    expect(logged).toContain('"reason":"1 invoice still open"');
    // The account is gone all the same.
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('deletes the account when Stripe cannot be reached for the customer, and a retried job deletes the customer later', async () => {
    const account = await signUpWithAccess(server);
    const customerId = await customerIdOf(account.user.id);
    // The SDK tries three times (two retries): all three fail.
    sandboxOf(server).failNext('DELETE', '/v1/customers/:id', { times: 3 });
    const deleted = await deleteAccount(account);
    expect(deleted.status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
    const stripe = stripeClient(sandboxOf(server));
    expect((await stripe.customers.retrieve(customerId)).deleted).toBeUndefined();
    expect(server.logLines.some((line) => line.includes('"event":"billing.customer_release_queued"') && line.includes(customerId))).toBe(true);

    expect(await server.customerReleases.drain()).toEqual([{ ok: true, result: { outcome: 'deleted' } }]);
    expect(await stripe.customers.retrieve(customerId)).toEqual({ id: customerId, object: 'customer', deleted: true });
    // Running it again would do no harm: nothing is left queued.
    expect(await server.customerReleases.drain()).toEqual([]);
  });

  it('works for a user who never subscribed', async () => {
    const account = await server.signUp();
    const deleted = await server.request('POST', '/api/settings/account/delete', { token: account.token, body: { currentPassword: account.password, confirmation: 'DELETE' } });
    expect(deleted.status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });

  it('checklist 40: never logs passwords or email change tokens', async () => {
    const log = server.logLines.join('\n');
    expect(log).not.toContain('a brand new passphrase');
    expect(log).not.toContain('correct horse battery staple');
    expect(log).not.toMatch(/confirm-email-change\?userId=\d+&token=/);
  });
});
