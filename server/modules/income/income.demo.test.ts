// The income view on the sandbox's demo accounts, end to end over real HTTP: a monetised YouTube channel synced from
// the platform sandbox (estimatedRevenue split into ads, YouTube Premium and the rest), a Patreon campaign in euros,
// and the ECB sandbox's rates. Decision 023.
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomeResponse } from '#contract/income.ts';
import { startEcbSandbox, type EcbSandbox } from '../../../sandbox/exchange-rates/ecb-sandbox.ts';
import { accountMetrics, patreonPatronEvents } from '../../db/schema.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createExchangeRates } from './exchange-rates.ts';

let server: TestServer;
let ecb: EcbSandbox;

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  ecb = await startEcbSandbox({ now: () => server.clock.now() });
  await createExchangeRates({ db: server.db, clock: server.clock, apiUrl: ecb.baseUrl, timeoutMs: 5_000, logger: server.app.log }).refresh();
});
afterAll(async () => {
  await ecb?.close();
  await server?.close();
});

describe('the income view on the demo accounts', () => {
  it('splits the synced YouTube revenue exactly, converts the euro pledges with a dated ECB rate, and compares income with views', async () => {
    const account = await signUpWithAccess(server);
    const youtube = await connect(server, account, 'youtube', { account: 1 });
    expect(youtube.status).toBe(200);
    const patreon = await connect(server, account, 'patreon', { account: 0 });
    expect(patreon.status).toBe(200);
    // Chosen before the first sync: kept, though Patreon's pledge events name dollars for this campaign.
    expect((await server.request('PATCH', `/api/platformconnections/${patreon.body.id}`, { token: account.token, body: { currency: 'EUR' } })).status).toBe(200);
    for (const connectionId of [youtube.body.id, patreon.body.id]) expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle' });

    const { status, body } = await server.request<IncomeResponse>('GET', '/api/income?startDate=2026-10-01&endDate=2026-11-02&granularity=month', { token: account.token });
    expect(status).toBe(200);
    expect(body.periods.map((period) => period.period)).toEqual(['2026-10', '2026-11']);
    const october = body.periods[0]!;
    const amount = (source: string) => october.lines.find((line) => line.source === source)!.original.amount;
    expect(amount('youtube_ad')).toBeGreaterThan(0);
    expect(amount('youtube_premium')).toBeGreaterThan(0);
    expect(amount('youtube_other')).toBeGreaterThanOrEqual(0);
    // The three parts add up to YouTube's estimated revenue as stored, to the cent.
    const [stored] = await server.db
      .select({ revenue: sql<number>`sum(${accountMetrics.value})::float8` })
      .from(accountMetrics)
      .where(and(eq(accountMetrics.connectionId, youtube.body.id), eq(accountMetrics.metricType, 'revenue'), sql`${accountMetrics.date} between '2026-10-01' and '2026-10-31'`));
    expect(amount('youtube_ad') + amount('youtube_premium') + amount('youtube_other')).toBeCloseTo(stored!.revenue, 2);

    // Patreon's pledges: each day's monthly level (the days before the first sync from the members list) over the
    // month's days, in euros, converted at the ECB's rate. The whole range is covered, October included.
    expect(october.lines.map((line) => line.source)).toContain('patreon_pledges');
    const november = body.periods[1]!;
    const pledges = november.lines.find((line) => line.source === 'patreon_pledges')!;
    expect(pledges.original.currency).toBe('EUR');
    const [levels] = await server.db
      .select({ value: sql<number>`sum(${accountMetrics.value})::float8` })
      .from(accountMetrics)
      .where(and(eq(accountMetrics.connectionId, patreon.body.id), eq(accountMetrics.metricType, 'monthly_pledges'), sql`${accountMetrics.date} between '2026-11-01' and '2026-11-02'`));
    expect(levels!.value).toBeGreaterThan(0);
    expect(pledges.original.amount).toBeCloseTo(levels!.value / 30, 9);
    expect(body.rates).toEqual([{ currency: 'EUR', rate: expect.any(Number), rateDate: '2026-10-30', source: 'European Central Bank' }]);
    expect(pledges.converted).toBeCloseTo(pledges.original.amount * body.rates[0]!.rate, 9);
    expect(body.totals.total).not.toBeNull();

    // New and churned patrons: counted from the joins and departures stored, unknown (null) while there are none.
    const [events] = await server.db.select({ value: count() }).from(patreonPatronEvents).where(inArray(patreonPatronEvents.connectionId, [patreon.body.id]));
    if (events!.value === 0) expect(november.patrons).toMatchObject({ new: null, churned: null });
    else expect(november.patrons.new).toEqual(expect.any(Number));

    expect(body.shares.map((share) => share.platform)).toEqual(['youtube', 'patreon']);
    expect(body.shares[0]!.viewsShare).toBe(1);
    expect(body.shares.reduce((sum, share) => sum + share.incomeShare!, 0)).toBeCloseTo(1, 12);
    expect(body.totals.incomePer1000Views).toBeCloseTo((body.totals.total! / body.totals.views) * 1000, 9);
  }, 180_000);
});
