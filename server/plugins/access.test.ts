// The 402 gate, tested over every route the app has (read from its own route table, so a route added later is
// covered without touching this file) and every subscription state the policy knows: each route is either premium
// (402 without access) or on the lapsed allowlist with its reason (never 402).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentRequiredBody } from '#contract/billing.ts';
import { subscriptions } from '../db/schema.ts';
import type { SubscriptionValues } from '../modules/billing/billing.repository.ts';
import { concretePath as concrete, registeredRoutes } from '../test/routes.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { isPremiumRoute, LAPSED_ALLOWLIST, OPEN_PREFIXES } from './access.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type State = { name: string; row: ((now: Date) => Partial<SubscriptionValues>) | null; access: boolean };

// The written policy (spec section 4; docs/decisions/002-past-due-access.md for past_due).
const STATES: State[] = [
  { name: 'no subscription', row: null, access: false },
  { name: 'trialing', row: (now) => ({ status: 'trialing', trialStart: new Date(now.getTime() - 2 * DAY), trialEnd: new Date(now.getTime() + 5 * DAY) }), access: true },
  {
    name: 'trial expired',
    row: (now) => ({ status: 'canceled', trialStart: new Date(now.getTime() - 8 * DAY), trialEnd: new Date(now.getTime() - DAY), endedAt: new Date(now.getTime() - DAY) }),
    access: false,
  },
  { name: 'active', row: (now) => ({ status: 'active', currentPeriodStart: new Date(now.getTime() - DAY), currentPeriodEnd: new Date(now.getTime() + 29 * DAY) }), access: true },
  { name: 'past_due, 1 day after the failed renewal (grace)', row: (now) => ({ status: 'past_due', currentPeriodStart: new Date(now.getTime() - DAY) }), access: true },
  { name: 'past_due, 3 days after the failed renewal', row: (now) => ({ status: 'past_due', currentPeriodStart: new Date(now.getTime() - 3 * DAY) }), access: false },
  {
    name: 'canceled but still in the paid period',
    row: (now) => ({ status: 'active', cancelAtPeriodEnd: true, cancelAt: new Date(now.getTime() + 10 * DAY), currentPeriodEnd: new Date(now.getTime() + 10 * DAY) }),
    access: true,
  },
  { name: 'canceled and ended', row: (now) => ({ status: 'canceled', canceledAt: new Date(now.getTime() - 2 * DAY), endedAt: new Date(now.getTime() - DAY) }), access: false },
  { name: 'unpaid', row: () => ({ status: 'unpaid' }), access: false },
  { name: 'incomplete', row: () => ({ status: 'incomplete' }), access: false },
];

const tokens = new Map<string, string>();
const accountsByState = new Map<string, { username: string; password: string }>();

beforeAll(async () => {
  const accounts = [];
  for (const state of STATES) {
    server.clock.advance(HOUR); // fresh per-network sign-up windows
    accounts.push({ state, account: await server.signUp() });
  }
  // Every state is set at one instant, so the boundaries (3 days of grace exactly) hold when the tests run.
  const now = server.clock.now();
  for (const [index, { state, account }] of accounts.entries()) {
    tokens.set(state.name, account.token!);
    accountsByState.set(state.name, account);
    if (!state.row) continue;
    await server.db.insert(subscriptions).values({
      userId: account.user.id,
      stripeCustomerId: `cus_matrix_${index}`,
      stripeSubscriptionId: `sub_matrix_${index}`,
      status: 'none',
      trialUsed: true,
      syncedAt: now,
      ...state.row(now),
    });
  }
});

describe('checklist 18: the 402 gate matrix, over every premium route and every subscription state', () => {
  const apiRoutes = () => registeredRoutes(server.app).filter((route) => route.path.startsWith('/api/'));
  const premiumRoutes = () => apiRoutes().filter((route) => isPremiumRoute(route.method, route.path));
  const routeKey = ({ method, path }: { method: string; path: string }) => `${method === 'HEAD' ? 'GET' : method} ${path}`;
  const allowlisted = () => apiRoutes().filter((route) => Object.hasOwn(LAPSED_ALLOWLIST, routeKey(route)));

  it('every API route is premium or on the lapsed allowlist with its reason, and every listed route exists', () => {
    const routes = apiRoutes();
    const open = (path: string) => OPEN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    for (const route of routes) {
      const listed = Object.hasOwn(LAPSED_ALLOWLIST, routeKey(route));
      expect({ route, side: isPremiumRoute(route.method, route.path) ? 'premium' : listed ? 'allowlisted' : open(route.path) ? 'docs' : 'neither' }).not.toMatchObject({ side: 'neither' });
      expect({ route, premiumAndListed: isPremiumRoute(route.method, route.path) && listed }).toEqual({ route, premiumAndListed: false });
    }
    for (const [key, reason] of Object.entries(LAPSED_ALLOWLIST)) {
      expect({ key, reason: reason.trim().length > 10 }).toEqual({ key, reason: true });
      expect({ key, registered: routes.some((route) => routeKey(route) === key) }).toEqual({ key, registered: true });
    }
    // What a lapsed user needs to see and to leave is on the list; the rest of their platforms' screens is not.
    for (const key of [
      'GET /api/platformconnections',
      'DELETE /api/platformconnections/:id',
      'DELETE /api/oauth/:platform/disconnect',
      'GET /api/sync/status',
      'GET /api/analytics/export',
      'GET /api/content/export',
      'POST /api/settings/account/delete',
      'POST /api/auth/login',
      'POST /api/auth/logout',
    ])
      expect(Object.keys(LAPSED_ALLOWLIST)).toContain(key);
    for (const [method, path] of [
      ['GET', '/api/analytics/summary'],
      ['GET', '/api/platforms'],
      ['POST', '/api/platformconnections/connect'],
      ['PATCH', '/api/platformconnections/:id'],
      ['GET', '/api/oauth/:platform/auth-url'],
      ['POST', '/api/sync/platform/:connectionId'],
      ['GET', '/api/events/stream'],
    ] as const)
      expect({ method, path, premium: isPremiumRoute(method, path) }).toEqual({ method, path, premium: true });
    // A route added later is premium until someone lists it.
    expect(isPremiumRoute('GET', '/api/anything-new')).toBe(true);
    expect(isPremiumRoute('HEAD', '/api/platformconnections')).toBe(false);
    expect(premiumRoutes()).toContainEqual({ method: 'GET', path: '/api/analytics/summary' });
  });

  it('checklist 18: the allowlisted routes of the leaving user answer 401 without a session, before anything else', async () => {
    const leaving = allowlisted().filter(({ path }) => /^\/api\/(platformconnections|oauth|sync|analytics|youtubeanalytics|content|income)(\/|$)/.test(path));
    expect(leaving.length).toBeGreaterThanOrEqual(8);
    for (const { method, path } of leaving) {
      // Bad parameters and queries too: authentication comes first.
      const response = await server.request(method, `${concrete(path, { id: 'not-a-number', platform: 'nowhere' })}?format=nothing`, { token: 'not-a-session-token' });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
  });

  it.each(STATES.filter((state) => !state.access).map((state) => [state.name, state] as const))(
    'as a user with %s, no allowlisted route answers 402',
    async (name) => {
      const token = tokens.get(name)!;
      // Signing out last: it ends the session the other calls use.
      const routes = allowlisted().sort((a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'));
      for (const { method, path } of routes) {
        const response = await server.request(method, concrete(path), { token, body: method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : {} });
        expect({ method, path, status: response.status }).not.toMatchObject({ status: 402 });
      }
      // Signed out now: the next call of this state is unauthenticated; sign in again for the tests below.
      const login = await server.request('POST', '/api/auth/login', { body: { username: accountsByState.get(name)!.username, password: accountsByState.get(name)!.password } });
      expect(login.status).toBe(200);
      tokens.set(name, login.body.token);
    },
  );

  it('checklist 18: answer 401 without a session, before anything else (authentication before payment)', async () => {
    for (const { method, path } of premiumRoutes()) {
      for (const token of [undefined, 'not-a-session-token']) {
        const response = await server.request(method, concrete(path), { token, body: method === 'POST' ? { anything: true } : undefined });
        expect({ method, path, token, status: response.status }).toEqual({ method, path, token, status: 401 });
      }
    }
  });

  it.each(STATES.map((state) => [state.name, state] as const))('checklist 18: as a user with %s, 402 or not exactly per the written policy, whatever flags the client sends', async (_name, state) => {
    const token = tokens.get(state.name)!;
    for (const { method, path } of premiumRoutes()) {
      // Whatever the body says, and whatever flags the client adds, entitlement comes from our database.
      const response = await server.request(method, `${concrete(path)}?hasValidAccess=true&status=active`, {
        token,
        headers: { 'x-subscription-status': 'active' },
        body: method === 'POST' || method === 'PUT' || method === 'PATCH' ? { subscriptionStatus: 'active' } : undefined,
      });
      if (state.access) {
        expect({ method, path, status: response.status }).not.toMatchObject({ status: 402 });
        expect(response.status).not.toBe(401);
      } else {
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 402 });
        if (method !== 'HEAD') {
          expect(paymentRequiredBody.parse(response.body)).toEqual({
            message: 'An active subscription or trial is required',
            code: 'payment_required',
            upgradeUrl: '/billing?upgrade=true',
          });
        }
      }
    }
  });
});

describe('GET /api/analytics/summary', () => {
  it('answers zeros for an account with no connected platform', async () => {
    const response = await server.request('GET', '/api/analytics/summary', { token: tokens.get('active') });
    expect(response.status).toBe(200);
    const { comparison, freshness, ...cards } = response.body;
    expect(cards).toEqual({ totalFollowers: 0, averageEngagementRate: 0, totalViews: 0, totalImpressions: 0, totalRevenue: 0, pledgesNotInUsd: [], connectedPlatforms: 0 });
    // Nothing to compare with and nothing synced: no made-up change, no freshness.
    expect(comparison.totals).toEqual({ totalFollowers: null, averageEngagementRate: null, totalViews: null, totalRevenue: null, connectedPlatforms: 0 });
    expect(freshness).toEqual([]);
  });

  it('is judged by the server’s clock: a past-due account loses access the moment its grace ends', async () => {
    const token = tokens.get('past_due, 1 day after the failed renewal (grace)')!;
    expect((await server.request('GET', '/api/analytics/summary', { token })).status).toBe(200);
    server.clock.advance(2 * DAY - 1000);
    expect((await server.request('GET', '/api/analytics/summary', { token })).status).toBe(200);
    server.clock.advance(1000);
    expect((await server.request('GET', '/api/analytics/summary', { token })).status).toBe(402);
  });
});
