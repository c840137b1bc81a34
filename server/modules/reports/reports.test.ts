// Emailed reports end to end: the real server and database, a manual clock moved hour by hour, mail to a real SMTP
// server started by the test, Stripe and the platforms through their sandboxes.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { openPostgres, queryRows } from '../../db/client.ts';
import { reportPreferences } from '../../db/schema.ts';
import { type Account, connect, signUpWithAccess } from '../../test/platforms.ts';
import { type CapturedMail, isReportMail } from '../../test/smtp-capture.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../test/test-server.ts';
import { localParts } from './report-schedule.ts';
import { MAX_ATTEMPTS } from './reports.service.ts';

const HOUR = 3_600_000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

/** Report emails that arrived, with the clock's time at the scan that sent them. */
const arrivals: { mail: CapturedMail; at: string }[] = [];

async function scanAt(at: Date) {
  server.clock.set(at);
  const seen = server.smtp.messages.length;
  const result = await server.reports.runDue();
  for (const mail of server.smtp.messages.slice(seen)) if (/report/.test(mail.subject) && /Analytics Hub report/.test(mail.subject)) arrivals.push({ mail, at: at.toISOString() });
  return result;
}

function reportsFor(account: { email: string }) {
  return arrivals.filter((arrival) => arrival.mail.to.includes(account.email));
}

async function setPreferences(account: Account, body: Record<string, unknown>) {
  const response = await server.request('PUT', '/api/reports/preferences', { token: account.token, body });
  if (response.status !== 200) throw new Error(`preferences answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

function headerLine(mail: CapturedMail, name: string): string | undefined {
  const line = mail.parsed.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

function oneClickUrl(mail: CapturedMail): string {
  const value = headerLine(mail, 'List-Unsubscribe');
  const url = /<([^>]+)>/.exec(value ?? '')?.[1];
  if (!url) throw new Error('no List-Unsubscribe URL');
  return url.replace(TEST_PUBLIC_URL, server.baseUrl);
}

describe('preferences', () => {
  it('validates the time zone with Intl and answers the next report time; premium only', async () => {
    const account = await signUpWithAccess(server);
    const defaults = await server.request('GET', '/api/reports/preferences', { token: account.token });
    expect(defaults.body).toEqual({ frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC', nextReportAt: null, saved: false });
    const badZone = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'Mars/Olympus' } });
    expect(badZone.status).toBe(400);
    expect(badZone.body.message).toMatch(/Unknown time zone/);
    const badHour = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'daily', weekday: 1, hour: 24, timeZone: 'UTC' } });
    expect(badHour.status).toBe(400);
    const badFrequency = await server.request('PUT', '/api/reports/preferences', { token: account.token, body: { frequency: 'hourly', weekday: 1, hour: 8, timeZone: 'UTC' } });
    expect(badFrequency.status).toBe(400);
    // 2026-11-02T10:00Z is 11:00 in Paris: the next 08:00 there is tomorrow, 07:00 UTC.
    const saved = await setPreferences(account, { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'europe/paris' });
    expect(saved).toEqual({ frequency: 'daily', weekday: 1, hour: 8, timeZone: 'Europe/Paris', nextReportAt: '2026-11-03T07:00:00.000Z', saved: true });
    expect((await server.request('GET', '/api/reports/preferences')).status).toBe(401);
    await setPreferences(account, { frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC' });
  });
});

describe('the report schedule', () => {
  let paris: Account;
  let newYork: Account;
  let tokyo: Account;
  let noAccess: { email: string; id: number };
  let connectionId: number;

  beforeAll(async () => {
    server.clock.set(new Date('2026-11-02T10:00:00Z'));
    paris = await signUpWithAccess(server);
    newYork = await signUpWithAccess(server);
    tokyo = await signUpWithAccess(server);
    const connected = await connect(server, paris, 'youtube');
    connectionId = connected.body.id as number;
    await syncNow(server, paris.token, connectionId);
    await setPreferences(paris, { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'Europe/Paris' });
    await setPreferences(newYork, { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'America/New_York' });
    // Wednesday 09:00 in Tokyo is Wednesday 00:00 UTC.
    await setPreferences(tokyo, { frequency: 'weekly', weekday: 3, hour: 9, timeZone: 'Asia/Tokyo' });
    // A user without a subscription or trial whose preferences were kept from an earlier subscription.
    const lapsed = await server.signUp();
    noAccess = { email: lapsed.email, id: lapsed.user.id };
    await server.db.insert(reportPreferences).values({
      userId: lapsed.user.id,
      frequency: 'daily',
      weekday: 1,
      hour: 12,
      nextRunAt: new Date('2026-11-02T12:00:00Z'),
      updatedAt: server.clock.now(),
    });
  });

  it('sends each user one report per period at their local time, as the clock moves hour by hour', async () => {
    const start = new Date('2026-11-02T11:00:00Z').getTime();
    for (let hour = 0; hour < 48; hour += 1) {
      const at = new Date(start + hour * HOUR);
      await scanAt(at);
      // A second scan in the same hour (another tick, a restart) sends nothing more.
      expect((await scanAt(at)).sent).toBe(0);
    }
    expect(reportsFor(paris).map((arrival) => arrival.at)).toEqual(['2026-11-03T07:00:00.000Z', '2026-11-04T07:00:00.000Z']);
    expect(reportsFor(newYork).map((arrival) => arrival.at)).toEqual(['2026-11-02T13:00:00.000Z', '2026-11-03T13:00:00.000Z']);
    expect(reportsFor(tokyo).map((arrival) => arrival.at)).toEqual(['2026-11-04T00:00:00.000Z']);
    expect(reportsFor(noAccess)).toEqual([]);
    // Each arrived at 08:00 (09:00 for Tokyo) on the user's own clock.
    for (const arrival of reportsFor(paris)) expect(localParts(new Date(arrival.at), 'Europe/Paris').hour).toBe(8);
    for (const arrival of reportsFor(newYork)) expect(localParts(new Date(arrival.at), 'America/New_York').hour).toBe(8);
    expect(localParts(new Date(reportsFor(tokyo)[0]!.at), 'Asia/Tokyo')).toMatchObject({ hour: 9, weekday: 3 });

    const ledger = await queryRows<{ user_id: number; period_key: string; status: string }>(
      server.db,
      sql`select user_id, period_key, status from report_deliveries where user_id in (${paris.user.id}, ${tokyo.user.id}) order by user_id, period_key`,
    );
    expect(ledger).toEqual([
      { user_id: paris.user.id, period_key: 'daily:2026-11-02', status: 'sent' },
      { user_id: paris.user.id, period_key: 'daily:2026-11-03', status: 'sent' },
      { user_id: tokyo.user.id, period_key: 'weekly:2026-10-28', status: 'sent' },
    ]);
  });

  it('holds the period numbers, their change, top content and the PDF, in HTML and plain text', async () => {
    const { mail } = reportsFor(paris)[0]!;
    expect(mail.subject).toBe('Your daily Analytics Hub report: Nov 2, 2026');
    const [views] = await queryRows<{ day: number; before: number }>(
      server.db,
      sql`select coalesce(sum(value) filter (where date = '2026-11-02'), 0)::float8 as day, coalesce(sum(value) filter (where date = '2026-11-01'), 0)::float8 as before
        from account_metrics where connection_id = ${connectionId} and metric_type in ('views', 'impressions')`,
    );
    const viewsText = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(views!.day);
    expect(mail.text).toContain(`Views: ${viewsText} (`);
    // YouTube's daily report ends 2–3 days back: no day of Nov 1 or Nov 2 has its figures in both periods, so there is
    // nothing to compare (not "no change" from two empty days), and the report says why.
    expect(mail.text).toMatch(/Followers: [\d,]+ \(nothing to compare\)/);
    expect(mail.text).toContain('Changes leave out YouTube (Maya Lopez): no day with figures in both periods yet.');
    expect(mail.text).toMatch(/Engagement rate: [\d.]+%/);
    expect(mail.text).toMatch(/Revenue: \$[\d,.]+/);
    expect(mail.text).toContain('Connected platforms: 1');
    const titles = (await queryRows<{ title: string }>(server.db, sql`select title from content_items where connection_id = ${connectionId}`)).map((row) => row.title);
    const top = /#1 (.+) \(YouTube\): [\d,]+ engagements/.exec(mail.text)?.[1];
    expect(titles).toContain(top);
    expect(mail.html).toContain('<th scope="row"');
    expect(mail.html).toContain(`>${viewsText}<`);
    expect(mail.html).toContain('Unsubscribe</a>');
    expect(mail.text).toMatch(new RegExp(`Unsubscribe from these reports: ${TEST_PUBLIC_URL}/unsubscribe\\?token=[A-Za-z0-9_-]{43}`));
    expect(headerLine(mail, 'List-Unsubscribe')).toMatch(new RegExp(`^<${TEST_PUBLIC_URL}/api/unsubscribe\\?token=[A-Za-z0-9_-]{43}>$`));
    expect(headerLine(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [attachment] = mail.parsed.attachments;
    expect(attachment).toMatchObject({ filename: 'analytics-hub-daily-report-2026-11-02.pdf', contentType: 'application/pdf' });
    expect(attachment!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The weekly one covers the 7 days before.
    expect(reportsFor(tokyo)[0]!.mail.subject).toBe('Your weekly Analytics Hub report: Oct 28, 2026 – Nov 3, 2026');
  });

  it('changing the hour after the day’s report does not send a second one for the same day', async () => {
    // 2026-11-04T09:30Z: Paris got today's report at 07:00Z; moving it to 11:00 Paris (10:00Z) must not repeat it.
    server.clock.set(new Date('2026-11-04T09:30:00Z'));
    const moved = await setPreferences(paris, { frequency: 'daily', weekday: 1, hour: 11, timeZone: 'Europe/Paris' });
    expect(moved.nextReportAt).toBe('2026-11-04T10:00:00.000Z');
    await scanAt(new Date('2026-11-04T10:00:00Z'));
    expect(reportsFor(paris)).toHaveLength(2);
    await scanAt(new Date('2026-11-05T10:00:00Z'));
    expect(reportsFor(paris)).toHaveLength(3);
  });

  it('unsubscribes with one click, without signing in, and no report follows', async () => {
    const last = reportsFor(newYork).at(-1)!.mail;
    const url = oneClickUrl(last);
    // RFC 8058: a POST with the form body; no session.
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message: string }).message).toMatch(/unsubscribed/);
    // Again (a second click, a mail client retrying): still fine.
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    expect((await server.request('GET', '/api/reports/preferences', { token: newYork.token })).body).toMatchObject({ frequency: 'off', nextReportAt: null });
    const before = reportsFor(newYork).length;
    for (let hour = 0; hour < 26; hour += 1) await scanAt(new Date(Date.parse('2026-11-05T11:00:00Z') + hour * HOUR));
    expect(reportsFor(newYork)).toHaveLength(before);
    expect(reportsFor(paris)).toHaveLength(4);

    // A made-up or truncated token is refused with a message; a GET does nothing (link scanners fetch links).
    const forged = await server.request('POST', `/api/unsubscribe?token=${'x'.repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/invalid or has expired/);
    expect((await server.request('POST', '/api/unsubscribe?token=short')).status).toBe(400);
    expect((await server.request('POST', '/api/unsubscribe')).status).toBe(400);
    expect((await server.request('GET', `/api/unsubscribe?token=${'x'.repeat(43)}`)).status).toBe(404);
    // Only hashes are stored.
    const token = new URL(url).searchParams.get('token')!;
    const stored = await queryRows<{ count: number }>(server.db, sql`select count(*)::int as count from report_unsubscribe_tokens where token_hash = ${token}`);
    expect(stored[0]!.count).toBe(0);
  });

  it('retries a send the SMTP server refused, later, without sending twice', async () => {
    const account = await signUpWithAccess(server);
    server.clock.set(new Date('2026-11-07T04:30:00Z'));
    await setPreferences(account, { frequency: 'daily', weekday: 1, hour: 5, timeZone: 'UTC' });
    server.smtp.failNext(1);
    expect(await scanAt(new Date('2026-11-07T05:00:00Z'))).toMatchObject({ sent: 0, failed: 1 });
    expect(reportsFor(account)).toHaveLength(0);
    const [failed] = await queryRows<{ status: string; attempts: number; retry_at: string; last_error: string }>(
      server.db,
      sql`select status, attempts, retry_at, last_error from report_deliveries where user_id = ${account.user.id}`,
    );
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(new Date(failed!.retry_at).toISOString()).toBe('2026-11-07T05:10:00.000Z');
    expect(failed!.last_error).toMatch(/busy/);
    expect((await scanAt(new Date('2026-11-07T05:05:00Z'))).sent).toBe(0);
    expect(await scanAt(new Date('2026-11-07T05:10:00Z'))).toMatchObject({ sent: 1 });
    expect(await scanAt(new Date('2026-11-07T05:30:00Z'))).toMatchObject({ sent: 0 });
    expect(reportsFor(account).map((arrival) => arrival.at)).toEqual(['2026-11-07T05:10:00.000Z']);
    expect(MAX_ATTEMPTS).toBeGreaterThan(1);
  });

  it('works through more due users than one batch holds', async () => {
    server.clock.set(new Date('2026-11-08T05:30:00Z'));
    const many = [await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server)];
    for (const account of many) await setPreferences(account, { frequency: 'daily', weekday: 1, hour: 6, timeZone: 'UTC' });
    server.clock.set(new Date('2026-11-08T06:00:00Z'));
    const seen = server.smtp.messages.length;
    expect((await server.reports.runDue({ limit: 1 })).sent).toBeGreaterThanOrEqual(3);
    const mails = server.smtp.messages.slice(seen).filter((mail) => isReportMail(mail));
    for (const account of many) expect(mails.filter((mail) => mail.to.includes(account.email))).toHaveLength(1);
  });

  it('never logs unsubscribe tokens', () => {
    const tokens = arrivals.map(({ mail }) => new URL(oneClickUrl(mail)).searchParams.get('token')!);
    const log = server.logLines.join('\n');
    for (const token of tokens) expect(log).not.toContain(token);
  });
});

describe('two workers', () => {
  const databaseUrl = inject('databaseUrl');
  // Two processes on one database only exist with PostgreSQL; PGlite belongs to one process.
  it.runIf(databaseUrl)('send each report once when two app instances scan the same database at the same moment', async () => {
    server.clock.set(new Date('2026-11-10T02:30:00Z'));
    const accounts = [await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server)];
    for (const account of accounts) await setPreferences(account, { frequency: 'daily', weekday: 1, hour: 3, timeZone: 'UTC' });
    const secondDatabase = openPostgres(server.database.url!, { max: 4 });
    const second = await buildApp({ config: server.config, database: secondDatabase, clock: server.clock, logStream: { write() {} } as never });
    try {
      server.clock.set(new Date('2026-11-10T03:00:00Z'));
      const seen = server.smtp.messages.length;
      const results = await Promise.all([server.reports.runDue(), second.reports.runDue(), server.reports.runDue(), second.reports.runDue()]);
      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(3);
      const mails = server.smtp.messages.slice(seen).filter((mail) => isReportMail(mail));
      for (const account of accounts) expect(mails.filter((mail) => mail.to.includes(account.email))).toHaveLength(1);
    } finally {
      await second.app.close();
      await secondDatabase.close();
    }
  });
});

describe('an account whose trial or subscription ended', () => {
  it('is not scanned (its schedule waits), and its report goes out again once it subscribes anew', async () => {
    server.clock.set(new Date('2026-11-12T05:30:00Z'));
    const account = await signUpWithAccess(server);
    await setPreferences(account, { frequency: 'daily', weekday: 1, hour: 6, timeZone: 'UTC' });
    await server.db.execute(sql`update subscriptions set status = 'canceled', trial_end = ${'2026-11-12T05:00:00Z'}::timestamptz where user_id = ${account.user.id}`);
    const scheduled = async () => (await server.db.select({ nextRunAt: reportPreferences.nextRunAt }).from(reportPreferences).where(eq(reportPreferences.userId, account.user.id)))[0]!.nextRunAt;
    expect(await scheduled()).toEqual(new Date('2026-11-12T06:00:00Z'));

    await scanAt(new Date('2026-11-12T06:00:00Z'));
    await scanAt(new Date('2026-11-12T07:00:00Z'));
    expect(reportsFor(account)).toEqual([]);
    // Not even looked at: the scan's SQL leaves it out, so its schedule stays where it was.
    expect(await scheduled()).toEqual(new Date('2026-11-12T06:00:00Z'));
    expect(await queryRows(server.db, sql`select 1 from report_deliveries where user_id = ${account.user.id}`)).toEqual([]);

    await server.db.execute(sql`update subscriptions set status = 'active' where user_id = ${account.user.id}`);
    await scanAt(new Date('2026-11-12T07:01:00Z'));
    expect(reportsFor(account).map((arrival) => arrival.at)).toEqual(['2026-11-12T07:01:00.000Z']);
    expect(await scheduled()).toEqual(new Date('2026-11-13T06:00:00Z'));
  });
});
