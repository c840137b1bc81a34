// The Instagram adapter's account insights against the platform sandbox (a history start is not growth;
// ../shared/platform-apis-corrections.md rows 14–21): a first sync reads the daily totals as far back as Meta answers
// (the sandbox's horizon is a switch: 90 days by default, empty or refused past it; two years), 30 days a call at
// most, on Meta's days (07:00 UTC); `follower_count` alone in its call, inside its window; the follower changes for
// the last 30 days; a later sync reads only its own window; a day Meta has no data for stores nothing; throttling
// and a dead token in the middle of the history stop the sync. Through the product (sync engine, database), and the
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
import { ACCOUNT_INSIGHT_HISTORY_DAYS, FOLLOWER_INSIGHT_DAYS, lastCompleteMetaDay, metaDayOfEndTime, metaDayStart, syncInstagram } from './instagram.sync.ts';
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
/** The Meta day a `since` of an insights request starts (Unix seconds at 07:00 UTC). */
const dayOfSince = (since: string | null) => dayOf(new Date(Number(since) * 1000 - 7 * 3_600_000));
/** The sandbox's default horizon for account insights (unverified: corrections row 18). */
const HORIZON = 90;

/**
 * A demo account connected once per server: Ivy (2: few posts, so the account insights are most of a sync; under 100
 * followers, so no follower insights) or Theo (1: follower insights).
 */
const connections = new Map<number, Promise<{ account: Account; connectionId: number }>>();
function demoConnection(index: 1 | 2) {
  if (!connections.has(index)) {
    connections.set(
      index,
      (async () => {
        const account = await signUpWithAccess(server);
        const response = await connect(server, account, 'instagram', { account: index });
        if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
        return { account, connectionId: response.body.id as number };
      })(),
    );
  }
  return connections.get(index)!;
}
const ivyConnection = () => demoConnection(2);

async function storedDays(connectionId: number, metricType: string) {
  const rows = await server.db
    .select({ date: accountMetrics.date, value: accountMetrics.value })
    .from(accountMetrics)
    .where(and(eq(accountMetrics.connectionId, connectionId), eq(accountMetrics.metricType, metricType)));
  return new Map(rows.map((row) => [row.date, row.value]));
}

describe('through the product', () => {
  it('a first sync stores daily views, reach and interactions as far back as Meta answers, in 30-day windows, and only the snapshot of followers for an account without follower insights', async () => {
    const sandbox = platformSandboxOf(server);
    const { account, connectionId } = await ivyConnection();
    const before = sandbox.countCalls('instagram', 'user.insights');
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'idle', message: null });
    const yesterday = addDays(today(), -1);
    for (const metric of ['views', 'reach', 'engagements']) {
      const days = await storedDays(connectionId, metric);
      const dates = [...days.keys()].sort();
      expect({ metric, first: dates[0], last: dates.at(-1), days: dates.length }).toEqual({ metric, first: addDays(today(), -HORIZON), last: yesterday, days: HORIZON });
      expect([...days.values()].every((value) => value > 0), metric).toBe(true);
    }
    expect([...(await storedDays(connectionId, 'followers')).keys()]).toEqual([today()]);
    // Three 30-day reach series with data, one past the horizon without: the walk stops there. One totals call per
    // day with data, and one follower_count call (empty under 100 followers: no follows_and_unfollows calls).
    expect(sandbox.countCalls('instagram', 'user.insights') - before).toBe(4 + HORIZON + 1);
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
    // The last sync's day less three (platforms revise their last days) to yesterday: four days: one reach series,
    // four totals, one follower_count.
    expect(sandbox.countCalls('instagram', 'user.insights') - before).toBe(1 + 4 + 1);
    const after = await storedDays(connectionId, 'views');
    expect(after.size).toBe(history.size + 1);
    expect([...after.keys()].sort()[0]).toBe([...history.keys()].sort()[0]);
    expect(after.get(addDays(today(), -1))).toBeGreaterThan(0);
  });
});

describe('Meta days', () => {
  it('a Meta day (07:00 to 07:00 UTC, end_time the next date at 07:00) is stored under the date it starts on; the day under way is not asked for', () => {
    expect(metaDayStart('2026-05-04')).toBe(Date.parse('2026-05-04T07:00:00Z') / 1000);
    expect(metaDayOfEndTime('2026-05-05T07:00:00+0000')).toBe('2026-05-04');
    expect(metaDayOfEndTime('not a time')).toBeUndefined();
    expect(lastCompleteMetaDay(new Date('2026-05-05T07:00:00Z'))).toBe('2026-05-04');
    expect(lastCompleteMetaDay(new Date('2026-05-05T06:59:59Z'))).toBe('2026-05-03');
  });
});

describe('the adapter alone', () => {
  /** Each account-insights request the proxy saw, and what it answered. */
  type Seen = { metric: string | null; metricType: string | null; since: string; seconds: number; span: number; answered: 'sandbox' | 'changed' };

  /**
   * Runs the adapter on a demo connection through a proxy in front of the sandbox; `change` may answer an insights
   * request itself (status and body) instead of the sandbox, or rewrite the sandbox's answer.
   */
  async function throughProxy(
    change: (query: URLSearchParams) => { status: number; body: unknown } | null,
    input: { since: string; firstSync: boolean; demo?: 1 | 2; rewrite?: (query: URLSearchParams, body: any) => unknown },
  ) {
    const sandbox = platformSandboxOf(server);
    const seen: Seen[] = [];
    const proxy: Server = createServer(async (request, response) => {
      const url = new URL(request.url!, 'http://proxy');
      const query = url.searchParams;
      const insights = url.pathname.endsWith('/me/insights');
      const changed = insights ? change(query) : null;
      if (insights) {
        const since = Number(query.get('since'));
        seen.push({ metric: query.get('metric'), metricType: query.get('metric_type'), since: dayOfSince(query.get('since')), seconds: since, span: Number(query.get('until')) - since, answered: changed ? 'changed' : 'sandbox' });
      }
      if (changed) {
        response.writeHead(changed.status, { 'content-type': 'application/json' }).end(JSON.stringify(changed.body));
        return;
      }
      const upstream = await fetch(`${sandbox.baseUrl}${request.url}`, { method: request.method, headers: request.headers as Record<string, string> });
      let text = await upstream.text();
      if (insights && input.rewrite && upstream.status === 200) text = JSON.stringify(input.rewrite(query, JSON.parse(text)));
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const { connectionId } = await demoConnection(input.demo ?? 2);
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

  const firstSync = () => ({ since: addDays(today(), -ACCOUNT_INSIGHT_HISTORY_DAYS), firstSync: true });
  const totalsOf = (query: URLSearchParams) => query.get('metric') === 'views,total_interactions';
  const outputOf = (outcome: { output: SyncOutput } | { error: unknown }): SyncOutput => {
    expect('error' in outcome ? outcome.error : null).toBeNull();
    return 'output' in outcome ? outcome.output : { daily: [], content: [], usage: { calls: 0 } };
  };
  const datesOf = (output: SyncOutput, metric: string) => output.daily.filter((row) => row.metricType === metric).map((row) => row.date);

  it('every request is on Meta\'s 07:00 UTC boundary, at most 30 days wide, follower_count alone and inside its window, total_value-only metrics with metric_type=total_value', async () => {
    const outcome = await throughProxy(() => null, { ...firstSync(), demo: 1 });
    outputOf(outcome);
    const { seen } = outcome;
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request.seconds % 86_400, JSON.stringify(request)).toBe(7 * 3600);
      expect(request.span).toBeGreaterThan(0);
      expect(request.span).toBeLessThanOrEqual(30 * 86_400);
      if (request.metric !== 'reach' && request.metric !== 'follower_count') expect(request.metricType).toBe('total_value');
    }
    const gained = seen.filter((request) => request.metric?.split(',').includes('follower_count'));
    expect(gained).toHaveLength(1);
    expect(gained[0]).toMatchObject({ metric: 'follower_count', since: addDays(today(), -FOLLOWER_INSIGHT_DAYS), span: FOLLOWER_INSIGHT_DAYS * 86_400 });
    expect(seen.every((request) => request.answered === 'sandbox')).toBe(true);
  });

  it('follower history for an account with follower insights: follows and unfollows for each of the last 30 days, totals back from today\'s count', async () => {
    const outcome = await throughProxy(() => null, { ...firstSync(), demo: 1 });
    const { seen } = outcome;
    expect(datesOf(outputOf(outcome), 'followers').sort()).toEqual(Array.from({ length: FOLLOWER_INSIGHT_DAYS + 1 }, (_, k) => addDays(today(), k - FOLLOWER_INSIGHT_DAYS)));
    const follows = seen.filter((request) => request.metric === 'follows_and_unfollows');
    expect({ calls: follows.length, oldest: follows.map((request) => request.since).sort()[0] }).toEqual({ calls: FOLLOWER_INSIGHT_DAYS, oldest: addDays(today(), -FOLLOWER_INSIGHT_DAYS) });
  });

  it.each([
    ['two years, answered', 730, 'empty', 730],
    ['100 days, empty past them (the last window is partly inside)', 100, 'empty', 100],
    ['90 days, refused past them', 90, 'refuse', 90],
  ] as const)('Meta keeps %s: the history reaches exactly that far, and the sync succeeds', async (_name, horizon, oldDays, stored) => {
    const { settings } = platformSandboxOf(server);
    settings.instagramAccountInsightDays = horizon;
    settings.instagramOldDays = oldDays;
    try {
      const outcome = await throughProxy(() => null, firstSync());
      const { seen } = outcome;
      const output = outputOf(outcome);
      const views = datesOf(output, 'views');
      expect({ first: [...views].sort()[0], days: views.length }).toEqual({ first: addDays(today(), -stored), days: stored });
      expect(datesOf(output, 'reach')).toHaveLength(stored);
      // One reach series per 30 days (and the one that finds nothing, unless the bound is reached), one totals call per day.
      const windows = Math.ceil(stored / 30) + (stored < ACCOUNT_INSIGHT_HISTORY_DAYS ? 1 : 0);
      expect(seen.filter((request) => request.metric === 'reach')).toHaveLength(windows);
      expect(seen.filter((request) => request.metric === 'views,total_interactions')).toHaveLength(stored);
    } finally {
      settings.instagramAccountInsightDays = HORIZON;
      settings.instagramOldDays = 'empty';
    }
  });

  it('a day Meta answers with an empty data set stores nothing for that day (unknown, not 0); a day refused (code 100) too; the rest comes in day order, the same every time', async () => {
    const empty = addDays(today(), -40);
    const refused = addDays(today(), -70);
    const run = () =>
      throughProxy((query) => {
        if (!totalsOf(query)) return null;
        const day = dayOfSince(query.get('since'));
        if (day === empty) return { status: 200, body: { data: [] } };
        if (day === refused) return { status: 400, body: { error: { message: '(#100) Insights data is not available', type: 'OAuthException', code: 100 } } };
        return null;
      }, firstSync());
    const first = await run();
    const output = outputOf(first);
    const viewDays = datesOf(output, 'views');
    expect(viewDays).toHaveLength(HORIZON - 2);
    expect(output.daily.filter((row) => (row.date === empty || row.date === refused) && row.metricType !== 'reach')).toEqual([]);
    for (const day of [empty, refused]) {
      expect(viewDays).toContain(addDays(day, -1));
      expect(viewDays).toContain(addDays(day, 1));
    }
    // Several calls at once, yet the rows in day order, and the same rows on the same answers.
    expect([...viewDays].sort()).toEqual(viewDays);
    expect(outputOf(await run()).daily).toEqual(output.daily);
  });

  it('a day missing from the reach series is not asked for and stores nothing; the walk goes on past it', async () => {
    const gap = addDays(today(), -20);
    const outcome = await throughProxy(() => null, {
      ...firstSync(),
      rewrite: (query, body) =>
        query.get('metric') === 'reach' ? { ...body, data: body.data.map((entry: any) => ({ ...entry, values: entry.values.filter((value: any) => metaDayOfEndTime(value.end_time) !== gap) })) } : body,
    });
    const { seen } = outcome;
    const result = outputOf(outcome);
    expect(result.daily.filter((row) => row.date === gap)).toEqual([]);
    expect(datesOf(result, 'views')).toHaveLength(HORIZON - 1);
    expect(seen.some((request) => request.metric === 'views,total_interactions' && request.since === gap)).toBe(false);
  });

  it('a later sync after a long pause reads the totals of every day of the pause, and follows for the last 30', async () => {
    // The last sync was 90 days ago: its window (since) reaches back 90 days, and Meta still keeps those days' totals.
    const outcome = await throughProxy(() => null, { since: addDays(today(), -90), firstSync: false, demo: 1 });
    outputOf(outcome);
    const { seen } = outcome;
    const daysOf = (metric: string) => seen.filter((request) => request.metric === metric).map((request) => request.since).sort();
    const totals = daysOf('views,total_interactions');
    const follows = daysOf('follows_and_unfollows');
    expect({ oldest: totals[0], newest: totals.at(-1), calls: totals.length }).toEqual({ oldest: addDays(today(), -90), newest: addDays(today(), -1), calls: 90 });
    expect({ oldest: follows[0], newest: follows.at(-1), calls: follows.length }).toEqual({ oldest: addDays(today(), -FOLLOWER_INSIGHT_DAYS), newest: addDays(today(), -1), calls: FOLLOWER_INSIGHT_DAYS });
    // Three reach series (90 days: the window's own bound, no probe past it), one follower_count.
    expect(seen).toHaveLength(3 + 90 + 1 + FOLLOWER_INSIGHT_DAYS);
  });

  it.each([
    ['throttling (code 4)', { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4 }, 'rate_limited'],
    ['a dead token (code 190)', { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190, error_subcode: 463 }, 'unauthorized'],
  ] as const)('%s in the middle of the history stops the sync: no call starts after it', async (_name, error, kind) => {
    const refused = addDays(today(), -45);
    const { error: failure, seen } = await throughProxy((query) => (totalsOf(query) && dayOfSince(query.get('since')) === refused ? { status: 400, body: { error } } : null), firstSync()).then((outcome) => ({
      error: 'error' in outcome ? outcome.error : undefined,
      seen: outcome.seen,
    }));
    expect(failure).toBeInstanceOf(PlatformError);
    expect((failure as PlatformError).kind).toBe(kind);
    // Newest first: the older days are never asked for; only the calls already under way when the refusal came (a
    // few at a time) follow it.
    const totals = seen.filter((request) => request.metric === 'views,total_interactions');
    const at = totals.findIndex((request) => request.answered === 'changed');
    expect(at).toBeGreaterThan(0);
    expect(totals.length - 1 - at).toBeLessThan(8);
    expect(totals.some((request) => request.since < addDays(refused, -8))).toBe(false);
  });
});
