// The ECB rates over real HTTP from the ECB sandbox (the same XML as www.ecb.europa.eu): the strict parser, the
// full-history file on a first fetch (kept as far back as the income view reaches), the daily file after and the
// 90-day file after a long stop, idempotent storage, and the income view converting with the
// stored rates (source and date beside them). Decision 023.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomeResponse } from '#contract/income.ts';
import { allPublicationDays, ecbXml, FIRST_PUBLICATION_DAY, latestPublicationDay, ninetyDays, sandboxRate, startEcbSandbox, type EcbSandbox } from '../../../sandbox/exchange-rates/ecb-sandbox.ts';
import { exchangeRates, platformConnections } from '../../db/schema.ts';
import { INCOME_MAX_DAYS } from '#contract/income.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createExchangeRates, ECB_SOURCE, ecbUrl, ExchangeRatesError, parseEcbXml } from './exchange-rates.ts';

let server: TestServer;
let ecb: EcbSandbox;

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  ecb = await startEcbSandbox({ now: () => server.clock.now() });
});
afterAll(async () => {
  await ecb?.close();
  await server?.close();
});

describe('the ECB rates file', () => {
  it('parses every dated cube, and refuses a file that is not the rates or holds a bad rate', () => {
    const rates = parseEcbXml(ecbXml(['2026-10-30', '2026-10-29']));
    expect(rates).toHaveLength(60);
    expect(rates[0]).toEqual({ day: '2026-10-30', currency: 'USD', perEuro: sandboxRate('USD', '2026-10-30') });
    expect(() => parseEcbXml('<html>Service unavailable</html>')).toThrow(ExchangeRatesError);
    expect(() => parseEcbXml(ecbXml([]))).toThrow('no dated rates');
    expect(() => parseEcbXml(ecbXml(['2026-10-30']).replace(/rate='[^']+'/, "rate='n/a'"))).toThrow('not a positive number');
    // Days before `since` are not read: a bad rate there does not refuse the days kept.
    const withOldBadDay = ecbXml(['2026-10-30', '2001-05-04']).replace(/(time='2001-05-04'>\s*<Cube currency='USD') rate='[^']+'/, "$1 rate='n/a'");
    expect(() => parseEcbXml(withOldBadDay)).toThrow('not a positive number');
    expect(parseEcbXml(withOldBadDay, '2026-01-01').map((rate) => rate.day)).toEqual(Array(30).fill('2026-10-30'));
  });

  it('is published on weekdays after 15:00 UTC; the 90-day file holds about 64 of them', () => {
    expect(latestPublicationDay(new Date('2026-11-02T10:00:00Z'))).toBe('2026-10-30'); // Monday morning: Friday's
    expect(latestPublicationDay(new Date('2026-11-02T16:00:00Z'))).toBe('2026-11-02');
    const days = ninetyDays(new Date('2026-11-02T10:00:00Z'));
    expect(days[0]).toBe('2026-10-30');
    expect(days.every((day) => ![0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()))).toBe(true);
    expect(days.length).toBeGreaterThanOrEqual(62);
    // Realistic: the dollar stays within a few per cent of its level.
    for (const day of days) expect(sandboxRate('USD', day)).toBeGreaterThan(1.04);
  });

  it('is addressed like every platform: <apiUrl>/www.ecb.europa.eu/<path>, the ECB itself without one', () => {
    expect(ecbUrl('/stats/eurofxref/eurofxref-daily.xml', undefined)).toBe('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml');
    expect(ecbUrl('/stats/eurofxref/eurofxref-daily.xml', 'http://127.0.0.1:9')).toBe('http://127.0.0.1:9/www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml');
  });
});

describe('fetching and storing the rates', () => {
  it('reads the full history first (kept as far back as the income view reaches), the daily file after, stores each rate once, and the income view converts with them', async () => {
    const rates = createExchangeRates({ db: server.db, clock: server.clock, apiUrl: ecb.baseUrl, timeoutMs: 5_000, logger: server.app.log });
    const first = await rates.refresh();
    expect(first).toMatchObject({ file: 'full history', newestDay: '2026-10-30' });
    expect(ecb.calls.at(-1)).toBe('/www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml');
    expect(allPublicationDays(server.clock.now()).at(-1)).toBe(FIRST_PUBLICATION_DAY);
    const stored = await server.db.select().from(exchangeRates).where(eq(exchangeRates.currency, 'USD'));
    const oldestKept = addDays(dayOf(server.clock.now()), -INCOME_MAX_DAYS - 7);
    expect(stored).toHaveLength(allPublicationDays(server.clock.now()).filter((day) => day >= oldestKept).length);
    // An income view of the longest range finds a rate on or before its first day.
    expect(stored.some((row) => row.day <= addDays(dayOf(server.clock.now()), -INCOME_MAX_DAYS))).toBe(true);
    expect(stored.every((row) => row.source === ECB_SOURCE)).toBe(true);

    const again = await rates.refresh();
    expect(again).toMatchObject({ file: 'daily', rates: 30 });
    expect(ecb.calls.at(-1)).toBe('/www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml');
    expect(await server.db.select().from(exchangeRates).where(eq(exchangeRates.currency, 'USD'))).toHaveLength(stored.length);

    // A EUR campaign of 310 € a month, read on Oct 1: each October day's 10 € at that day's rate (weekends: Friday's).
    const maya = await signUpWithAccess(server);
    const { insertConnection, daily } = analyticsFactory(() => server);
    const patreon = await insertConnection(maya.user.id, 'patreon', 20);
    await server.db.update(platformConnections).set({ currency: 'EUR' }).where(eq(platformConnections.id, patreon));
    await daily(patreon, '2026-10-01', { monthly_pledges: 310 });
    const { body } = await server.request<IncomeResponse>('GET', '/api/income?startDate=2026-10-31&endDate=2026-11-01&granularity=day', { token: maya.token });
    // Saturday and Sunday use Friday's (Oct 30) rate.
    const friday = sandboxRate('USD', '2026-10-30')!;
    expect(body.periods[0]!.total).toBeCloseTo(10 * friday, 9);
    // November has 30 days: 310 / 30 € on Nov 1.
    expect(body.periods[1]!.total).toBeCloseTo((310 / 30) * friday, 9);
    expect(body.rates).toEqual([{ currency: 'EUR', rate: friday, rateDate: '2026-10-30', source: ECB_SOURCE }]);
  });

  it('after a stop of some weeks, fills the gap from the 90-day file', async () => {
    const rates = createExchangeRates({ db: server.db, clock: server.clock, apiUrl: ecb.baseUrl, timeoutMs: 5_000, logger: server.app.log });
    await rates.refresh();
    server.clock.advance(30 * 86_400_000);
    try {
      expect(await rates.refresh()).toMatchObject({ file: '90-day', newestDay: latestPublicationDay(server.clock.now()) });
      expect(ecb.calls.at(-1)).toBe('/www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml');
      const usd = await server.db.select({ day: exchangeRates.day }).from(exchangeRates).where(eq(exchangeRates.currency, 'USD'));
      const days = new Set(usd.map((row) => row.day));
      expect(ninetyDays(server.clock.now()).every((day) => days.has(day))).toBe(true);
    } finally {
      server.clock.advance(-30 * 86_400_000);
    }
  });

  it('fails in words when the ECB cannot be read, and stores nothing', async () => {
    const rates = createExchangeRates({ db: server.db, clock: server.clock, apiUrl: `${ecb.baseUrl}/missing`, timeoutMs: 5_000, logger: server.app.log });
    await expect(rates.refresh()).rejects.toThrow('The ECB answered 404');
  });
});
