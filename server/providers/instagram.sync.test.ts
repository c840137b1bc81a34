// The Instagram adapter's account insights against the platform sandbox (issue 24: a history start is not growth):
// a first sync reads the daily totals as far back as Meta keeps them (two years) and the follower changes for the
// last 30 days; a later sync reads only its own window; a day Meta has no data for stores nothing; throttling and a
// dead token in the middle of the history stop the sync. Through the product (sync engine, database), and the
// adapter alone behind a proxy that can change one answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMetrics, platformConnections } from '../db/schema.ts';
import { addDays, dayOf } from '../lib/dates.ts';
import { type Account, connect, platformSandboxOf, signUpWithAccess } from '../test/platforms.ts';
import { syncNow } from '../test/sync.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { ACCOUNT_INSIGHT_HISTORY_DAYS, FOLLOWER_INSIGHT_DAYS, syncInstagram } from './instagram.sync.ts';
import { PlatformError } from './platform-error.ts';
import type { ProviderContext, SyncOutput } from './provider.ts';

const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

const today = () => dayOf(server.clock.now());
/** The day a `since` of an insights request starts (Unix seconds at midnight UTC). */
const dayOfSince = (since: string | null) => dayOf(new Date(Number(since) * 1000));

/** The small demo account (Ivy: few posts, so the account insights are most of a sync), connected once per server. */
let ivy: Promise<{ account: Account; connectionId: number }> | undefined;
function ivyConnection() {
  ivy ??= (async () => {
    const account = await signUpWithAccess(server);
    const response = await connect(server, account, 'instagram', { account: 2 });
    if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
    return { account, connectionId: response.body.id as number };
  })();
  return ivy;
}

async function storedDays(connectionId: number, metricType: string) {
  const rows = await server.db
    .select({ date: accountMetrics.date, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, metricType)));
  return new Map(rows.map((row) => [row.date, row.value]));
}

describe('through the product', () => {
  it('a first sync stores daily views, reach and interactions back to the two-year horizon, follower totals for the last 30 days', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await ivyConnection();
    const before = sandbox.countCalls('instagram', 'user.insights');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', message: null });
    const horizon = addDays(today(), -ACCOUNT_INSIGHT_HISTORY_DAYS);
    for (const metric of ['views', 'reach', 'engagements']) {
      const days = await storedDays(connectionId, metric);
      const dates = [...days.keys()].sort();
      expect({ metric, first: dates[0], last: dates.at(-1), days: dates.length }).toEqual({ metric, first: horizon, last: addDays(today(), -1), days: ACCOUNT_INSIGHT_HISTORY_DAYS });
      expect([...days.values()].every((value) => value > 0), metric).toBe(true);
    }
    // Followers: derived from the follows and unfollows of the last 30 days, back from today's count.
    const followers = [...(await storedDays(connectionId, 'followers')).keys()].sort();
    expect({ first: followers[0], days: followers.length }).toEqual({ first: addDays(today(), -FOLLOWER_INSIGHT_DAYS), days: FOLLOWER_INSIGHT_DAYS + 1 });
    // One totals call a day for two years, one follows_and_unfollows call a day for 30 days.
    expect(sandbox.countCalls('instagram', 'user.insights') - before).toBe(ACCOUNT_INSIGHT_HISTORY_DAYS + FOLLOWER_INSIGHT_DAYS);
  });

  it('a later sync reads only its window (the days since the last sync, three of them again) and keeps the history', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await ivyConnection();
    const views = await storedDays(connectionId, 'views');
    if (views.size === 0) await syncNow(server, account.token, connectionId);
    const history = await storedDays(connectionId, 'views');
    server.clock.advance(DAY);
    const before = sandbox.countCalls('instagram', 'user.insights');
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });
    // The last sync's day less three (platforms revise their last days) to yesterday: four days, totals and follows.
    expect(sandbox.countCalls('instagram', 'user.insights') - before).toBe(2 * 4);
    const after = await storedDays(connectionId, 'views');
    expect(after.size).toBe(history.size + 1);
    expect([...after.keys()].sort()[0]).toBe([...history.keys()].sort()[0]);
    expect(after.get(addDays(today(), -1))).toBeGreaterThan(0);
  });
});

describe('the adapter alone', () => {
  /** Each account-insights request the proxy saw, and what it answered. */
  type Seen = { metric: string | null; since: string; answered: 'sandbox' | 'changed' };

  /**
   * Runs the adapter on Ivy's connection through a proxy in front of the sandbox; `change` may answer an insights
   * request itself (status and body) instead of the sandbox.
   */
  async function throughProxy(change: (query: URLSearchParams) => { status: number; body: unknown } | null, input: { since: string; firstSync: boolean }) {
    const sandbox = platformSandboxOf(server);
    const seen: Seen[] = [];
    const proxy: Server = createServer(async (request, response) => {
      const url = new URL(request.url!, 'http://proxy');
      const insights = url.pathname.endsWith('/me/insights');
      const changed = insights ? change(url.searchParams) : null;
      if (insights) seen.push({ metric: url.searchParams.get('metric'), since: dayOfSince(url.searchParams.get('since')), answered: changed ? 'changed' : 'sandbox' });
      if (changed) {
        response.writeHead(changed.status, { 'content-type': 'application/json' }).end(JSON.stringify(changed.body));
        return;
      }
      const upstream = await fetch(`${sandbox.baseUrl}${request.url}`, { method: request.method, headers: request.headers as Record<string, string> });
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const { connectionId } = await ivyConnection();
      const [connection] = await server.db.select().from(platformConnections).where(eq(platformConnections.id, connectionId));
      // The adapter alone: the custody only lends its context and token (it would renew and retry on a 190).
      const { context, accessToken } = await server.tokenCustody.withPlatformAccess(connection!, async (access) => access);
      const proxied: ProviderContext = { ...context, url: (real) => context.url(real).replace(sandbox.baseUrl, base) };
      const outcome = await syncInstagram(proxied, {
        accessToken,
        platformUserId: connection!.platformUserId,
        scope: connection!.scope,
        since: input.since,
        today: today(),
        firstSync: input.firstSync,
        contentSince: server.clock.now(),
        knownContentIds: new Set(),
      }).then(
        (output: SyncOutput) => ({ output }),
        (error: unknown) => ({ error }),
      );
      return { ...outcome, seen };
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }

  const totalsOf = (query: URLSearchParams) => query.get('metric') === 'views,reach,total_interactions';

  it('a day Meta answers with an empty data set stores nothing for that day (unknown, not 0); the rest comes in day order, the same every time', async () => {
    const empty = addDays(today(), -400);
    const run = () => throughProxy((query) => (totalsOf(query) && dayOfSince(query.get('since')) === empty ? { status: 200, body: { data: [] } } : null), { since: addDays(today(), -ACCOUNT_INSIGHT_HISTORY_DAYS), firstSync: true });
    const first = await run();
    expect('error' in first ? first.error : null).toBeNull();
    const daily = 'output' in first ? first.output.daily : [];
    const viewDays = daily.filter((row) => row.metricType === 'views').map((row) => row.date);
    expect(viewDays).toHaveLength(ACCOUNT_INSIGHT_HISTORY_DAYS - 1);
    expect(daily.filter((row) => row.date === empty)).toEqual([]);
    expect(viewDays).toContain(addDays(empty, -1));
    expect(viewDays).toContain(addDays(empty, 1));
    // Several calls at once, yet the rows in day order, and the same rows on the same answers.
    expect([...viewDays].sort()).toEqual(viewDays);
    const second = await run();
    expect('output' in second ? second.output.daily : []).toEqual(daily);
    // follows_and_unfollows only for the last 30 days, even on a first sync.
    const followDays = first.seen.filter((request) => request.metric === 'follows_and_unfollows').map((request) => request.since);
    expect({ calls: followDays.length, oldest: [...followDays].sort()[0] }).toEqual({ calls: FOLLOWER_INSIGHT_DAYS, oldest: addDays(today(), -FOLLOWER_INSIGHT_DAYS) });
  });

  it('a later sync after a long pause reads the totals of every day of the pause, and follows for the last 30', async () => {
    // The last sync was 90 days ago: its window (since) reaches back 90 days, and Meta still keeps those days' totals.
    const outcome = await throughProxy(() => null, { since: addDays(today(), -90), firstSync: false });
    expect('error' in outcome ? outcome.error : null).toBeNull();
    const { seen } = outcome;
    const daysOf = (metric: string) => seen.filter((request) => request.metric === metric).map((request) => request.since).sort();
    const totals = daysOf('views,reach,total_interactions');
    const follows = daysOf('follows_and_unfollows');
    expect({ oldest: totals[0], newest: totals.at(-1), calls: totals.length }).toEqual({ oldest: addDays(today(), -90), newest: addDays(today(), -1), calls: 90 });
    expect({ oldest: follows[0], newest: follows.at(-1), calls: follows.length }).toEqual({ oldest: addDays(today(), -FOLLOWER_INSIGHT_DAYS), newest: addDays(today(), -1), calls: FOLLOWER_INSIGHT_DAYS });
    expect(seen).toHaveLength(90 + FOLLOWER_INSIGHT_DAYS);
  });

  it.each([
    ['throttling (code 4)', { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4 }, 'rate_limited'],
    ['a dead token (code 190)', { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190, error_subcode: 463 }, 'unauthorized'],
  ] as const)('%s in the middle of the history stops the sync: no call starts after it', async (_name, error, kind) => {
    const refused = addDays(today(), -500);
    const { error: failure, seen } = await throughProxy((query) => (totalsOf(query) && dayOfSince(query.get('since')) === refused ? { status: 400, body: { error } } : null), {
      since: addDays(today(), -ACCOUNT_INSIGHT_HISTORY_DAYS),
      firstSync: true,
    }).then((outcome) => ({ error: 'error' in outcome ? outcome.error : undefined, seen: outcome.seen }));
    expect(failure).toBeInstanceOf(PlatformError);
    expect((failure as PlatformError).kind).toBe(kind);
    // The days after it are never asked for: only the calls already under way when the refusal came (a few at a
    // time) follow it.
    const at = seen.findIndex((request) => request.answered === 'changed');
    expect(at).toBeGreaterThan(0);
    expect(seen.length - 1 - at).toBeLessThan(8);
    expect(seen.some((request) => request.since > addDays(refused, 8))).toBe(false);
  });
});
