// Checklist 16, the IDOR matrix: every route that takes the id of something a user owns, read from the app's own route
// table (a route added later fails the first test until it is classified here), called as user B with user A's ids.
// B must get exactly the answer an id that does not exist gets; no list, search or export of B's ever shows A's data;
// and A's rows are unchanged after B's writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, platformConnections } from '../db/schema.ts';
import { concretePath, registeredRoutes, routeParameters } from '../test/routes.ts';
import { rowsOwnedBy } from '../test/snapshots.ts';
import { grantActiveSubscription } from '../test/subscriptions.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { seedYoutubeChannel } from '../test/youtube-factory.ts';

let server: TestServer;
let alice: { token: string; userId: number };
let bob: { token: string; userId: number };
/** Alice's ids, by the kind of object a route parameter names. */
let owned: { connection: number[]; video: (number | string)[]; content: number[]; session: string[]; notification: number[]; apiToken: number[] };
/** Alice's personal API token: never in anything Bob is sent, and Bob cannot revoke it. */
let aliceApiToken: { token: string; prefix: string };
/** Strings only Alice's data contains: none may appear in anything Bob is sent. */
const ALICE_MARKERS = ['Alice private channel', 'Alice secret video', 'aliceVideo1', 'alice-patreon-campaign'];

/** Routes whose parameters name something a user owns, and which of Alice's ids to try there. */
const OWNED_ID_ROUTES: Record<string, () => (number | string)[]> = {
  '/api/platformconnections/:id': () => owned.connection,
  '/api/sync/platform/:connectionId': () => owned.connection,
  '/api/youtubeanalytics/videos/:id': () => owned.video,
  '/api/youtubeanalytics/videos/:id/traffic-sources': () => owned.video,
  '/api/youtubeanalytics/insights/:id/viral-potential': () => owned.video,
  '/api/settings/sessions/:id': () => owned.session,
  '/api/content/:id/benchmark': () => owned.content,
  '/api/notifications/:id/read': () => owned.notification,
  '/api/settings/api-tokens/:id': () => owned.apiToken,
};
/** Routes that take the id of something a user owns in their query string, and which of Alice's ids to try there. */
const OWNED_ID_QUERIES: Record<string, { query: (id: number) => string; ids: () => number[] }> = {
  '/api/analytics/best-times': { query: (id) => `connectionId=${id}`, ids: () => owned.connection },
};
/** Ids that exist for nobody, of the same shapes. */
const ABSENT_IDS: Record<string, number | string> = {
  '/api/platformconnections/:id': 2_000_000_000,
  '/api/sync/platform/:connectionId': 2_000_000_000,
  '/api/youtubeanalytics/videos/:id': 'nobodysVid0',
  '/api/youtubeanalytics/videos/:id/traffic-sources': 'nobodysVid0',
  '/api/youtubeanalytics/insights/:id/viral-potential': 'nobodysVid0',
  '/api/settings/sessions/:id': 'AAAAAAAAAAAAAAAAAAAAAA',
  '/api/content/:id/benchmark': 2_000_000_000,
  '/api/notifications/:id/read': 2_000_000_000,
  '/api/settings/api-tokens/:id': 2_000_000_000,
};
/** Routes whose parameters name a shared catalogue entry (a platform), not an object of a user's: the same for all. */
const CATALOGUE_ROUTES: Record<string, (string | number)[]> = {
  '/api/oauth/:platform/auth-url': ['youtube', 'patreon'],
  '/api/oauth/:platform/callback': ['youtube', 'patreon'],
  '/api/oauth/:platform/disconnect': ['youtube', 'patreon'],
  '/api/analytics/platform/:id': [1, 6],
};
/** A body that passes validation, so that a write is refused for ownership and not for its shape. */
const VALID_BODIES: Record<string, unknown> = { 'PATCH /api/platformconnections/:id': { currency: 'EUR' } };
/** List, search and export calls with the queries that make them return data. */
const LIST_QUERIES = [
  '/api/analytics?days=90',
  '/api/analytics/platform/1?days=90',
  '/api/analytics/platform/6?days=90',
  '/api/analytics/export?format=csv&days=90',
  '/api/analytics/export?format=json&days=90',
  '/api/analytics/what-changed?startDate=2026-07-01&endDate=2026-12-31&compareStartDate=2026-01-01&compareEndDate=2026-06-30&metric=views',
  '/api/analytics/what-changed?startDate=2026-07-01&endDate=2026-12-31&compareStartDate=2026-01-01&compareEndDate=2026-06-30&metric=revenue',
  '/api/income/patron-conversion?startDate=2025-01-01&endDate=2026-12-31',
  '/api/youtubeanalytics/videos?search=Alice',
  '/api/youtubeanalytics/videos?pageSize=100',
  '/api/youtubeanalytics/export?format=csv',
  '/api/youtubeanalytics/export?format=json&search=secret',
  '/api/content?pageSize=100&sort=ratio7d',
  '/api/content?platform=youtube',
  '/api/content/export?format=csv',
  '/api/content/export?format=csv&platform=youtube&sort=typical',
  '/api/forecasts',
  '/api/income?startDate=2026-10-01&endDate=2026-11-02',
  '/api/income?startDate=2026-10-01&endDate=2026-11-02&granularity=day',
  '/api/income/export?format=csv&startDate=2026-10-01&endDate=2026-11-02',
  '/api/income/export?format=json&startDate=2026-10-01&endDate=2026-11-02&granularity=day',
];
/**
 * Not lists: a stream stays open (tested by itself in server/modules/events/events.test.ts, 'only ever carries its own
 * user’s events'); auth-url answers a link to the platform (server/modules/platforms/platforms.flow.test.ts).
 */
const NOT_LISTED = new Set(['/api/events/stream', '/api/oauth/:platform/auth-url']);

const routes = () => registeredRoutes(server.app).filter((route) => route.method !== 'HEAD' && route.path.startsWith('/api/'));

async function signIn(): Promise<{ token: string; userId: number }> {
  server.clock.advance(3_600_000); // fresh per-network sign-up windows
  const account = await server.signUp();
  await grantActiveSubscription(server, account.user.id);
  return { token: account.token!, userId: account.user.id };
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await signIn();
  bob = await signIn();
  const now = server.clock.now();
  const channel = await seedYoutubeChannel(server.db, {
    userId: alice.userId,
    now,
    title: 'Alice private channel',
    videos: [
      { videoId: 'aliceVideo1', title: 'Alice secret video 1', traffic: [{ sourceType: 'YT_SEARCH', views: 10 }] },
      { videoId: 'aliceVideo2', title: 'Alice secret video 2' },
    ],
    daily: [{ date: '2026-10-30', values: { views: 1234, subscribers: 99 } }],
  });
  const [patreon] = await server.db
    .insert(platformConnections)
    .values({ userId: alice.userId, platform: 'patreon', platformUserId: 'alice-patreon-campaign', displayName: 'Alice private channel on Patreon', connectedAt: now, updatedAt: now })
    .returning();
  const [notice] = await server.db
    .insert(notifications)
    .values({ userId: alice.userId, kind: 'reconnect', key: 'reconnect:alice', title: 'Reconnect Alice private channel', body: 'Alice private channel needs you', connectionId: patreon!.id, platform: 'patreon', createdAt: now })
    .returning();
  const created = await server.request('POST', '/api/settings/api-tokens', { token: alice.token, body: { name: 'Alice private script' } });
  aliceApiToken = { token: created.body.token, prefix: created.body.apiToken.prefix };
  owned = {
    connection: [channel.connectionId, patreon!.id],
    video: [channel.videos[0]!.id, 'aliceVideo1'],
    content: [channel.videos[0]!.id],
    session: [alice.token.split('.')[0]!],
    notification: [notice!.id],
    apiToken: [created.body.apiToken.id],
  };
});
afterAll(async () => {
  await server?.close();
});

describe('checklist 16: the IDOR matrix', () => {
  it('checklist 16: every route with a parameter is classified, so a new one cannot slip past the matrix', () => {
    const withParameters = [...new Set(routes().filter((route) => routeParameters(route.path).length > 0).map((route) => route.path))];
    expect(withParameters.length).toBeGreaterThanOrEqual(9);
    for (const path of withParameters) {
      expect({ path, classified: path in OWNED_ID_ROUTES || path in CATALOGUE_ROUTES }).toEqual({ path, classified: true });
    }
  });

  it("checklist 16: Bob gets 404 on every one of Alice's ids, the very answer an id nobody has gets, and Alice's rows stay as they were", async () => {
    // Sessions included: Alice makes no request while Bob tries, and one of the routes ends sessions by id.
    const before = await rowsOwnedBy(server.db, alice.userId, { sessions: true });
    expect(before['platform_connections.user_id']).toHaveLength(2);
    expect(before['youtube_videos.connection_id']).toHaveLength(2);

    const attempts = routes().filter((route) => route.path in OWNED_ID_ROUTES);
    expect(attempts.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      [
        'DELETE /api/platformconnections/:id',
        'DELETE /api/settings/sessions/:id',
        'GET /api/content/:id/benchmark',
        'GET /api/youtubeanalytics/insights/:id/viral-potential',
        'GET /api/youtubeanalytics/videos/:id',
        'GET /api/youtubeanalytics/videos/:id/traffic-sources',
        'PATCH /api/platformconnections/:id',
        'POST /api/sync/platform/:connectionId',
        'POST /api/notifications/:id/read',
        'DELETE /api/settings/api-tokens/:id',
      ].sort(),
    );
    for (const { method, path } of attempts) {
      const parameter = routeParameters(path)[0]!;
      const body = VALID_BODIES[`${method} ${path}`];
      const absent = await server.request(method, concretePath(path, { [parameter]: ABSENT_IDS[path]! }), { token: bob.token, body });
      expect({ method, path, status: absent.status }).toEqual({ method, path, status: 404 });
      for (const id of OWNED_ID_ROUTES[path]!()) {
        const response = await server.request(method, concretePath(path, { [parameter]: id }), { token: bob.token, body });
        expect({ method, path, id, status: response.status, body: response.body }).toEqual({ method, path, id, status: 404, body: absent.body });
      }
    }
    // Bob's writes without ids (disconnect by platform, sync his channel, report preferences) reach only his own rows.
    for (const platform of ['youtube', 'patreon']) {
      expect((await server.request('DELETE', `/api/oauth/${platform}/disconnect`, { token: bob.token })).body).toMatchObject({ disconnected: 0 });
    }
    await server.request('POST', '/api/youtubeanalytics/sync', { token: bob.token });
    expect(await rowsOwnedBy(server.db, alice.userId, { sessions: true })).toEqual(before);
    // Her personal API token, which Bob tried to revoke, still reads for her.
    expect((await server.request('GET', '/api/analytics/summary', { token: aliceApiToken.token })).status).toBe(200);

    // The same calls as Alice reach her objects: the ids were real, so the 404s above were about ownership.
    for (const { method, path } of attempts.filter((route) => route.method !== 'DELETE')) {
      const parameter = routeParameters(path)[0]!;
      const ids = path.startsWith('/api/platformconnections/') ? [owned.connection[1]!] : OWNED_ID_ROUTES[path]!().slice(0, 1);
      for (const id of ids) {
        const response = await server.request(method, concretePath(path, { [parameter]: id }), { token: alice.token, body: VALID_BODIES[`${method} ${path}`] });
        // (Viral potential answers 422 for a channel too small to judge: an answer about her video, not a 404.)
        // (Marking a notice read answers 200; a sync request is accepted, 202.)
        const expected = path.endsWith('/viral-potential') ? 422 : method === 'POST' && !path.endsWith('/read') ? 202 : 200;
        expect({ method, path, status: response.status }).toEqual({ method, path, status: expected });
      }
    }
    const deleted = await server.request('DELETE', `/api/platformconnections/${owned.connection[1]}`, { token: alice.token });
    expect(deleted.status).toBe(200);
  });

  it("checklist 16: Bob gets 404 for Alice's ids in a query string too, the answer an id nobody has gets", async () => {
    const registered = new Set(routes().map((route) => route.path));
    for (const [path, { query, ids }] of Object.entries(OWNED_ID_QUERIES)) {
      expect({ path, registered: registered.has(path) }).toEqual({ path, registered: true });
      const absent = await server.request('GET', `${path}?${query(2_000_000_000)}`, { token: bob.token });
      expect({ path, status: absent.status }).toEqual({ path, status: 404 });
      for (const id of ids()) {
        const response = await server.request('GET', `${path}?${query(id)}`, { token: bob.token });
        expect({ path, id, status: response.status, body: response.body }).toEqual({ path, id, status: 404, body: absent.body });
      }
      // The ids were real: Alice is answered (her channel; the Patreon connection was deleted by the test above).
      const first = ids()[0]!;
      expect({ path, status: (await server.request('GET', `${path}?${query(first)}`, { token: alice.token })).status }).toEqual({ path, status: 200 });
    }
  });

  it("checklist 16: no list, search or export Bob calls ever returns Alice's objects", async () => {
    // Routes that need a query to answer are called with one, below.
    const withQuery = new Set([...LIST_QUERIES.map((url) => url.split('?')[0]!), ...Object.keys(OWNED_ID_QUERIES)]);
    const urls = [
      ...routes()
        .filter((route) => route.method === 'GET' && !NOT_LISTED.has(route.path) && !(route.path in OWNED_ID_ROUTES) && !withQuery.has(route.path))
        .flatMap((route) => (CATALOGUE_ROUTES[route.path] ?? [undefined]).map((value) => concretePath(route.path, value === undefined ? {} : { [routeParameters(route.path)[0]!]: value }))),
      ...LIST_QUERIES,
    ];
    expect(urls.length).toBeGreaterThan(25);
    for (const url of urls) {
      const response = await server.request('GET', url, { token: bob.token });
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      for (const marker of [...ALICE_MARKERS, ...owned.session, aliceApiToken.token, aliceApiToken.prefix, 'Alice private script']) expect({ url, leaks: text.includes(marker) }).toEqual({ url, leaks: false });
    }
    // Alice's own lists show her data, so the markers would be seen if they leaked.
    for (const url of [
      '/api/platformconnections',
      '/api/youtubeanalytics/videos?search=Alice',
      '/api/youtubeanalytics/export?format=csv',
      '/api/content?platform=youtube',
      '/api/content/export?format=csv',
      '/api/settings/sessions',
      '/api/settings/api-tokens',
    ]) {
      const response = await server.request('GET', url, { token: alice.token });
      const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      expect({ url, found: [...ALICE_MARKERS, ...owned.session, aliceApiToken.prefix].some((marker) => text.includes(marker)) }).toEqual({ url, found: true });
    }
  });
});
