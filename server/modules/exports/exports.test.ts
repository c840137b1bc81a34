// GET /api/analytics/export over HTTP against hand-written metric rows: the CSV, JSON and PDF files checked cell by
// cell, the same records as GET /api/analytics, the headers, bad input, the access gate and isolation between users.
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DERIVATION_METHODS } from '#contract/analytics.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let alice: Account;
let bob: Account;

const EVIL_TITLE = '=HYPERLINK("http://evil.example","x")';
const QUOTED_TITLE = 'Comma, "quoted"\nline';
const MULTILINGUAL_TITLE = 'Влог: Αθήνα, Hà Nội, Łódź, İzmir';

const { insertConnection, daily, content, readAgain } = analyticsFactory(() => server);

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  // The test clock: 2026-11-02, so `days=7` is 2026-10-27 … 2026-11-02.
  alice = await signUpWithAccess(server);
  bob = await signUpWithAccess(server);
  const youtube = await insertConnection(alice.user.id, 'youtube', 1010);
  const tiktok = await insertConnection(alice.user.id, 'tiktok', 510);
  await daily(youtube, '2026-10-01', { subscribers: 900 });
  await daily(youtube, '2026-10-31', { subscribers: 1000, views: 200, likes: 10 });
  // A refund day: a negative value must stay a number in every format.
  await daily(youtube, '2026-11-01', { subscribers: 1010, views: 300, revenue: -12.5 });
  await daily(tiktok, '2026-11-02', { followers: 510 });
  const evil = await content(youtube, 'v-evil', EVIL_TITLE, '2026-10-28', { likes: 3 }, '2026-10-28T12:00:00Z');
  // The same item read again later: only each connection's latest sync day in the range counts.
  await readAgain(evil, youtube, '2026-11-01', { likes: 30, comments: 5 });
  await content(youtube, 'v-quoted', QUOTED_TITLE, '2026-11-01', { likes: 50 }, '2026-11-01T12:00:00Z');
  await content(tiktok, 't-at', '@mention me', '2026-11-02', { likes: 40 }, '2026-11-02T12:00:00Z');
  await content(tiktok, 't-minus', '-5 tips', '2026-11-02', { shares: 2 }, '2026-11-02T12:00:00Z');
  await content(tiktok, 't-cafe', 'Café 日本', '2026-11-02', { views: 7 }, '2026-11-02T12:00:00Z');
  // Bob's numbers must never show up in Alice's files.
  const bobs = await insertConnection(bob.user.id, 'youtube', 999_999);
  await daily(bobs, '2026-11-01', { subscribers: 999_999, views: 123_456 });
  await content(bobs, 'b-1', 'Bob video', '2026-11-01', { likes: 99_999 }, '2026-11-01T12:00:00Z');
});
afterAll(async () => {
  await server?.close();
});

/** The raw bytes: `server.request` decodes text, which would hide the byte-order mark. */
async function download(query: string, account: Account | null = alice) {
  const response = await fetch(`${server.baseUrl}/api/analytics/export?${query}`, {
    headers: account ? { authorization: `Bearer ${account.token}` } : {},
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A strict RFC 4180 reader (CRLF rows, quoted cells), so the test does not trust the writer's own rules. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let index = 0;
  let quoted = false;
  while (index < text.length) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      index += 1;
      continue;
    }
    if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else if (char === '\n' || char === '\r') throw new Error(`bare line break at ${index}`);
    else cell += char;
    index += 1;
  }
  if (cell !== '' || row.length > 0) throw new Error('the last row has no CRLF');
  return rows;
}

/** The subscriber history before the connection (made today) is derived from each day's gains and losses. */
const GAINED_AND_LOST = DERIVATION_METHODS.gainedAndLost;
// Newest first; within a day account metrics, then content metrics, each in the order they were stored; the sixth
// cell says how we derived a value (absent: the platform's own figure).
const EXPECTED = [
  ['2026-11-02', 'TikTok', 'followers', 510, null],
  ['2026-11-02', 'TikTok', 'likes', 40, '@mention me'],
  ['2026-11-02', 'TikTok', 'shares', 2, '-5 tips'],
  ['2026-11-02', 'TikTok', 'views', 7, 'Café 日本'],
  ['2026-11-01', 'YouTube', 'subscribers', 1010, null, GAINED_AND_LOST],
  ['2026-11-01', 'YouTube', 'views', 300, null],
  ['2026-11-01', 'YouTube', 'revenue', -12.5, null],
  ['2026-11-01', 'YouTube', 'likes', 30, EVIL_TITLE],
  ['2026-11-01', 'YouTube', 'comments', 5, EVIL_TITLE],
  ['2026-11-01', 'YouTube', 'likes', 50, QUOTED_TITLE],
  ['2026-10-31', 'YouTube', 'subscribers', 1000, null, GAINED_AND_LOST],
  ['2026-10-31', 'YouTube', 'views', 200, null],
  ['2026-10-31', 'YouTube', 'likes', 10, null],
] as const;

describe('CSV export', () => {
  it('writes every record of the filters, cell by cell: BOM, CRLF, RFC 4180 quoting, ISO dates, formula-escaped text, numeric values', async () => {
    const response = await download('format=csv&days=7');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-last-7-days-2026-11-02.csv"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect([...response.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = response.bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['Date', 'Platform', 'Metric', 'Value', 'Content title', 'Derived']);
    expect(rows.slice(1)).toEqual([
      ['2026-11-02', 'TikTok', 'followers', '510', '', ''],
      ['2026-11-02', 'TikTok', 'likes', '40', "'@mention me", ''],
      ['2026-11-02', 'TikTok', 'shares', '2', "'-5 tips", ''],
      ['2026-11-02', 'TikTok', 'views', '7', 'Café 日本', ''],
      ['2026-11-01', 'YouTube', 'subscribers', '1010', '', GAINED_AND_LOST],
      ['2026-11-01', 'YouTube', 'views', '300', '', ''],
      ['2026-11-01', 'YouTube', 'revenue', '-12.5', '', ''],
      ['2026-11-01', 'YouTube', 'likes', '30', `'${EVIL_TITLE}`, ''],
      ['2026-11-01', 'YouTube', 'comments', '5', `'${EVIL_TITLE}`, ''],
      ['2026-11-01', 'YouTube', 'likes', '50', QUOTED_TITLE, ''],
      ['2026-10-31', 'YouTube', 'subscribers', '1000', '', GAINED_AND_LOST],
      ['2026-10-31', 'YouTube', 'views', '200', '', ''],
      ['2026-10-31', 'YouTube', 'likes', '10', '', ''],
    ]);
    // On the wire: the negative number is a bare numeric cell, the formula cell is quoted text.
    expect(text).toContain('\r\n2026-11-01,YouTube,revenue,-12.5,,\r\n');
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",\r\n`);
  });

  it('follows the platform and metric filters, and names the file after them', async () => {
    const response = await download('format=csv&days=7&platformId=1&metricType=likes');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-youtube-likes-last-7-days-2026-11-02.csv"');
    expect(parseCsv(response.bytes.subarray(3).toString('utf8')).slice(1)).toEqual([
      ['2026-11-01', 'YouTube', 'likes', '30', `'${EVIL_TITLE}`, ''],
      ['2026-11-01', 'YouTube', 'likes', '50', QUOTED_TITLE, ''],
      ['2026-10-31', 'YouTube', 'likes', '10', '', ''],
    ]);
  });

  it('writes only the header for a range without data', async () => {
    const response = await download('format=csv&startDate=2025-01-01&endDate=2025-01-31');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-2025-01-01-to-2025-01-31-2026-11-02.csv"');
    expect(parseCsv(response.bytes.subarray(3).toString('utf8'))).toEqual([['Date', 'Platform', 'Metric', 'Value', 'Content title', 'Derived']]);
  });
});

describe('JSON export', () => {
  it('is one valid JSON document with the filters and every record', async () => {
    const response = await download('format=json&days=7');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-last-7-days-2026-11-02.json"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const document = JSON.parse(response.bytes.toString('utf8'));
    expect(document).toEqual({
      exportedAt: '2026-11-02T10:00:00.000Z',
      filters: { startDate: '2026-10-27', endDate: '2026-11-02', platform: null, metricType: null },
      records: EXPECTED.map(([date, platformName, metricType, value, contentTitle, derivation]) => ({ date, platformName, metricType, value, contentTitle, derivation: derivation ?? null })),
    });
  });

  it('stays valid JSON without records', async () => {
    const response = await download('format=json&platformId=2');
    expect(JSON.parse(response.bytes.toString('utf8'))).toMatchObject({ filters: { platform: 'Instagram' }, records: [] });
  });

  it.each(['days=7', 'days=90&platformId=1', 'days=30&metricType=likes', 'startDate=2026-10-01&endDate=2026-11-01', 'days=7&platformId=3&metricType=followers'])(
    'holds exactly the records GET /api/analytics shows for %s',
    async (filters) => {
      const shown = await server.request('GET', `/api/analytics?${filters}&pageSize=1000`, { token: alice.token });
      expect(shown.status).toBe(200);
      const exported = JSON.parse((await download(`format=json&${filters}`)).bytes.toString('utf8'));
      expect(exported.filters).toMatchObject({ startDate: shown.body.startDate, endDate: shown.body.endDate });
      expect(exported.records.map(({ derivation: _derivation, ...record }: Record<string, unknown>) => record)).toEqual(
        shown.body.allMetrics.map(({ date, platformName, metricType, value, contentTitle }: Record<string, unknown>) => ({ date, platformName, metricType, value, contentTitle })),
      );
      expect(exported.records.length).toBe(shown.body.paging.total);
    },
  );
});

const require = createRequire(import.meta.url);
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of each page, one string per text run, as a PDF reader extracts it. */
async function pdfPages(bytes: Buffer): Promise<string[][]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false }).promise;
  const pages: string[][] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).filter((text) => text.trim() !== ''));
  }
  await pdf.destroy();
  return pages;
}

describe('PDF export', () => {
  it('is a report with the period, filters, summary numbers, charts, top content and the records, as extracted by a PDF reader', async () => {
    const response = await download('format=pdf&days=7');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-last-7-days-2026-11-02.pdf"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await pdfPages(response.bytes);
    expect(pages.length).toBe(2);
    const [first, second] = pages as [string[], string[]];
    const after = (items: string[], label: string) => items[items.indexOf(label) + 1];

    expect(first.slice(0, 2)).toEqual(['Analytics Hub', 'Analytics report']);
    expect(after(first, 'Period')).toBe('2026-10-27 to 2026-11-02');
    expect(after(first, 'Platform')).toBe('All platforms');
    expect(after(first, 'Metric')).toBe('All metrics');
    expect(after(first, 'Generated')).toBe('2026-11-02 10:00 UTC');
    // The Analytics screen's cards: followers of both connections, the 30 days' views and revenue.
    expect(after(first, 'Total Followers')).toBe('1,520');
    expect(after(first, 'Total Views')).toBe('500');
    expect(after(first, 'Total Revenue')).toBe('-$12.50');
    expect(after(first, 'Connected Platforms')).toBe('2');
    expect(first).toContain('In this period: 13 records, 10 engagements.');
    expect(first).toContain('Followers Growth');
    expect(first).toContain('Engagement Rate (engagements per day)');
    // Chart axes: the followers line starts on Nov 2, the first day both connections' histories have begun; the
    // engagement bars' day, Oct 31.
    expect(first).toEqual(expect.arrayContaining(['Nov 2', 'Oct 31']));
    expect(first.at(-1)).toBe('Analytics Hub · 2026-10-27 to 2026-11-02 · Page 1 of 2');

    // Where each follower history begins inside the period, as the screen says it (the line wraps in the PDF).
    expect(second[0]).toBe('Follower history');
    expect(second.slice(1, second.indexOf('Derived by Analytics Hub')).join(' ')).toBe(
      'Follower history begins on Oct 31, 2026 for YouTube and on Nov 2, 2026 for TikTok: the total is drawn from Nov 2, 2026, when every history has begun.',
    );

    // Platform distribution legend: followers and whole percentages.
    expect(second.slice(second.indexOf('Platform Distribution') + 1, second.indexOf('Top Content'))).toEqual([
      'YouTube',
      '1,010 followers',
      '66.4%',
      'TikTok',
      '510 followers',
      '33.6%',
    ]);
    // Top content by engagement (likes + comments + shares), titles as written (a PDF runs no formulas).
    expect(second.slice(second.indexOf('Top Content') + 1, second.indexOf('Records'))).toEqual([
      'Rank', 'Title', 'Platform', 'Engagements',
      '#1', 'Comma, "quoted" line', 'YouTube', '50',
      '#2', '@mention me', 'TikTok', '40',
      '#3', EVIL_TITLE, 'YouTube', '35',
      '#4', '-5 tips', 'TikTok', '2',
    ]);
    expect(after(second, 'Records')).toBe('All 13 records in this period. The CSV and JSON exports hold the same records.');
    const table = second.slice(second.indexOf('Content title') + 1, -1);
    expect(table).toEqual(
      EXPECTED.flatMap(([date, platform, metric, value, title]) => [
        date,
        platform,
        metric,
        new Intl.NumberFormat('en-US').format(value),
        // Characters no embedded font has (Chinese, Japanese, Korean) are shown as "?".
        ...(title === null ? [] : [title.replace('\n', ' ').replace('日本', '??')]),
      ]),
    );
    expect(second.at(-1)).toBe('Analytics Hub · 2026-10-27 to 2026-11-02 · Page 2 of 2');
  });

  it('draws titles in Cyrillic, Greek, Vietnamese, Polish and Turkish as written, leaves emoji out and shows "?" for what no font has', async () => {
    const carol = await signUpWithAccess(server);
    const youtube = await insertConnection(carol.user.id, 'youtube', 10);
    await content(youtube, 'c-multi', `${MULTILINGUAL_TITLE} 🌴🔥`, '2026-11-01', { likes: 5 }, '2026-11-01T12:00:00Z');
    await content(youtube, 'c-trip', 'Trip 🌴🔥', '2026-11-01', { likes: 4 }, '2026-11-01T12:00:00Z');
    await content(youtube, 'c-cjk', '👨‍👩‍👧 Café 日本', '2026-11-01', { likes: 3 }, '2026-11-01T12:00:00Z');
    const text = (await pdfPages((await download('format=pdf&days=7', carol)).bytes)).flat();
    expect(text.slice(text.indexOf('Top Content') + 1, text.indexOf('Records'))).toEqual([
      'Rank', 'Title', 'Platform', 'Engagements',
      '#1', MULTILINGUAL_TITLE, 'YouTube', '5',
      '#2', 'Trip', 'YouTube', '4',
      '#3', 'Café ??', 'YouTube', '3',
    ]);
    const records = text.slice(text.indexOf('Content title') + 1, -1);
    expect(records.filter((item) => /[^\x20-\x7e]|Trip/.test(item))).toEqual([MULTILINGUAL_TITLE, 'Trip', 'Café ??']);
  });

  it('says which records it lists when there are more than it shows, and says so when there are none', async () => {
    const youtubeOnly = await pdfPages((await download('format=pdf&days=7&platformId=1&metricType=likes')).bytes);
    const text = youtubeOnly.flat();
    expect(text[text.indexOf('Platform') + 1]).toBe('YouTube');
    expect(text[text.indexOf('Metric') + 1]).toBe('likes');
    expect(text).toContain('All 3 records in this period. The CSV and JSON exports hold the same records.');

    const empty = (await pdfPages((await download('format=pdf&platformId=2')).bytes)).flat();
    for (const message of ['No followers data available', 'No engagement data available', 'No platform data available', 'No content data available', 'No records in this period']) {
      expect(empty).toContain(message);
    }
  });
});

describe('bad input, access and isolation', () => {
  it.each([
    ['format=xlsx', /format must be one of csv, json, pdf/],
    ['days=7', /format/],
    ['format=csv&page=2', /Unknown field/],
    ['format=csv&days=0', /days must be at least 1/],
    ['format=csv&startDate=2026-11-02&endDate=2026-10-01', /startDate must not be after endDate/],
    ['format=csv&platformId=9', /platformId must be at most 6/],
    ['format=pdf&startDate=tomorrow', /ISO date/],
  ])('answers 400 with a message for %s', async (query, message) => {
    const response = await server.request('GET', `/api/analytics/export?${query}`, { token: alice.token });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('answers 401 without a session; without a subscription or trial the user still exports their own data (the lapsed allowlist)', async () => {
    expect((await download('format=csv', null)).status).toBe(401);
    const lapsed = (await server.signUp()) as Account;
    const response = await server.request('GET', '/api/analytics/export?format=csv', { token: lapsed.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
  });

  it('never includes another user’s rows, in any format', async () => {
    for (const format of ['csv', 'json', 'pdf']) {
      const mine = await download(`format=${format}&days=90`);
      expect(mine.status).toBe(200);
      const text = format === 'pdf' ? (await pdfPages(mine.bytes)).flat().join('\n') : mine.bytes.toString('utf8');
      expect(text).not.toContain('Bob video');
      expect(text).not.toMatch(/999[,]?999|123[,]?456/);
    }
    // And Bob sees his own.
    const bobs = JSON.parse((await download('format=json&days=7', bob)).bytes.toString('utf8'));
    expect(bobs.records).toEqual([
      { date: '2026-11-01', platformName: 'YouTube', metricType: 'subscribers', value: 999_999, contentTitle: null, derivation: GAINED_AND_LOST },
      { date: '2026-11-01', platformName: 'YouTube', metricType: 'views', value: 123_456, contentTitle: null, derivation: null },
      { date: '2026-11-01', platformName: 'YouTube', metricType: 'likes', value: 99_999, contentTitle: 'Bob video', derivation: null },
    ]);
  });
});
