// Patreon amounts are in the campaign's currency and no API field names it (the sandbox's second demo campaign
// charges in euros). The creator sets the currency on the connection; until then, and for any currency but USD, the
// pledges are shown apart and never added to the dollar total. Free-trial and gifted members are members, not
// paying patrons, and bring no revenue.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics } from '../../db/schema.ts';
import { connect, signUpWithAccess, type Account } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { platformSandboxOf } from '../../test/platforms.ts';

let server: TestServer;
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

async function metric(type: string): Promise<number> {
  const [row] = await server.db
    .select({ value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, type)))
    .orderBy(desc(accountMetrics.date))
    .limit(1);
  // The latest: today's reading (the days before the first sync are derived from the members list).
  return Number(row!.value);
}

const summary = async () => (await server.request('GET', '/api/analytics/summary', { token: account.token })).body;
const setCurrency = (currency: unknown, id = connectionId, token = account.token) =>
  server.request('PATCH', `/api/platformconnections/${id}`, { token, body: { currency } });

describe('Patreon members and currency', () => {
  it('counts free-trial and gifted members as members, not as paying patrons', async () => {
    const patrons = await metric('patrons');
    const members = await metric('members');
    expect(patrons).toBe(platformSandboxOf(server).accounts.patreon[1]!.followers);
    // The demo campaign has at least two members on a free trial and one gifted membership at every clock.
    expect(members - patrons).toBeGreaterThanOrEqual(3);
    const [listed] = (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
    expect(listed).toMatchObject({ id: connectionId, followers: patrons, currency: null });
  });

  it('adds pledges of a campaign whose currency is not set to no total, and says so', async () => {
    const pledges = await metric('monthly_pledges');
    expect(pledges).toBeGreaterThan(0);
    expect(await summary()).toMatchObject({ totalRevenue: 0, pledgesNotInUsd: [{ currency: null, periodAmount: expect.any(Number), monthlyAmount: pledges, connections: 1 }] });
  });

  it('keeps euro pledges in euros, and adds dollar pledges to the dollar total', async () => {
    const pledges = await metric('monthly_pledges');
    const euros = await setCurrency('eur');
    expect(euros.status).toBe(200);
    expect(euros.body).toMatchObject({ id: connectionId, currency: 'EUR' });
    const inEuros = await summary();
    expect(inEuros).toMatchObject({ totalRevenue: 0, pledgesNotInUsd: [{ currency: 'EUR', monthlyAmount: pledges, connections: 1 }] });
    // The last 30 days' pledges: each day's monthly level over the days of its month.
    const periodAmount = inEuros.pledgesNotInUsd[0].periodAmount;
    expect(periodAmount).toBeGreaterThan(0);

    expect((await setCurrency('USD')).body.currency).toBe('USD');
    expect(await summary()).toMatchObject({ totalRevenue: periodAmount, pledgesNotInUsd: [] });

    expect((await setCurrency(null)).body.currency).toBeNull();
    expect((await summary()).totalRevenue).toBe(0);
  });

  it('refuses what is not an ISO 4217 code, a platform that names its currency, and another user\'s connection', async () => {
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
    expect((await setCurrency('EUR', connectionId, stranger.token)).status).toBe(404);
    expect((await setCurrency('EUR', 2_147_483_647)).status).toBe(404);
    const [listed] = (await server.request('GET', '/api/platformconnections', { token: account.token })).body;
    expect(listed.currency).toBeNull();
  });
});
