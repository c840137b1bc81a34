// GET /api/income/export over HTTP against hand-written rows: the income view as CSV (cell by cell), JSON (the API's
// answer with the currency note) and PDF (its text), amounts without a rate side by side in every format, only the
// caller's own data, and 400 in words on bad input.
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeRates, platformConnections } from '../../db/schema.ts';
import { addDays } from '../../lib/dates.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let maya: Account; // YouTube and a EUR campaign, with rates
let nora: Account; // YouTube and a GBP campaign, no GBP rate

const { insertConnection, daily } = analyticsFactory(() => server);

async function download(query: string, account: Account) {
  const response = await fetch(`${server.baseUrl}/api/income/export?${query}`, { headers: { authorization: `Bearer ${account.token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const require = createRequire(import.meta.url);
  const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false }).promise;
  const text: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    text.push(...content.items.map((item) => ('str' in item ? item.str : '')));
  }
  await pdf.destroy();
  return text.join(' ').replace(/\s+/g, ' ');
}

const csvLines = (bytes: Buffer) => bytes.subarray(3).toString('utf8').split('\r\n').filter((line) => line !== '');

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  maya = await signUpWithAccess(server);
  const youtube = await insertConnection(maya.user.id, 'youtube', 100);
  for (let day = '2026-10-01'; day <= '2026-10-31'; day = addDays(day, 1)) await daily(youtube, day, { views: 1000, revenue: 10, ad_revenue: 8, premium_revenue: 1 });
  const patreon = await insertConnection(maya.user.id, 'patreon', 50);
  await server.db.update(platformConnections).set({ currency: 'EUR', platformUsername: 'maya-campaign' }).where(eq(platformConnections.id, patreon));
  await daily(patreon, '2026-09-30', { monthly_pledges: 310, patrons: 50 });
  await daily(patreon, '2026-10-31', { patrons: 55 });
  await server.db.insert(exchangeRates).values({ day: '2026-09-30', currency: 'USD', perEuro: 1.1, source: 'European Central Bank', fetchedAt: server.clock.now() });

  nora = await signUpWithAccess(server);
  const noraYoutube = await insertConnection(nora.user.id, 'youtube', 10);
  await daily(noraYoutube, '2026-10-05', { views: 100, revenue: 2, ad_revenue: 2, premium_revenue: 0 });
  const gbp = await insertConnection(nora.user.id, 'patreon', 5);
  await server.db.update(platformConnections).set({ currency: 'GBP' }).where(eq(platformConnections.id, gbp));
  await daily(gbp, '2026-10-01', { monthly_pledges: 62 });
});
afterAll(async () => {
  await server?.close();
});

describe('income export', () => {
  it('writes the view as CSV: a row per source, the period total, and the rate with its source and date', async () => {
    const response = await download('format=csv&startDate=2026-10-01&endDate=2026-10-31', maya);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-hub-income-2026-10-01-2026-10-31-by-month.csv"');
    const lines = csvLines(response.bytes);
    expect(lines).toEqual([
      'Period,Start date,End date,Row,Account,Currency,Amount,Display currency,Amount in display currency,Views,New patrons,Churned patrons,Net patrons',
      '2026-10,2026-10-01,2026-10-31,YouTube ads,,USD,248,USD,248,,,,',
      '2026-10,2026-10-01,2026-10-31,YouTube Premium,,USD,31,USD,31,,,,',
      '2026-10,2026-10-01,2026-10-31,"YouTube other (memberships, Super Chat, …)",,USD,31,USD,31,,,,',
      '2026-10,2026-10-01,2026-10-31,Patreon pledges,maya-campaign,EUR,310,USD,341,,,,',
      // No patron events stored: new and churned are empty (unknown), never 0.
      '2026-10,2026-10-01,2026-10-31,Total,,USD,651,USD,651,31000,,,5',
      '2026-09-30,2026-09-30,2026-09-30,Rate: 1 EUR in USD,European Central Bank,EUR,1.1,USD,,,,,',
    ]);
  });

  it('never sums amounts without a rate, in the CSV, the JSON and the PDF', async () => {
    const csv = csvLines((await download('format=csv&startDate=2026-10-01&endDate=2026-10-31', nora)).bytes);
    expect(csv.filter((line) => line.includes('Total'))).toEqual([
      '2026-10,2026-10-01,2026-10-31,Total in USD (not converted),,USD,2,USD,,100,,,',
      '2026-10,2026-10-01,2026-10-31,Total in GBP (not converted),,GBP,62,USD,,,,,',
    ]);
    const json = JSON.parse((await download('format=json&startDate=2026-10-01&endDate=2026-10-31', nora)).bytes.toString('utf8'));
    expect(json.totals.total).toBeNull();
    expect(json.currencyNote).toContain('shown side by side and not added up: £62.00.');
    const pdf = await download('format=pdf&startDate=2026-10-01&endDate=2026-10-31', nora);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Income report');
    expect(text).toContain('not added up');
    expect(text).toContain('no rate');
  });

  it('gives the PDF the totals, the rate note and the shares, by day too', async () => {
    const text = await pdfText((await download('format=pdf&startDate=2026-10-01&endDate=2026-10-31', maya)).bytes);
    expect(text).toContain('$651.00');
    expect(text).toContain('1 EUR = 1.1000 USD (European Central Bank, Sep 30, 2026)');
    expect(text).toContain('Share of income vs share of views');
    const byDay = await download('format=json&startDate=2026-10-01&endDate=2026-10-03&granularity=day', maya);
    expect(JSON.parse(byDay.bytes.toString('utf8')).periods.map((period: { period: string }) => period.period)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
  });

  it('answers only the caller’s own view, and 400 in words on bad input', async () => {
    const other = await signUpWithAccess(server);
    const csv = (await download('format=csv&startDate=2026-10-01&endDate=2026-10-31', other)).bytes.toString('utf8');
    expect(csv).not.toContain('maya-campaign');
    expect(csvLines(Buffer.from(csv)).slice(1)).toEqual(['2026-10,2026-10-01,2026-10-31,Total,,USD,0,USD,0,0,,,']);
    const bad = await download('format=xls&startDate=2026-10-01&endDate=2026-10-31', maya);
    expect(bad.status).toBe(400);
    expect(bad.bytes.toString('utf8')).toContain('format must be one of csv, json, pdf');
    expect((await download('format=csv&startDate=2026-10-31&endDate=2026-10-01', maya)).status).toBe(400);
  });
});
