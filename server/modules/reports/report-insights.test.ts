// The "New insights" part of the emailed reports: the YouTube insights stored for the user's channels in the period
// the report covers (the day, or the week, before it is sent), most confident first, at most four, in both the HTML
// and the text part, and escaped in the HTML. Real server, database and SMTP; the channels and insights are written
// straight into their tables (no platform sync needed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { youtubeInsights } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { type CapturedMail, isReportMail } from '../../test/smtp-capture.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel } from '../../test/youtube-factory.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true });
});
afterAll(async () => {
  await server?.close();
});

/** Both reports below go out at 08:00 UTC on Tuesday 2026-11-03. */
const SENT_AT = new Date('2026-11-03T08:00:00Z');
const at = (iso: string) => new Date(iso);

interface SeedInsight {
  title: string;
  recommendation: string;
  confidenceScore: number;
  createdAt: Date;
}

async function insertInsights(connectionId: number, insights: SeedInsight[]) {
  await server.db.insert(youtubeInsights).values(insights.map((insight) => ({ connectionId, insightType: 'test', facts: {}, videoId: null, ...insight })));
}

async function setPreferences(account: Account, body: Record<string, unknown>) {
  const response = await server.request('PUT', '/api/reports/preferences', { token: account.token, body });
  if (response.status !== 200) throw new Error(`preferences answered ${response.status}: ${JSON.stringify(response.body)}`);
}

/** The text part's lines between "New insights" and the dashboard link. */
function textInsights(mail: CapturedMail): string[] {
  const match = /\nNew insights\n([\s\S]*?)\n\nOpen your dashboard/.exec(mail.text);
  if (!match) throw new Error(`no insights section in: ${mail.text}`);
  return match[1]!.split('\n');
}

/** The HTML part's section after the "New insights" heading, up to the dashboard button. */
function htmlInsights(mail: CapturedMail): string {
  const match = /New insights<\/h2>\n([\s\S]*?)\n<p><a /.exec(mail.html);
  if (!match) throw new Error(`no insights section in: ${mail.html}`);
  return match[1]!;
}

describe('insights in report emails', () => {
  let alice: Account;
  let carol: Account;
  let mails: CapturedMail[];

  const hostile = {
    title: 'Thumbnails with <script>alert("x")</script> faces',
    recommendation: 'Use faces & "bold" text <b>now</b> — it\'s 2.1× the CTR',
  };

  beforeAll(async () => {
    alice = await signUpWithAccess(server);
    const bob = await signUpWithAccess(server);
    carol = await signUpWithAccess(server);
    const now = server.clock.now();
    const alicesMain = await seedYoutubeChannel(server.db, { userId: alice.user.id, now, title: 'Alice main' });
    const alicesSecond = await seedYoutubeChannel(server.db, { userId: alice.user.id, now, title: 'Alice second' });
    const bobs = await seedYoutubeChannel(server.db, { userId: bob.user.id, now, title: 'Bob' });
    const carols = await seedYoutubeChannel(server.db, { userId: carol.user.id, now, title: 'Carol' });

    // Alice's daily report covers [2026-11-02T08:00Z, 2026-11-03T08:00Z).
    await insertInsights(alicesMain.connectionId, [
      { ...hostile, confidenceScore: 0.91, createdAt: at('2026-11-02T09:00:00Z') },
      { title: 'First moment of the period', recommendation: 'Counted: the period starts here.', confidenceScore: 0.75, createdAt: at('2026-11-02T08:00:00Z') },
      { title: 'Last moment of the period', recommendation: 'Counted: just before the send.', confidenceScore: 0.62, createdAt: at('2026-11-03T07:59:59.999Z') },
      { title: 'Least confident in the period', recommendation: 'Fifth: left out, four are shown.', confidenceScore: 0.3, createdAt: at('2026-11-02T12:00:00Z') },
      { title: 'Before the period', recommendation: 'Yesterday’s news.', confidenceScore: 0.99, createdAt: at('2026-11-02T07:59:59.999Z') },
      { title: 'At the send time', recommendation: 'Belongs to the next report.', confidenceScore: 0.98, createdAt: SENT_AT },
    ]);
    await insertInsights(alicesSecond.connectionId, [{ title: 'From the second channel', recommendation: 'Every channel of the user counts.', confidenceScore: 0.8, createdAt: at('2026-11-02T20:00:00Z') }]);
    await insertInsights(bobs.connectionId, [{ title: 'Bob’s own insight', recommendation: 'Never in anyone else’s email.', confidenceScore: 0.97, createdAt: at('2026-11-02T10:00:00Z') }]);
    // Carol's weekly report covers [2026-10-27T08:00Z, 2026-11-03T08:00Z).
    await insertInsights(carols.connectionId, [
      { title: 'Three days ago', recommendation: 'In the week.', confidenceScore: 0.7, createdAt: at('2026-10-31T12:00:00Z') },
      { title: 'Eight days ago', recommendation: 'Before the week.', confidenceScore: 0.9, createdAt: at('2026-10-26T12:00:00Z') },
    ]);

    await setPreferences(alice, { frequency: 'daily', weekday: 1, hour: 8, timeZone: 'UTC' });
    await setPreferences(bob, { frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC' });
    // Weekday 2: Tuesday.
    await setPreferences(carol, { frequency: 'weekly', weekday: 2, hour: 8, timeZone: 'UTC' });

    server.clock.set(SENT_AT);
    const seen = server.smtp.messages.length;
    expect((await server.reports.runDue()).sent).toBe(2);
    mails = server.smtp.messages.slice(seen).filter((mail) => isReportMail(mail));
  });

  const mailOf = (account: Account) => {
    const found = mails.filter((mail) => mail.to.includes(account.email));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('lists the period’s insights of the user’s channels, most confident first, four at most, in the text part', () => {
    expect(textInsights(mailOf(alice))).toEqual([
      `- ${hostile.title}: ${hostile.recommendation}`,
      '- From the second channel: Every channel of the user counts.',
      '- First moment of the period: Counted: the period starts here.',
      '- Last moment of the period: Counted: just before the send.',
    ]);
    expect(mailOf(alice).text).not.toContain('No new insights this period.');
  });

  it('lists the same insights in the HTML part, escaped', () => {
    const html = mailOf(alice).html;
    expect(htmlInsights(mailOf(alice))).toBe(
      '<ul>' +
        '<li><strong>Thumbnails with &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; faces</strong>: Use faces &amp; &quot;bold&quot; text &lt;b&gt;now&lt;/b&gt; — it&#39;s 2.1× the CTR</li>' +
        '<li><strong>From the second channel</strong>: Every channel of the user counts.</li>' +
        '<li><strong>First moment of the period</strong>: Counted: the period starts here.</li>' +
        '<li><strong>Last moment of the period</strong>: Counted: just before the send.</li>' +
        '</ul>',
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>now</b>');
    expect(html).not.toContain('No new insights this period.');
  });

  it('leaves out other users’ insights and those outside the period', () => {
    const { text, html } = mailOf(alice);
    for (const absent of ['Least confident in the period', 'Before the period', 'At the send time', 'Bob’s own insight', 'Three days ago']) {
      expect(text).not.toContain(absent);
      expect(html).not.toContain(absent);
    }
  });

  it('covers the whole week in a weekly report', () => {
    const mail = mailOf(carol);
    expect(textInsights(mail)).toEqual(['- Three days ago: In the week.']);
    expect(htmlInsights(mail)).toBe('<ul><li><strong>Three days ago</strong>: In the week.</li></ul>');
    expect(mail.text).not.toContain('Eight days ago');
  });
});

describe('insights in a report sent late', () => {
  it('covers the day before the report was due, not the day before it went out', async () => {
    const dave = await signUpWithAccess(server);
    const daves = await seedYoutubeChannel(server.db, { userId: dave.user.id, now: server.clock.now(), title: 'Dave' });
    // Due at 09:00 UTC on 2026-11-05: the period of insights is [2026-11-04T09:00Z, 2026-11-05T09:00Z).
    await insertInsights(daves.connectionId, [
      { title: 'Early in the period', recommendation: 'Due-time window: in.', confidenceScore: 0.8, createdAt: at('2026-11-04T09:05:00Z') },
      { title: 'After the due time', recommendation: 'Belongs to the next report.', confidenceScore: 0.9, createdAt: at('2026-11-05T09:05:00Z') },
    ]);
    server.clock.set(at('2026-11-05T08:30:00Z'));
    await setPreferences(dave, { frequency: 'daily', weekday: 1, hour: 9, timeZone: 'UTC' });

    // The SMTP server refuses the first attempt; the retry goes out 10 minutes later.
    // Other users' reports of the morning go out first, so Dave's is the only one due at 09:00.
    server.clock.set(at('2026-11-05T08:59:00Z'));
    await server.reports.runDue();
    server.smtp.failNext(1);
    server.clock.set(at('2026-11-05T09:00:00Z'));
    expect(await server.reports.runDue()).toMatchObject({ sent: 0, failed: 1 });
    server.clock.set(at('2026-11-05T09:10:00Z'));
    const seen = server.smtp.messages.length;
    expect(await server.reports.runDue()).toMatchObject({ sent: 1, failed: 0 });
    const mails = server.smtp.messages.slice(seen).filter((message) => message.to.includes(dave.email) && isReportMail(message));
    expect(mails).toHaveLength(1);
    expect(textInsights(mails[0]!)).toEqual(['- Early in the period: Due-time window: in.']);
  });
});
