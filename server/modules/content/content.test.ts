// GET /api/content and GET /api/content/export over HTTP (decision 017): the user's posts only, the platform filter,
// every sort in both orders with missing numbers last, paging without overlap, 400s in words, and the CSV file
// (byte-order mark, formula-safe cells, the "vs your typical" sentence and the ratios).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentListResponse, ContentPost } from '#contract/content.ts';
import { contentItems, contentMetrics, platformConnections } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let alice: Account; // 12 TikTok posts with a 7-day read, 3 Instagram posts
let bob: Account; // one TikTok post
const tiktok: number[] = []; // Alice's TikTok posts by k (published Sep 1 + k days)
let igFormula: number;
let igCaption: number;
let igUndated: number;

const DAY_MS = 86_400_000;
const dayOf = (date: Date, plusDays = 0) => new Date(date.getTime() + plusDays * DAY_MS).toISOString().slice(0, 10);
/** The latest views of TikTok post k: a permutation of 5000…6100, so the views order is neither k's nor its reverse. */
const latestViews = (k: number) => 5000 + 100 * ((5 * k) % 12);

async function connection(userId: number, platform: string, displayName: string, platformUsername: string) {
  const now = server.clock.now();
  const [row] = await server.db
    .insert(platformConnections)
    .values({ userId, platform, platformUserId: `${platform}-${userId}`, displayName, platformUsername, followers: 0, connectedAt: now, updatedAt: now })
    .returning();
  return row!.id;
}

async function post(
  connectionId: number,
  item: { key: string; title: string; description?: string; url?: string; publishedAt: Date | null },
  reads: { asOf: string; values: Record<string, number> }[],
) {
  const [row] = await server.db
    .insert(contentItems)
    .values({ connectionId, platformContentId: item.key, title: item.title, description: item.description ?? null, url: item.url ?? null, publishedAt: item.publishedAt })
    .returning();
  const rows = reads.flatMap(({ asOf, values }) => Object.entries(values).map(([metricType, value]) => ({ contentItemId: row!.id, connectionId, metricType, asOf, value })));
  if (rows.length > 0) await server.db.insert(contentMetrics).values(rows);
  return row!.id;
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true }); // the clock reads 2026-11-02T10:00Z
  [alice, bob] = [await signUpWithAccess(server), await signUpWithAccess(server)];

  // TikTok post k, published at midnight Sep 1 + k: 2000 − 100k views and 10 + k likes at exactly 7 days (the read of
  // day 6 stands for its end), so each has the 11 others to compare with at 7 days, and its views ratio falls as k
  // grows. No read near 24 h or 28 days. The latest read (Nov 1): latestViews(k), 20 + k likes and 1 comment.
  const tok = await connection(alice.user.id, 'tiktok', 'Alice Tok', 'alicetok');
  for (let k = 0; k < 12; k += 1) {
    const published = new Date(Date.UTC(2026, 8, 1 + k));
    tiktok.push(
      await post(tok, { key: `tt-${k}`, title: `Alice TikTok ${k}`, url: `https://www.tiktok.com/@alicetok/video/${k}`, publishedAt: published }, [
        { asOf: dayOf(published, 6), values: { views: 2000 - 100 * k, likes: 10 + k, comments: 0 } },
        { asOf: '2026-11-01', values: { views: latestViews(k), likes: 20 + k, comments: 1 } },
      ]),
    );
  }
  const gram = await connection(alice.user.id, 'instagram', 'Alice Insta', 'alice.gram');
  // 34 hours old: 24 h reached (300 views, read at the end of Nov 1) with nothing to compare with; 7 days not reached.
  igFormula = await post(gram, { key: 'ig-formula', title: '=HYPERLINK("http://x","click")', publishedAt: new Date('2026-11-01T00:00:00Z') }, [
    { asOf: '2026-11-01', values: { views: 300, likes: 30 } },
  ]);
  // No title: the caption's first line stands in (and starts with a formula trigger).
  igCaption = await post(gram, { key: 'ig-caption', title: '', description: '\n+1 caption line\nsecond line', publishedAt: new Date('2026-10-15T00:00:00Z') }, [
    { asOf: '2026-11-01', values: { views: 50 } },
  ]);
  igUndated = await post(gram, { key: 'ig-undated', title: 'Undated', publishedAt: null }, []);

  const bobTok = await connection(bob.user.id, 'tiktok', 'Bob Tok', 'bobtok');
  await post(bobTok, { key: 'bob-1', title: 'Bob secret post', publishedAt: new Date('2026-10-01T00:00:00Z') }, [{ asOf: '2026-11-01', values: { views: 7 } }]);
});
afterAll(async () => {
  await server?.close();
});

const list = async (query = '', account: Account = alice) => {
  const response = await server.request<ContentListResponse>('GET', `/api/content${query ? `?${query}` : ''}`, { token: account.token });
  expect(response.status).toBe(200);
  return response.body;
};
const ids = (body: ContentListResponse) => body.posts.map((entry) => entry.id);
const byK = (...ks: number[]) => ks.map((k) => tiktok[k]!);
const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, index) => (from <= to ? from + index : from - index));

async function download(query: string, account: Account = alice) {
  const response = await fetch(`${server.baseUrl}/api/content/export?${query}`, { headers: { authorization: `Bearer ${account.token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const csvLines = (bytes: Buffer) => {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines.pop()).toBe('');
  return lines;
};

describe('GET /api/content', () => {
  it('lists the user’s posts newest first, with account, title, latest counts and the three ages’ figures', async () => {
    const body = await list();
    expect(body).toMatchObject({ page: 1, pageSize: 25, total: 15, platforms: ['instagram', 'tiktok'] });
    // Newest first; the undated post last.
    expect(ids(body)).toEqual([igFormula, igCaption, ...byK(...range(11, 0)), igUndated]);
    const first = body.posts.find((entry) => entry.id === tiktok[0]) as ContentPost;
    expect(first).toMatchObject({
      platform: 'tiktok',
      account: { name: 'Alice Tok', username: 'alicetok' },
      title: 'Alice TikTok 0',
      url: 'https://www.tiktok.com/@alicetok/video/0',
      publishedAt: '2026-09-01T00:00:00.000Z',
      views: latestViews(0),
      engagements: 21,
    });
    expect(first.benchmarks.map((entry) => entry.age)).toEqual(['24h', '7d', '28d']);
    // At 7 days: 2000 against the others' 1900…900, median 1400; above all 11.
    expect(first.benchmarks[1]!.views).toEqual({ status: 'ok', value: 2000, median: 1400, ratio: 2000 / 1400, percentile: 100, n: 11 });
    expect(first.benchmarks[0]!.views.status).toBe('noData');
    const caption = body.posts.find((entry) => entry.id === igCaption)!;
    expect(caption).toMatchObject({ title: '+1 caption line', views: 50, engagements: null });
    const undated = body.posts.at(-1)!;
    expect(undated).toMatchObject({ title: 'Undated', publishedAt: null, views: null, engagements: null });
  });

  it('filters by platform; a platform without an account answers no posts', async () => {
    const tok = await list('platform=tiktok');
    expect(tok.total).toBe(12);
    expect(tok.posts.every((entry) => entry.platform === 'tiktok')).toBe(true);
    expect(tok.platforms).toEqual(['instagram', 'tiktok']);
    expect(await list('platform=youtube')).toMatchObject({ posts: [], total: 0 });
  });

  it('sorts by views and engagements both ways, posts without the number last either way', async () => {
    const tokByViews = range(0, 11).sort((a, b) => latestViews(b) - latestViews(a));
    expect(ids(await list('sort=views'))).toEqual([...byK(...tokByViews), igFormula, igCaption, igUndated]);
    expect(ids(await list('sort=views&order=asc'))).toEqual([igCaption, igFormula, ...byK(...tokByViews.reverse()), igUndated]);
    // Engagements 21 + k; Instagram's 30 ties with k = 9 and comes first (newer). No count: last.
    const engagements = ids(await list('sort=engagements&order=desc'));
    expect(engagements.slice(0, 4)).toEqual([...byK(11, 10), igFormula, tiktok[9]]);
    expect(engagements.slice(-2)).toEqual([igCaption, igUndated]);
    expect(ids(await list('sort=publishedAt&order=asc'))).toEqual([...byK(...range(0, 11)), igCaption, igFormula, igUndated]);
  });

  it('sorts by the ratio at an age and by what the column shows, posts without a ratio last either way', async () => {
    const withoutRatio = [igFormula, igCaption, igUndated];
    for (const sort of ['ratio7d', 'typical']) {
      expect(ids(await list(`sort=${sort}`))).toEqual([...byK(...range(0, 11)), ...withoutRatio]);
      expect(ids(await list(`sort=${sort}&order=asc`))).toEqual([...byK(...range(11, 0)), ...withoutRatio]);
    }
    // No post has a ratio at 24 hours: the newest-first order stands.
    expect(ids(await list('sort=ratio24h'))).toEqual(ids(await list()));
    // Paged after sorting.
    const second = await list('sort=ratio7d&order=desc&page=2&pageSize=5');
    expect(second).toMatchObject({ page: 2, pageSize: 5, total: 15 });
    expect(ids(second)).toEqual(byK(5, 6, 7, 8, 9));
  });

  it('pages without overlap or gaps, and says the total past the last page', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const body = await list(`sort=views&pageSize=4&page=${page}`);
      expect(body).toMatchObject({ page, pageSize: 4, total: 15 });
      seen.push(...ids(body));
    }
    expect(seen).toEqual(ids(await list('sort=views')));
    expect(await list('pageSize=4&page=5')).toMatchObject({ posts: [], total: 15, page: 5 });
  });

  it('shows Bob only his own post, whatever the filter', async () => {
    const body = await list('', bob);
    expect(body).toMatchObject({ total: 1, platforms: ['tiktok'] });
    expect(body.posts[0]).toMatchObject({ title: 'Bob secret post', account: { name: 'Bob Tok' } });
    expect(await list('platform=instagram', bob)).toMatchObject({ posts: [], total: 0 });
    for (const query of ['sort=ratio7d', 'sort=views&pageSize=100', 'platform=tiktok&sort=typical&order=asc']) {
      expect(JSON.stringify(await list(query, bob))).not.toContain('Alice');
    }
  });

  it('answers bad queries 400 in words', async () => {
    for (const [query, message] of [
      ['sort=title', 'sort must be one of publishedAt, views, engagements, typical, ratio24h, ratio7d, ratio28d'],
      ['order=up', 'order must be asc or desc'],
      ['platform=myspace', 'platform must be one of youtube'],
      ['page=0', 'page must be at least 1'],
      ['page=x', 'page must be a whole number'],
      ['pageSize=101', 'pageSize must be at most 100'],
    ]) {
      const response = await server.request('GET', `/api/content?${query}`, { token: alice.token });
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body).toMatchObject({ code: 'bad_request' });
      expect(response.body.message).toContain(message);
    }
    expect((await server.request('GET', '/api/content?userId=1', { token: alice.token })).status).toBe(400);
    expect((await download('format=pdf')).status).toBe(400);
    expect((await download('')).status).toBe(400);
    expect((await download('format=csv&sort=nope')).status).toBe(400);
  });

  it('needs a session and premium access; the export needs only a session (the lapsed allowlist)', async () => {
    expect((await server.request('GET', '/api/content')).status).toBe(401);
    const noAccess = await server.signUp();
    expect((await server.request('GET', '/api/content', { token: noAccess.token })).status).toBe(402);
    expect((await server.request('GET', '/api/content/export?format=csv', { token: noAccess.token })).status).toBe(200);
  });
});

describe('GET /api/content/export', () => {
  it('writes every post in the table’s order as CSV, with the sentence, the ratios and formula-safe cells', async () => {
    const response = await download('format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-posts-2026-11-02.csv"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const lines = csvLines(response.bytes);
    expect(lines[0]).toBe(
      'Post ID,Platform,Account,Title,URL,Published,Views,Engagements,Vs your typical,Compared on,Views ratio at 24 hours,Views ratio at 7 days,Views ratio at 28 days,Engagements ratio at 24 hours,Engagements ratio at 7 days,Engagements ratio at 28 days',
    );
    expect(lines.length).toBe(16);
    // The title is a formula: escaped with a quote, then quoted for its commas and quotes.
    expect(lines[1]).toBe(
      `${igFormula},Instagram,Alice Insta @alice.gram,"'=HYPERLINK(""http://x"",""click"")",,2026-11-01T00:00:00.000Z,300,30,Not enough posts to compare at 24 hours (0 of 10 needed),,,,,,,`,
    );
    expect(lines[2]).toBe(`${igCaption},Instagram,Alice Insta @alice.gram,'+1 caption line,,2026-10-15T00:00:00.000Z,50,,No reading at 24 hours,,,,,,,`);
    // Post k = 0, the oldest: 1.4× (2000 / 1400) at 7 days on views; engagements 10 against 11…21 (median 16).
    expect(lines[14]).toBe(
      `${tiktok[0]},TikTok,Alice Tok @alicetok,Alice TikTok 0,https://www.tiktok.com/@alicetok/video/0,2026-09-01T00:00:00.000Z,${latestViews(0)},21,1.4× your typical at 7 days (n = 11),views,,${2000 / 1400},,,${10 / 16},`,
    );
    expect(lines[15]).toBe(`${igUndated},Instagram,Alice Insta @alice.gram,Undated,,,,,No reading at 24 hours,,,,,,,`);
    expect(response.bytes.toString('utf8')).not.toContain('Bob secret post');
  });

  it('takes the platform filter and the order, and holds only the user’s posts', async () => {
    const lines = csvLines((await download('format=csv&platform=tiktok&sort=ratio7d&order=asc')).bytes);
    expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(byK(...range(11, 0)));
    const bobs = await download('format=csv', bob);
    expect(bobs.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-posts-2026-11-02.csv"');
    const bobLines = csvLines(bobs.bytes);
    expect(bobLines).toHaveLength(2);
    expect(bobLines[1]).toContain('Bob secret post');
    expect(bobs.bytes.toString('utf8')).not.toContain('Alice');
    const filtered = await download('format=csv&platform=instagram', bob);
    expect(filtered.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-posts-instagram-2026-11-02.csv"');
    expect(csvLines(filtered.bytes)).toHaveLength(1);
  });
});
