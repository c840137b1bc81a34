// The answers computed after a sync (answer-warming.job.ts) on a real database and the platform sandbox: the syncs of a
// user's connections queue one warming, which stores the summary and the Analytics screen's default range under the
// keys the routes use, so the next visit's first two calls are served from them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

const cachedAnswers = (userId: number) =>
  queryRows<{ cache_key: string; body: string; created_at: string }>(
    server.db,
    sql`select cache_key, body, created_at::text from analytics_cache where user_id = ${userId} order by cache_key`,
  );

describe('analytics answers computed after a sync', () => {
  it("stores the summary and the default 30 days once for a user's syncs, and the next visit is served from them", async () => {
    const user = await signUpWithAccess(server);
    const userId = user.user.id as number;
    for (const platform of ['tiktok', 'instagram'] as const) {
      const connected = await connect(server, user, platform);
      expect(connected.status).toBe(200);
      expect((await syncNow(server, user.token, connected.body.id as number)).status).toMatchObject({ status: 'idle', message: null });
    }
    expect(await cachedAnswers(userId)).toEqual([]);

    // Two stored syncs, one warming: it waits WARMING_DELAY_SECONDS for the round's other syncs.
    expect(await server.answerWarming.drain()).toEqual([]);
    const warmed = await server.answerWarming.drain({ ignoreStartAfter: true });
    expect(warmed).toEqual([{ ok: true, result: undefined }]);
    const stored = await cachedAnswers(userId);
    expect(stored.map((row) => row.cache_key.split(':')[0])).toEqual(['analytics', 'summary']);

    server.clock.advance(1_000);
    const summary = await server.request('GET', '/api/analytics/summary', { token: user.token });
    const analytics = await server.request('GET', '/api/analytics?days=30', { token: user.token });
    expect(summary.status).toBe(200);
    expect(analytics.status).toBe(200);
    expect(summary.body).toEqual(JSON.parse(stored.find((row) => row.cache_key.startsWith('summary:'))!.body));
    expect(analytics.body).toEqual(JSON.parse(stored.find((row) => row.cache_key.startsWith('analytics:'))!.body));
    // Served from the warmed answers: no other key was computed, and neither answer was computed again.
    expect(await cachedAnswers(userId)).toEqual(stored);
  });

});
