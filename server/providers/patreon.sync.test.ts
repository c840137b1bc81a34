// The Patreon adapter against the platform sandbox (../shared/platform-apis-corrections.md rows 27–29): members in
// pages of 1000 (the documented size), a per-creation campaign's amounts stored as per-post pledges and never
// divided into a month, requests paced to Patreon's limits so the sandbox never has to answer 429, and the campaign's
// currency read from its pledge events (`currency_code`) while the connection has none. Through the product (sync
// engine, database) and the adapter alone.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, platformConnections } from '../db/schema.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../test/platforms.ts';
import { syncNow } from '../test/sync.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createPacer, PATREON_LIMITS } from './patreon-pacing.ts';
import { campaignCurrencyOf, type PatreonSyncExtras, type PatreonSyncState, syncPatreon } from './patreon.sync.ts';
import { PlatformError } from './platform-error.ts';
import type { SyncOutput } from './provider.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

const connections = new Map<number, Promise<{ account: Account; connectionId: number }>>();
function demoConnection(index: number) {
  if (!connections.has(index)) {
    connections.set(
      index,
      (async () => {
        const account = await signUpWithAccess(server);
        const response = await connect(server, account, 'patreon', { account: index });
        if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
        return { account, connectionId: response.body.id as number };
      })(),
    );
  }
  return connections.get(index)!;
}

/**
 * The adapter alone on a demo connection (Maya: more than 1000 members), with `pacer`; `state`: what the sync
 * extension knows (a connection whose currency is known by default, as after its first sync).
 */
async function runAdapter(index: number, pacer = createPacer(), state: PatreonSyncState = { currency: 'USD' }): Promise<SyncOutput<PatreonSyncExtras>> {
  const { connectionId } = await demoConnection(index);
  const [connection] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
  const { context, accessToken } = await server.tokenCustody.withPlatformAccess(connection!, async (access) => access);
  const today = server.clock.now().toISOString().slice(0, 10);
  return syncPatreon(context, { accessToken, platformUserId: connection!.platformUserId, scope: connection!.scope, since: today, today, firstSync: false, contentSince: server.clock.now(), knownContentIds: new Set(), extraState: state }, pacer);
}

const metric = (output: SyncOutput, type: string) => output.daily.find((row) => row.metricType === type)?.value;

describe('members pages', () => {
  it('asks 1000 members a page, the documented size (row 27): a campaign of more than 1000 takes two pages', async () => {
    const sandbox = platformSandboxOf(server);
    const before = sandbox.countCalls('patreon', 'campaign.members');
    const output = await runAdapter(0);
    const members = output.extra!.members.length;
    expect(members).toBeGreaterThan(1000);
    expect(sandbox.countCalls('patreon', 'campaign.members') - before).toBe(Math.ceil(members / 1000));
  });
});

describe('the campaign currency, from the pledge events (Patreon/platform-documentation _resources_v2.md "Pledge Event": currency_code)', () => {
  it('while the connection has none, the first members page brings its members\' pledge events (500 a page then, row 27): their one currency is the campaign\'s', async () => {
    const sandbox = platformSandboxOf(server);
    for (const [index, currency] of [[0, 'USD'], [1, 'EUR']] as const) {
      const before = sandbox.countCalls('patreon', 'campaign.members');
      const output = await runAdapter(index, createPacer(), { currency: null });
      expect(output.extra!.campaignCurrency).toBe(currency);
      // No request of its own: the first page is the one read anyway, 500 members instead of 1000.
      const members = output.extra!.members.length;
      expect(sandbox.countCalls('patreon', 'campaign.members') - before).toBe(1 + Math.ceil(Math.max(0, members - 500) / 1000));
    }
  });

  it('a connection with a currency reads no pledge events and names none; neither does a campaign whose events name none', async () => {
    expect((await runAdapter(1, createPacer(), { currency: 'GBP' })).extra!.campaignCurrency).toBeNull();
    const { settings } = platformSandboxOf(server);
    settings.patreonPledgeHistory = 'empty';
    try {
      const output = await runAdapter(1, createPacer(), { currency: null });
      expect(output.extra!.campaignCurrency).toBeNull();
      // The members are read all the same.
      expect(output.extra!.members.length).toBeGreaterThan(0);
    } finally {
      settings.patreonPledgeHistory = 'recorded';
    }
  });

  it('a campaign whose patrons pay in several currencies names none: the creator is asked, never a guess', async () => {
    const { settings } = platformSandboxOf(server);
    settings.patreonPledgeHistory = 'mixed';
    try {
      expect((await runAdapter(0, createPacer(), { currency: null })).extra!.campaignCurrency).toBeNull();
    } finally {
      settings.patreonPledgeHistory = 'recorded';
    }
  });

  it('one known ISO 4217 code, or nothing: patrons paying in several currencies name no campaign currency', () => {
    expect(campaignCurrencyOf(['EUR', 'eur', ' EUR '])).toBe('EUR');
    expect(campaignCurrencyOf(['EUR', 'USD'])).toBeNull();
    expect(campaignCurrencyOf([])).toBeNull();
    expect(campaignCurrencyOf([null, undefined, ''])).toBeNull();
    expect(campaignCurrencyOf(['XYZ'])).toBeNull();
    expect(campaignCurrencyOf(['EURO'])).toBeNull();
  });
});

describe('per-creation campaigns (row 28)', () => {
  it('a campaign billed by the month stores monthly pledges; one billed per post stores per-post pledges, the amounts undivided, and no monthly figure', async () => {
    const { settings } = platformSandboxOf(server);
    const monthly = await runAdapter(0);
    expect(monthly.extra!.billing).toBe('monthly');
    expect(metric(monthly, 'monthly_pledges')).toBeGreaterThan(0);
    expect(metric(monthly, 'per_post_pledges')).toBeUndefined();
    settings.patreonBilling = 'per_creation';
    try {
      const perPost = await runAdapter(0);
      expect(perPost.extra!.billing).toBe('per_creation');
      expect(metric(perPost, 'monthly_pledges')).toBeUndefined();
      const paying = perPost.extra!.members.filter((member) => member.paying);
      // The sum of what each paying patron pledges per post, as Patreon answers it (no cadence divides it).
      expect(metric(perPost, 'per_post_pledges')).toBe(Math.round(paying.reduce((sum, member) => sum + member.monthlyAmountCents, 0)) / 100);
      expect(metric(perPost, 'patrons')).toBe(paying.length);
    } finally {
      settings.patreonBilling = 'monthly';
    }
  });

  it('through the product: a per-creation campaign\'s first sync stores per-post pledges (today and the history before it), never monthly pledges', async () => {
    const { settings } = platformSandboxOf(server);
    settings.patreonBilling = 'per_creation';
    try {
      const { account, connectionId } = await demoConnection(1);
      expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
      const rows = async (type: string) => server.db.select().from(accountMetrics).where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, type)));
      expect(await rows('monthly_pledges')).toEqual([]);
      expect((await rows('per_post_pledges')).length).toBeGreaterThan(1);
    } finally {
      settings.patreonBilling = 'monthly';
    }
  });
});

describe('pacing (row 29)', () => {
  it('many syncs of one creator at once never meet a 429: the adapter waits for the minute window instead', async () => {
    // The pacer on the server's clock; its wait moves that clock (the sandbox's too) instead of sleeping.
    const waits: number[] = [];
    const pacer = createPacer({
      now: () => server.clock.now().getTime(),
      sleep: async (ms) => {
        waits.push(ms);
        server.clock.advance(ms);
      },
    });
    // The connection's own identity read and the other tests' requests out of both windows first: this pacer counts
    // only what it sends.
    await demoConnection(2);
    server.clock.advance(PATREON_LIMITS.perToken.windowMs + 1_000);
    const started = server.clock.now().getTime();
    let calls = 0;
    while (calls <= PATREON_LIMITS.perToken.requests + 10) calls += (await runAdapter(2, pacer)).usage.calls;
    expect(waits.length).toBeGreaterThan(0);
    // More than 100 requests of one token: at least a minute went by, and no answer was a 429 (each run succeeded).
    expect(server.clock.now().getTime() - started).toBeGreaterThanOrEqual(PATREON_LIMITS.perToken.windowMs);
  });

  it('a wait longer than the pacer takes stops the sync as rate limited, with when to come back', async () => {
    let now = 0;
    const pacer = createPacer({ now: () => now, sleep: async () => {}, maxWaitMs: 1_000 });
    for (let k = 0; k < PATREON_LIMITS.perToken.requests; k += 1) {
      await pacer.beforeRequest('client', 'creator');
      now += 30; // under 100 per 2 s at the client, 100 within 3 s at the token
    }
    const refused = await pacer.beforeRequest('client', 'creator').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).kind).toBe('rate_limited');
    // The first request (at 0) leaves the minute at 60 s; it is 3 s now.
    expect((refused as PlatformError).details.retryAfterSeconds).toBe(57);
    // Another creator of the same client is not held back by the first one's minute.
    now += 2_000;
    await expect(pacer.beforeRequest('client', 'other creator')).resolves.toBeUndefined();
  });
});
