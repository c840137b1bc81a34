// The welcome mail (issue 25): sent once, when an account's address is first confirmed; not on sign-up, not again
// when an address changed later in Settings is confirmed; once even when two processes race for it.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentMails } from '../../db/schema.ts';
import { createOnceMailer } from '../mail/sent-mails.ts';
import { confirmationLinkParams, isConfirmationMailTo } from '../../test/smtp-capture.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { WELCOME_SUBJECT } from './emails.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const welcomesTo = (email: string) => server.smtp.messages.filter((mail) => mail.to.toLowerCase() === email.toLowerCase() && mail.subject === WELCOME_SUBJECT);

describe('the welcome mail', () => {
  it('is not sent on sign-up; confirming sends it once, with what to do first', async () => {
    const account = await server.signUp({ confirm: false });
    const confirmation = await server.smtp.waitFor((mail) => isConfirmationMailTo(mail, account.email));
    await server.mailer.idle();
    expect(welcomesTo(account.email)).toEqual([]);

    expect((await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(confirmation) })).status).toBe(200);
    const welcome = await server.smtp.waitFor((mail) => mail.to.includes(account.email) && mail.subject === WELCOME_SUBJECT);
    expect(welcome.text).toContain('Connect a platform');
    expect(welcome.text).toContain(`${TEST_PUBLIC_URL}/platforms`);
    expect(welcome.text).toContain('7-day free trial');
    expect(welcome.text).toContain(`${TEST_PUBLIC_URL}/billing`);
    expect(welcome.html).toContain(`href="${TEST_PUBLIC_URL}/platforms"`);
    expect(welcome.html).toContain('background:#0f172a');
    // A transactional mail: no unsubscribe header.
    expect(welcome.parsed.headers.has('list-unsubscribe')).toBe(false);

    // The same link again only says the address is already confirmed, and sends nothing more.
    const again = await server.request('POST', '/api/auth/confirm-email', { body: confirmationLinkParams(confirmation) });
    expect(again.body).toMatchObject({ alreadyConfirmed: true });
    await server.mailer.idle();
    expect(welcomesTo(account.email)).toHaveLength(1);
  });

  it('is not sent again when the account confirms a new address in Settings', async () => {
    const account = await server.signUp();
    expect(welcomesTo(account.email)).toHaveLength(1);
    const newEmail = `moved_${account.email}`;
    expect((await server.request('POST', '/api/settings/email', { token: account.token, body: { newEmail, currentPassword: account.password } })).status).toBe(202);
    const change = await server.smtp.waitFor((mail) => mail.to.includes(newEmail) && /new email/.test(mail.subject));
    const link = new URL(/https?:\/\/\S+\/confirm-email-change\?\S+/.exec(change.text)![0]);
    const confirmed = await server.request('POST', '/api/settings/email/confirm', { body: { userId: Number(link.searchParams.get('userId')), token: link.searchParams.get('token') } });
    expect(confirmed.status).toBe(200);
    await server.mailer.idle();
    expect(welcomesTo(newEmail)).toEqual([]);
    expect(welcomesTo(account.email)).toHaveLength(1);
  });

  it('is claimed in the database: of two processes asking at once, one sends', async () => {
    const account = await server.signUp();
    await server.db.delete(sentMails).where(and(eq(sentMails.userId, account.user.id), eq(sentMails.kind, 'welcome')));
    const before = welcomesTo(account.email).length;
    // Two senders on one database, as two server processes are.
    const senders = [0, 1].map(() => createOnceMailer({ db: server.db, mailer: server.mailer, clock: server.clock, logger: server.app.log }));
    const mail = { to: account.email, subject: WELCOME_SUBJECT, text: 'again', html: '<p>again</p>' };
    const claimed = await Promise.all([...senders, ...senders].map((sender) => sender.sendOnce({ userId: account.user.id, kind: 'welcome' }, () => mail)));
    expect(claimed.filter(Boolean)).toHaveLength(1);
    await server.mailer.idle();
    expect(welcomesTo(account.email)).toHaveLength(before + 1);
  });

  it('gives its claim back when the mail server refuses, so a later occasion can send it', async () => {
    const account = await server.signUp();
    await server.db.delete(sentMails).where(eq(sentMails.userId, account.user.id));
    const sender = createOnceMailer({ db: server.db, mailer: server.mailer, clock: server.clock, logger: server.app.log });
    const mail = { to: account.email, subject: WELCOME_SUBJECT, text: 'again', html: '<p>again</p>' };
    server.smtp.failNext(1);
    expect(await sender.sendOnce({ userId: account.user.id, kind: 'welcome' }, () => mail)).toBe(true);
    await server.mailer.idle();
    expect(await server.db.select().from(sentMails).where(eq(sentMails.userId, account.user.id))).toEqual([]);
    expect(await sender.sendOnce({ userId: account.user.id, kind: 'welcome' }, () => mail)).toBe(true);
    await server.mailer.idle();
    expect(await server.db.select().from(sentMails).where(eq(sentMails.userId, account.user.id))).toHaveLength(1);
  });
});
