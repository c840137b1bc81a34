// Patreon amounts are in the campaign's currency, which no campaign, member or tier attribute names; the members'
// pledge events do (`currency_code`, Patreon/platform-documentation `_resources_v2.md` "Pledge Event"), and the
// sandbox serves them as the real API does (Maya's campaign charges in dollars, Theo's in euros). The first sync sets
// that currency on the connection, so totals, forecasts and Income count the pledges at once, with no settings call.
// A currency the creator chose is never replaced; when the events name none, the connection has none and the
// creator is asked (the pledges are shown apart, added to no total). Free-trial and gifted members are members, not
// paying patrons, and bring no revenue.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsSummary } from '#contract/analytics.ts';
import { shiftDay } from '#contract/comparison.ts';
import type { ForecastsResponse } from '#contract/forecasts.ts';
import type { IncomeResponse } from '#contract/income.ts';
import { accountMetrics } from '../../db/schema.ts';
import { dayOf } from '../../lib/dates.ts';
import { connect, platformSandboxOf, signUpWithAccess, type Account } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
/** Theo's campaign in euros (demo account index 1), connected and synced. */
let account: Account;
let connectionId: number;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'patreon', { account: 1 });
  expect(connected.status).toBe(200);
  connectionId = connected.body.id;
  expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
});
afterAll(async () => {
  await server?.close();
});

async function metric(type: string, id = connectionId): Promise<number> {
  const [row] = await server.db
    .select({ value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, id), eq(accountMetrics.metricType, type)))
    .orderBy(desc(accountMetrics.date))
    .limit(1);
  // The latest: today's reading (the days before the first sync are derived from the members list).
  return Number(row!.value);
}

const get = async <T>(path: string, token = account.token): Promise<T> => {
  const response = await server.request<T>('GET', path, { token });
  expect(response.status, path).toBe(200);
  return response.body;
};
const summary = (token = account.token) => get<AnalyticsSummary>('/api/analytics/summary', token);
const currencyOf = async (id = connectionId, token = account.token) => (await get<{ id: number; currency: string | null }[]>('/api/platformconnections', token)).find((connection) => connection.id === id)!.currency;
const setCurrency = (currency: unknown, id = connectionId, token = account.token) =>
  server.request('PATCH', `/api/platformconnections/${id}`, { token, body: { currency } });
const cents = (value: number) => Math.round(value * 100);

describe('the campaign currency, read from Patreon at the first sync', () => {
  it('a dollar campaign counts in the totals, the forecast and Income at once, with no settings call', async () => {
    const creator = await signUpWithAccess(server);
    const connected = await connect(server, creator, 'patreon', { account: 0 });
    expect(connected.status).toBe(200);
    expect((await syncNow(server, creator.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
    expect(await currencyOf(connected.body.id, creator.token)).toBe('USD');

    // Patreon is the creator's only source: the 30 days' total revenue is its pledges, none left apart.
    const cards = await summary(creator.token);
    expect(cards.pledgesNotInUsd).toEqual([]);
    expect(cards.totalRevenue).toBeGreaterThan(0);
    const today = dayOf(server.clock.now());
    const income = await get<IncomeResponse>(`/api/income?startDate=${shiftDay(today, -29)}&endDate=${today}&granularity=day`, creator.token);
    expect(income.totals.unconverted).toEqual([]);
    expect(income.totals.totalsByCurrency).toEqual([{ currency: 'USD', amount: expect.any(Number) }]);
    expect(income.totals.total).not.toBeNull();
    expect(cents(income.totals.total!)).toBe(cents(cards.totalRevenue));
    expect(income.periods.flatMap((period) => period.lines).filter((line) => line.source === 'patreon_pledges').every((line) => line.original.currency === 'USD' && line.converted === line.original.amount)).toBe(true);

    const forecasts = await get<ForecastsResponse>('/api/forecasts', creator.token);
    expect(forecasts.income.patreon).not.toBeNull();
    expect(forecasts.income.leftOut).toBeNull();
  });

  it('a euro campaign is counted in euros: the connection says EUR, the dollar total leaves it apart, in euros', async () => {
    expect(await currencyOf()).toBe('EUR');
    const pledges = await metric('monthly_pledges');
    expect(await summary()).toMatchObject({ totalRevenue: 0, pledgesNotInUsd: [{ currency: 'EUR', monthlyAmount: pledges, connections: 1 }] });
  });

  it('counts free-trial and gifted members as members, not as paying patrons', async () => {
    const patrons = await metric('patrons');
    const members = await metric('members');
    expect(patrons).toBe(platformSandboxOf(server).accounts.patreon[1]!.followers);
    // The demo campaign has at least two members on a free trial and one gifted membership at every clock.
    expect(members - patrons).toBeGreaterThanOrEqual(3);
    const [listed] = await get<{ id: number; followers: number }[]>('/api/platformconnections');
    expect(listed).toMatchObject({ id: connectionId, followers: patrons });
  });

  it('a currency the creator chose is kept at every later sync, whatever Patreon names', async () => {
    const pledges = await metric('monthly_pledges');
    const pounds = await setCurrency('gbp');
    expect(pounds.status).toBe(200);
    expect(pounds.body).toMatchObject({ id: connectionId, currency: 'GBP' });
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
    expect(await currencyOf()).toBe('GBP');
    const inPounds = await summary();
    expect(inPounds).toMatchObject({ totalRevenue: 0, pledgesNotInUsd: [{ currency: 'GBP', monthlyAmount: pledges, connections: 1 }] });
    // The last 30 days' pledges: each day's monthly level over the days of its month.
    const periodAmount = inPounds.pledgesNotInUsd[0]!.periodAmount;
    expect(periodAmount).toBeGreaterThan(0);

    expect((await setCurrency('USD')).body.currency).toBe('USD');
    expect(await summary()).toMatchObject({ totalRevenue: periodAmount, pledgesNotInUsd: [] });
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle' });
    expect(await currencyOf()).toBe('USD');

    // Cleared, the currency is not known again: the pledges are added to no total until the next sync reads
    // Patreon's again.
    expect((await setCurrency(null)).body.currency).toBeNull();
    expect((await summary()).totalRevenue).toBe(0);
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle' });
    expect(await currencyOf()).toBe('EUR');
  });

  it('a campaign whose pledge events name no currency gets none: its pledges are added to no total until the creator answers, and the answer is kept', async () => {
    const { settings } = platformSandboxOf(server);
    const creator = await signUpWithAccess(server);
    settings.patreonPledgeHistory = 'empty';
    try {
      const connected = await connect(server, creator, 'patreon', { account: 2 });
      expect(connected.status).toBe(200);
      // The connect result: no currency yet (the first sync reads it).
      expect(connected.body.currency).toBeNull();
      const id = connected.body.id as number;
      expect((await syncNow(server, creator.token, id)).status).toMatchObject({ status: 'idle', message: null });
      expect(await currencyOf(id, creator.token)).toBeNull();
      const pledges = await metric('monthly_pledges', id);
      expect(await summary(creator.token)).toMatchObject({ totalRevenue: 0, pledgesNotInUsd: [{ currency: null, monthlyAmount: pledges, connections: 1 }] });

      expect((await setCurrency('CAD', id, creator.token)).status).toBe(200);
      // Patreon names dollars again: the creator's answer stands.
      settings.patreonPledgeHistory = 'recorded';
      expect((await syncNow(server, creator.token, id)).status).toMatchObject({ status: 'idle' });
      expect(await currencyOf(id, creator.token)).toBe('CAD');
    } finally {
      settings.patreonPledgeHistory = 'recorded';
    }
  });

  it('refuses what is not an ISO 4217 code, a platform that names its currency, and another user\'s connection', async () => {
    const before = await currencyOf();
    for (const bad of ['XYZ', 'euro', '', 12]) {
      const answer = await setCurrency(bad);
      expect(answer.status, String(bad)).toBe(400);
      expect(answer.body.message).toMatch(/currency/);
    }
    expect((await server.request('PATCH', `/api/platformconnections/${connectionId}`, { token: account.token, body: { currency: 'EUR', followers: 5 } })).status).toBe(400);

    const tiktok = await connect(server, account, 'tiktok', { account: 0 });
    const refused = await setCurrency('EUR', tiktok.body.id);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('TikTok names the currency of its amounts: there is no currency to set.');

    const stranger = await signUpWithAccess(server);
    expect((await setCurrency('GBP', connectionId, stranger.token)).status).toBe(404);
    expect((await setCurrency('GBP', 2_147_483_647)).status).toBe(404);
    expect(await currencyOf()).toBe(before);
  });
});
