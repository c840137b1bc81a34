// GET /api/income over HTTP against hand-written rows (figures computed by hand below): YouTube's revenue in three
// parts, a EUR campaign's pledges converted at the rate of each day, new/churned/net patrons, shares, income per
// 1,000 views; amounts without a rate or currency side by side and never summed; null (never 0) new and churned
// patrons without stored events; only the caller's own data; 4xx in words on bad input. Decision 023.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomeResponse } from '#contract/income.ts';
import { exchangeRates, patreonPatronEvents, platformConnections, users } from '../../db/schema.ts';
import { addDays } from '../../lib/dates.ts';
import { analyticsFactory } from '../../test/analytics-factory.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let maya: Account;
let nora: Account;
let mayaPatreon: number;

const { insertConnection, daily } = analyticsFactory(() => server);
const ECB = 'European Central Bank';

async function everyDay(connectionId: number, from: string, to: string, values: Record<string, number>) {
  for (let day = from; day <= to; day = addDays(day, 1)) await daily(connectionId, day, values);
}

async function income(account: Account, query: string) {
  return server.request<IncomeResponse>('GET', `/api/income?${query}`, { token: account.token });
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  // The test clock: 2026-11-02.
  maya = await signUpWithAccess(server);
  const youtube = await insertConnection(maya.user.id, 'youtube', 1200);
  await everyDay(youtube, '2026-10-01', '2026-10-31', { views: 1000, revenue: 10, ad_revenue: 8, premium_revenue: 1 });
  // A EUR campaign: 310 € a month is 10 € a day in October (31 days).
  mayaPatreon = await insertConnection(maya.user.id, 'patreon', 50);
  await server.db.update(platformConnections).set({ currency: 'EUR', platformUsername: 'maya-campaign' }).where(eq(platformConnections.id, mayaPatreon));
  await daily(mayaPatreon, '2026-09-30', { monthly_pledges: 310, patrons: 50 });
  await daily(mayaPatreon, '2026-10-31', { patrons: 55 });
  const events = [
    ...Array.from({ length: 7 }, (_, index) => ({ memberId: `m${index}`, occurredOn: '2026-10-05', kind: 'joined' })),
    ...Array.from({ length: 2 }, (_, index) => ({ memberId: `l${index}`, occurredOn: '2026-10-20', kind: 'left' })),
  ];
  await server.db.insert(patreonPatronEvents).values(events.map((event) => ({ ...event, connectionId: mayaPatreon })));
  // USD per euro: 1.10 from Sep 30, 1.20 from Oct 15 (the latest on or before each day applies).
  const fetchedAt = server.clock.now();
  await server.db.insert(exchangeRates).values([
    { day: '2026-09-30', currency: 'USD', perEuro: 1.1, source: ECB, fetchedAt },
    { day: '2026-10-15', currency: 'USD', perEuro: 1.2, source: ECB, fetchedAt },
  ]);

  // Nora: YouTube revenue and a GBP campaign with no GBP rate, and a campaign whose currency is not set; no events.
  nora = await signUpWithAccess(server);
  const noraYoutube = await insertConnection(nora.user.id, 'youtube', 10);
  await everyDay(noraYoutube, '2026-10-01', '2026-10-31', { views: 100, revenue: 2, ad_revenue: 2, premium_revenue: 0 });
  const gbp = await insertConnection(nora.user.id, 'patreon', 5);
  await server.db.update(platformConnections).set({ currency: 'GBP', platformUserId: 'nora-gbp-campaign' }).where(eq(platformConnections.id, gbp));
  await daily(gbp, '2026-10-01', { monthly_pledges: 62, patrons: 5 });
  const unset = await insertConnection(nora.user.id, 'patreon', 3);
  await daily(unset, '2026-10-01', { monthly_pledges: 31, patrons: 3 });
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/income by month', () => {
  it('splits YouTube revenue, converts the EUR pledges at each day’s rate, and counts patrons', async () => {
    const response = await income(maya, 'startDate=2026-10-01&endDate=2026-10-31&granularity=month');
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.displayCurrency).toBe('USD');
    expect(body.periods).toHaveLength(1);
    const [october] = body.periods;
    expect(october!.period).toBe('2026-10');
    const line = (source: string) => october!.lines.find((candidate) => candidate.source === source)!;
    expect(line('youtube_ad').original).toEqual({ currency: 'USD', amount: 248 });
    expect(line('youtube_premium').original).toEqual({ currency: 'USD', amount: 31 });
    expect(line('youtube_other').original.amount).toBeCloseTo(31, 9);
    // 310 € over October's 31 days: exactly the monthly amount.
    expect(line('patreon_pledges').original.currency).toBe('EUR');
    expect(line('patreon_pledges').original.amount).toBeCloseTo(310, 9);
    expect(line('patreon_pledges').account).toBe('maya-campaign');
    // 14 days at 1.10 (11 $ a day) and 17 days at 1.20 (12 $ a day).
    expect(line('patreon_pledges').converted).toBeCloseTo(14 * 11 + 17 * 12, 9);
    expect(october!.total).toBeCloseTo(310 + 358, 9);
    expect(october!.views).toBe(31_000);
    expect(october!.patrons).toEqual({ new: 7, churned: 2, net: 5 });
    expect(body.rates).toEqual([{ currency: 'EUR', rate: 1.2, rateDate: '2026-10-15', source: ECB }]);
    expect(body.totals.incomePer1000Views).toBeCloseTo((668 / 31_000) * 1000, 9);
    expect(body.shares).toEqual([
      { platform: 'youtube', incomeReported: true, income: 310, incomeShare: expect.closeTo(310 / 668, 9), views: 31_000, viewsShare: 1 },
      { platform: 'patreon', incomeReported: true, income: expect.closeTo(358, 9), incomeShare: expect.closeTo(358 / 668, 9), views: 0, viewsShare: 0 },
    ]);
  });

  it('says a platform whose income no API reports has none reported, never $0.00, and leaves it out of the shares', async () => {
    const ola = await signUpWithAccess(server);
    const youtube = await insertConnection(ola.user.id, 'youtube', 10);
    const tiktok = await insertConnection(ola.user.id, 'tiktok', 10);
    for (let day = '2026-10-01'; day <= '2026-10-31'; day = addDays(day, 1)) {
      await daily(youtube, day, { views: 300, revenue: 2 });
      await daily(tiktok, day, { views: 100 });
    }
    const { body } = await income(ola, 'startDate=2026-10-01&endDate=2026-10-31');
    expect(body.shares).toEqual([
      { platform: 'youtube', incomeReported: true, income: expect.closeTo(62, 9), incomeShare: 1, views: 9_300, viewsShare: 0.75 },
      { platform: 'tiktok', incomeReported: false, income: null, incomeShare: null, views: 3_100, viewsShare: 0.25 },
    ]);
  });

  it('answers per day: a day holds a day of pledges at that day’s rate', async () => {
    const { body } = await income(maya, 'startDate=2026-10-14&endDate=2026-10-15&granularity=day');
    expect(body.periods.map((period) => period.period)).toEqual(['2026-10-14', '2026-10-15']);
    expect(body.periods[0]!.total).toBeCloseTo(10 + 11, 9);
    expect(body.periods[1]!.total).toBeCloseTo(10 + 12, 9);
    expect(body.periods[0]!.patrons).toEqual({ new: 0, churned: 0, net: 0 });
  });

  it('converts into the display currency: US dollars into euros at the same rates', async () => {
    await server.db.update(users).set({ displayCurrency: 'EUR' }).where(eq(users.id, maya.user.id));
    try {
      const { body } = await income(maya, 'startDate=2026-10-14&endDate=2026-10-15&granularity=day');
      expect(body.displayCurrency).toBe('EUR');
      expect(body.periods[0]!.total).toBeCloseTo(10 / 1.1 + 10, 9);
      expect(body.periods[1]!.total).toBeCloseTo(10 / 1.2 + 10, 9);
      expect(body.rates).toEqual([{ currency: 'USD', rate: expect.closeTo(1 / 1.2, 12), rateDate: '2026-10-15', source: ECB }]);
    } finally {
      await server.db.update(users).set({ displayCurrency: 'USD' }).where(eq(users.id, maya.user.id));
    }
  });

  it('never sums amounts without a rate or a currency: they stand side by side, shares and income per 1,000 views are null', async () => {
    const { body } = await income(nora, 'startDate=2026-10-01&endDate=2026-10-31');
    const [october] = body.periods;
    expect(october!.total).toBeNull();
    expect(october!.totalsByCurrency).toEqual([
      { currency: 'USD', amount: 62 },
      { currency: 'GBP', amount: expect.closeTo(62, 9) },
      { currency: null, amount: expect.closeTo(31, 9) },
    ]);
    expect(october!.lines.find((line) => line.original.currency === 'GBP')!.converted).toBeNull();
    expect(body.totals.total).toBeNull();
    expect(body.totals.unconverted).toEqual([
      { currency: 'GBP', amount: expect.closeTo(62, 9) },
      { currency: null, amount: expect.closeTo(31, 9) },
    ]);
    expect(body.totals.incomePer1000Views).toBeNull();
    expect(body.shares.find((share) => share.platform === 'youtube')).toMatchObject({ income: 62, incomeShare: null });
    expect(body.shares.find((share) => share.platform === 'patreon')).toMatchObject({ income: null, incomeShare: null });
    expect(body.rates).toEqual([]);
    // No patron events stored: unknown, not 0. Net from the counts (8 on Oct 31, none before Oct 1).
    expect(october!.patrons).toEqual({ new: null, churned: null, net: null });
    const later = await income(nora, 'startDate=2026-10-02&endDate=2026-10-31');
    expect(later.body.periods[0]!.patrons).toEqual({ new: null, churned: null, net: 0 });
  });

  it('nets the joins and departures when the campaign’s patron counts do not cover the period (never a dash beside them)', async () => {
    const ivy = await signUpWithAccess(server);
    const campaign = await insertConnection(ivy.user.id, 'patreon', 20);
    await server.db.update(platformConnections).set({ currency: 'USD' }).where(eq(platformConnections.id, campaign));
    await daily(campaign, '2026-10-01', { monthly_pledges: 100 });
    await server.db.insert(patreonPatronEvents).values([
      ...Array.from({ length: 5 }, (_, index) => ({ connectionId: campaign, memberId: `j${index}`, occurredOn: '2026-10-03', kind: 'joined' })),
      { connectionId: campaign, memberId: 'gone', occurredOn: '2026-10-09', kind: 'left' },
    ]);
    const { body } = await income(ivy, 'startDate=2026-10-01&endDate=2026-10-31&granularity=month');
    expect(body.periods[0]!.patrons).toEqual({ new: 5, churned: 1, net: 4 });
  });

  it('stops at today, and answers an empty view to a user without income sources', async () => {
    const { body } = await income(maya, 'startDate=2026-10-30&endDate=2026-12-31&granularity=day');
    expect(body.endDate).toBe('2026-11-02');
    expect(body.periods.at(-1)!.period).toBe('2026-11-02');
    const newcomer = await signUpWithAccess(server);
    const empty = await income(newcomer, 'startDate=2026-10-01&endDate=2026-10-31');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ hasIncomeSources: false, shares: [], totals: { total: 0, totalsByCurrency: [], unconverted: [], views: 0, incomePer1000Views: null } });
  });
});

describe('the display currency setting', () => {
  it('is saved in Settings, shown by the income view, and refused in words when the ECB publishes no rate for it', async () => {
    const account = await signUpWithAccess(server);
    expect((await server.request('GET', '/api/settings/account', { token: account.token })).body.displayCurrency).toBe('USD');
    const saved = await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { displayCurrency: 'EUR' } });
    expect(saved).toMatchObject({ status: 200, body: { message: 'Your display currency is saved.' } });
    expect((await server.request('GET', '/api/settings/account', { token: account.token })).body.displayCurrency).toBe('EUR');
    expect((await income(account, 'startDate=2026-10-01&endDate=2026-10-31')).body.displayCurrency).toBe('EUR');
    const refused = await server.request('PATCH', '/api/settings/profile', { token: account.token, body: { displayCurrency: 'XYZ' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('displayCurrency must be the euro or a currency the ECB publishes a rate for');
  });
});

describe('GET /api/income refuses', () => {
  it.each([
    ['startDate=2026-10-01', 'endDate'],
    ['startDate=2026-10-31&endDate=2026-10-01', 'on or before'],
    ['startDate=2026-10-01&endDate=2026-10-31&granularity=week', 'granularity must be one of day, month'],
    ['startDate=nope&endDate=2026-10-31', 'ISO date'],
    ['startDate=2020-01-01&endDate=2026-10-31', 'at most'],
    ['startDate=2026-10-01&endDate=2026-10-31&userId=1', 'userId'],
  ])('%s with a 400 in words', async (query, words) => {
    const response = await income(maya, query);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(words);
  });

  it('without access (402) or without a session (401)', async () => {
    const withoutSubscription = await server.signUp();
    expect((await server.request('GET', '/api/income?startDate=2026-10-01&endDate=2026-10-31', { token: withoutSubscription.token })).status).toBe(402);
    expect((await server.request('GET', '/api/income?startDate=2026-10-01&endDate=2026-10-31')).status).toBe(401);
  });
});
