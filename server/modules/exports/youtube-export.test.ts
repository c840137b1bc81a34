// GET /api/youtubeanalytics/export over HTTP against hand-written YouTube rows: the video table as CSV, JSON and
// PDF, every page of it, revenue only with revenue access, another user's channel never, bad input and the gate.
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel, type SeedVideo } from '../../test/youtube-factory.ts';

let server: TestServer;
let alice: Account; // a monetised channel of 205 videos (three pages of the videos call)
let bob: Account; // another user's channel
let carol: Account; // no YouTube connection
let erin: Account; // a channel without the monetary scope

const VIDEO_COUNT = 205;
const MULTILINGUAL_TITLE = 'Влог: Αθήνα, Hà Nội, Łódź, İzmir';

function aliceVideo(index: number): SeedVideo {
  if (index === 0) {
    return {
      videoId: 'evilVideo01',
      title: '=cmd|" /C calc"!A0, "fun"',
      views: 2000,
      likes: 150,
      comments: 50,
      watchTimeMinutes: 900,
      estimatedRevenue: 12.5,
      estimatedAdRevenue: 9,
      cpm: 4.1,
      impressions: 20_000,
      clickThroughRate: 5.2,
      averageViewPercentage: 45,
    };
  }
  if (index === 1) return { videoId: 'minusVideo1', title: '-10 tips', views: 1000, likes: 40, comments: 10, watchTimeMinutes: 300, estimatedRevenue: 3 };
  return { title: `Video ${index}`, views: 100 + index, likes: 1, comments: 0, watchTimeMinutes: 10 };
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  alice = await signUpWithAccess(server);
  bob = await signUpWithAccess(server);
  carol = await signUpWithAccess(server);
  erin = await signUpWithAccess(server);
  const now = server.clock.now();
  await seedYoutubeChannel(server.db, { userId: alice.user.id, now, title: 'Alice Cooks', videos: Array.from({ length: VIDEO_COUNT }, (_, index) => aliceVideo(index)) });
  await seedYoutubeChannel(server.db, { userId: bob.user.id, now, title: 'Bob', videos: [{ title: 'Bob secret video', views: 999_999 }] });
  await seedYoutubeChannel(server.db, {
    userId: erin.user.id,
    now,
    title: 'Erin',
    revenueAccess: 'missingScope',
    videos: [{ videoId: 'erinVideo01', title: 'Erin video', views: 500, likes: 5, comments: 5, estimatedRevenue: 7 }],
  });
});
afterAll(async () => {
  await server?.close();
});

async function download(query: string, account: Account | null = alice) {
  const response = await fetch(`${server.baseUrl}/api/youtubeanalytics/export?${query}`, {
    headers: account ? { authorization: `Bearer ${account.token}` } : {},
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The PDF's text runs, every page, as a PDF reader extracts them. */
async function pdfText(bytes: Buffer): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false }).promise;
  const text: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    text.push(...content.items.map((item) => ('str' in item ? item.str : '')).filter((value) => value.trim() !== ''));
  }
  await pdf.destroy();
  return text;
}

const csvLines = (bytes: Buffer) => {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines.pop()).toBe('');
  return lines;
};

describe('YouTube videos export', () => {
  it('writes every video of the table as CSV, in the table’s order, cell by cell', async () => {
    const response = await download('format=csv&sort=views&order=desc');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-youtube-videos-2026-11-02.csv"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const lines = csvLines(response.bytes);
    expect(lines[0]).toBe(
      'Video ID,Title,Published,URL,Views,Watch time (minutes),Likes,Comments,Engagement rate (%),Estimated revenue (USD),Estimated ad revenue (USD),CPM (USD),Impressions,Click-through rate (%),Average percentage viewed (%),Estimated fields',
    );
    expect(lines.length).toBe(VIDEO_COUNT + 1);
    // (150 + 50) / 2000 = 10 %, exact from real counts (not flagged); the title is formula-escaped and quoted.
    expect(lines[1]).toBe(`evilVideo01,"'=cmd|"" /C calc""!A0, ""fun""",2026-11-01,https://www.youtube.com/watch?v=evilVideo01,2000,900,150,50,10,12.5,9,4.1,20000,5.2,45,`);
    expect(lines[2]!.startsWith("minusVideo1,'-10 tips,2026-10-31,https://www.youtube.com/watch?v=minusVideo1,1000,300,40,10,5,3,")).toBe(true);
    // Then Video 204 (304 views) down to Video 2 (102 views): all three pages of the videos call, none twice.
    const views = lines.slice(3).map((line) => Number(line.split(',')[4]));
    expect(views).toEqual(Array.from({ length: VIDEO_COUNT - 2 }, (_, index) => 100 + VIDEO_COUNT - 1 - index));
    expect(response.bytes.toString('utf8')).not.toContain('Bob secret video');
  });

  it('follows the search, and writes JSON with the same videos', async () => {
    const response = await download('format=json&search=tips');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const document = JSON.parse(response.bytes.toString('utf8'));
    expect(document).toMatchObject({ exportedAt: '2026-11-02T10:00:00.000Z', filters: { search: 'tips' }, revenueAccess: 'available' });
    expect(document.videos).toHaveLength(1);
    expect(document.videos[0]).toMatchObject({ videoId: 'minusVideo1', title: '-10 tips', views: 1000, estimatedRevenue: 3, engagementRate: 5 });
    expect(document.videos[0]).not.toHaveProperty('thumbnailUrl');

    const all = JSON.parse((await download('format=json')).bytes.toString('utf8'));
    expect(all.videos).toHaveLength(VIDEO_COUNT);
    expect(new Set(all.videos.map((video: { id: number }) => video.id)).size).toBe(VIDEO_COUNT);
  });

  it('leaves revenue empty without revenue access, as the YouTube screen does', async () => {
    const lines = csvLines((await download('format=csv', erin)).bytes);
    expect(lines).toHaveLength(2);
    const cells = lines[1]!.split(',');
    expect(cells.slice(0, 2)).toEqual(['erinVideo01', 'Erin video']);
    expect(cells[9]).toBe('');
    expect(cells[10]).toBe('');
  });

  it('gives an empty file without a YouTube channel', async () => {
    expect(csvLines((await download('format=csv', carol)).bytes)).toHaveLength(1);
    expect(JSON.parse((await download('format=json', carol)).bytes.toString('utf8')).videos).toEqual([]);
  });

  it('makes a PDF report with the channel numbers and the first videos, as a PDF reader extracts them', async () => {
    const response = await download('format=pdf&sort=views');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(response.bytes);
    const after = (label: string) => text[text.indexOf(label) + 1];
    expect(text.slice(0, 2)).toEqual(['Analytics Hub', 'YouTube report']);
    expect(after('Channel')).toBe('Alice Cooks');
    expect(after('Sorted by')).toBe('Views, descending');
    expect(after('Total Videos')).toBe(String(VIDEO_COUNT));
    expect(text).toContain('The first 50 of 205 videos. Export CSV or JSON from the YouTube screen for every video.');
    const table = text.slice(text.indexOf('Revenue', text.indexOf('Video Performance')) + 1);
    expect(table.slice(0, 7)).toEqual(['1', '=cmd|" /C calc"!A0, "fun"', '2026-11-01', '2,000', '900', '10', '$12.50']);
    expect(table.slice(7, 14)).toEqual(['2', '-10 tips', '2026-10-31', '1,000', '300', '5', '$3.00']);
    expect(text.join('\n')).not.toContain('Bob secret video');
  });

  it('draws the channel and video titles in Cyrillic, Greek, Vietnamese, Polish and Turkish as written, without emoji, "?" for what no font has', async () => {
    const dave = await signUpWithAccess(server);
    await seedYoutubeChannel(server.db, {
      userId: dave.user.id,
      now: server.clock.now(),
      title: 'Канал Ελλάδα 🔥',
      videos: [
        { title: `${MULTILINGUAL_TITLE} 🌴🔥`, views: 300 },
        { title: 'Trip 🌴🔥', views: 200 },
        { title: '👍🏽 Café 日本', views: 100 },
      ],
    });
    const text = await pdfText((await download('format=pdf&sort=views', dave)).bytes);
    expect(text[text.indexOf('Channel') + 1]).toBe('Канал Ελλάδα');
    const table = text.slice(text.indexOf('Revenue', text.indexOf('Video Performance')) + 1);
    expect([table[1], table[6], table[11]]).toEqual([MULTILINGUAL_TITLE, 'Trip', 'Café ??']);
  });

  it('answers 400 for bad input and 401 without a session; without access it still exports (the lapsed allowlist)', async () => {
    for (const [query, message] of [
      ['format=xml', /format must be one of csv, json, pdf/],
      ['format=csv&sort=likes', /sort must be one of/],
      ['format=csv&page=2', /Unknown field/],
    ] as const) {
      const response = await server.request('GET', `/api/youtubeanalytics/export?${query}`, { token: alice.token });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
    }
    expect((await download('format=csv', null)).status).toBe(401);
    const lapsed = (await server.signUp()) as Account;
    // The user's own data, taken along after the trial or subscription ended.
    expect((await download('format=csv', lapsed)).status).toBe(200);
  });
});
