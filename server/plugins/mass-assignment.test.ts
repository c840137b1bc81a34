// Checklist 17, mass assignment: every write route of the app (read from its own route table: a new one fails the
// first test until it is listed here) gets ownership, role, verification, plan and billing fields added to a body it
// would otherwise accept. Each is refused with 400 naming the field, and nothing of the user's (or of the user whose
// id was smuggled in) changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConnections } from '../db/schema.ts';
import { concretePath, registeredRoutes } from '../test/routes.ts';
import { rowsOwnedBy } from '../test/snapshots.ts';
import { grantActiveSubscription } from '../test/subscriptions.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let user: { token: string; userId: number; password: string };
let victim: { userId: number };
let connectionId: number;

/** Fields a client must never set; each is tried alone, its value pointing at another user or a privilege. */
const SMUGGLED = (): Record<string, unknown> => ({
  userId: victim.userId,
  isAdmin: true,
  emailVerified: true,
  plan: 'Pro',
  subscriptionStatus: 'active',
  stripeCustomerId: 'cus_someone_else',
  id: victim.userId,
});

/** For each write route with a body schema: a body it accepts as it is, so that only the added field can be refused. */
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  'POST /api/auth/register': () => ({ username: 'masshopeful', email: 'masshopeful@example.com', password: 'a long enough passphrase' }),
  'POST /api/auth/resend-confirmation': () => ({ email: 'masshopeful@example.com' }),
  'POST /api/auth/login': () => ({ username: 'nobody_here', password: 'not the password' }),
  'POST /api/auth/confirm-email': () => ({ userId: user.userId, token: 'A'.repeat(43) }),
  'POST /api/auth/password-reset': () => ({ email: 'masshopeful@example.com' }),
  'POST /api/auth/password-reset/confirm': () => ({ userId: user.userId, token: 'A'.repeat(43), password: 'a long enough passphrase' }),
  'POST /api/stripe/sync': () => ({}),
  'POST /api/stripe/create-checkout-session': () => ({}),
  'POST /api/stripe/create-portal-session': () => ({}),
  'POST /api/stripe/cancel-subscription': () => ({ cancelAtPeriodEnd: true }),
  'POST /api/stripe/resume-subscription': () => ({}),
  'POST /api/settings/account/delete': () => ({ currentPassword: user.password, confirmation: 'DELETE' }),
  'PATCH /api/settings/profile': () => ({ firstName: 'Mass', lastName: 'Assigner' }),
  'POST /api/settings/password': () => ({ currentPassword: user.password, newPassword: 'another long passphrase' }),
  'POST /api/settings/email': () => ({ newEmail: 'mass-new@example.com', currentPassword: user.password }),
  'POST /api/settings/email/confirm': () => ({ userId: user.userId, token: 'A'.repeat(43) }),
  'POST /api/platformconnections/connect': () => ({ platform: 'youtube', handle: '@somebody' }),
  'PATCH /api/platformconnections/:id': () => ({ currency: 'EUR' }),
  'POST /api/oauth/:platform/callback': () => ({ code: 'some-code', state: 'some-state' }),
  'PUT /api/reports/preferences': () => ({ frequency: 'daily', weekday: 1, hour: 9, timeZone: 'Europe/Paris' }),
  'PATCH /api/settings/alerts': () => ({ followerMilestone: false }),
  'POST /api/settings/api-tokens': () => ({ name: 'Mass script' }),
};
/**
 * Write routes that read no JSON body (their input is the path, the query or, for the webhook, Stripe's signed bytes):
 * whatever is sent is never read. Logout is left out of the run: it would end the session the others need.
 */
const NO_BODY = new Set([
  'POST /api/auth/logout',
  'POST /api/stripe/webhook',
  'POST /api/sync/platform/:connectionId',
  'POST /api/events/ticket',
  'POST /api/youtubeanalytics/sync',
  'POST /api/youtubeanalytics/insights/generate',
  'POST /api/unsubscribe',
  'POST /api/notifications/:id/read',
]);

const writeRoutes = () => registeredRoutes(server.app).filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method));
const pathOf = (path: string) => concretePath(path, { id: connectionId, connectionId, platform: 'youtube' });

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  const account = await server.signUp();
  await grantActiveSubscription(server, account.user.id);
  user = { token: account.token!, userId: account.user.id, password: account.password };
  server.clock.advance(3_600_000);
  const other = await server.signUp();
  await grantActiveSubscription(server, other.user.id);
  victim = { userId: other.user.id };
  const now = server.clock.now();
  const [connection] = await server.db
    .insert(platformConnections)
    .values({ userId: user.userId, platform: 'patreon', platformUserId: 'mass-campaign', connectedAt: now, updatedAt: now })
    .returning();
  connectionId = connection!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('checklist 17: mass assignment', () => {
  it('checklist 17: every write route is listed, as taking a body or as reading none', () => {
    const routes = writeRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes.length).toBeGreaterThanOrEqual(25);
    for (const route of routes) expect({ route, listed: route in VALID_BODIES || NO_BODY.has(route) }).toEqual({ route, listed: true });
  });

  it('checklist 17: ownership, role, verification, plan and billing fields added to any body are refused with 400 naming them, and change nothing', async () => {
    const before = { user: await rowsOwnedBy(server.db, user.userId), victim: await rowsOwnedBy(server.db, victim.userId) };
    for (const { method, path } of writeRoutes()) {
      const key = `${method} ${path}`;
      if (!(key in VALID_BODIES)) continue;
      for (const [field, value] of Object.entries(SMUGGLED())) {
        const body = { ...VALID_BODIES[key]!(), [field]: value };
        // confirm-email and password-reset/confirm take a userId of their own: smuggling one there is just another (refused) link.
        const ownField = field === 'userId' && 'userId' in VALID_BODIES[key]!();
        const response = await server.request(method, pathOf(path), { token: user.token, body });
        expect({ key, field, status: response.status }).toEqual({ key, field, status: 400 });
        if (!ownField) expect({ key, field, message: response.body.message }).toEqual({ key, field, message: expect.stringContaining(field) });
      }
    }
    expect(await rowsOwnedBy(server.db, user.userId)).toEqual(before.user);
    expect(await rowsOwnedBy(server.db, victim.userId)).toEqual(before.victim);

    // Routes that read no body do their own work (a sync queued, a ticket issued); the fields change nothing of the
    // account, its subscription or the other user's.
    const protectedRows = async (userId: number) => {
      const rows = await rowsOwnedBy(server.db, userId);
      // (A connection's sync state is the sync's to change; its owner and identity are not.)
      const connections = (rows['platform_connections.user_id'] as { id: number; user_id: number; platform: string; platform_user_id: string }[]).map(
        ({ id, user_id, platform, platform_user_id }) => ({ id, user_id, platform, platform_user_id }),
      );
      return { users: rows.users, subscriptions: rows['subscriptions.user_id'], customers: rows['billing_customers.user_id'], connections };
    };
    const beforeNoBody = { user: await protectedRows(user.userId), victim: await protectedRows(victim.userId) };
    for (const key of [...NO_BODY].filter((route) => route !== 'POST /api/auth/logout')) {
      const [method, path] = key.split(' ') as [string, string];
      const response = await server.request(method, pathOf(path), { token: user.token, body: SMUGGLED() });
      expect({ key, serverError: response.status >= 500 }).toEqual({ key, serverError: false });
    }
    const logout = await server.request('POST', '/api/auth/logout', { token: user.token, body: SMUGGLED() });
    expect(logout.status).toBe(200);
    expect(await protectedRows(user.userId)).toEqual(beforeNoBody.user);
    expect(await protectedRows(victim.userId)).toEqual(beforeNoBody.victim);
  });
});
