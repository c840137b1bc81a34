// X's impression_count is impressions, not views (corrections row 9): the sync stores it as impressions and a
// video's view_count as the post's views; Total Views leaves X's impressions out and the engagement rate measures X's
// engagements against its impressions. Migration 0029 moves the X views stored by earlier versions to impressions,
// checked here on rows as they stood. Both databases.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE } from '#contract/platforms.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { accountMetrics, contentItems, contentMetricReads, contentMetrics, platformConnections, users } from '../../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
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

describe('X impressions', () => {
  it('stores impression_count as impressions and video views as views; Total Views leaves X impressions out', { timeout: 120_000 }, async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'twitter', { account: 2 });
    expect(connected.status).toBe(200);
    const connectionId = connected.body.id as number;
    expect((await syncNow(server, account.token, connectionId)).status).toMatchObject({ status: 'idle', message: null });

    const counts = await queryRows<{ metric_type: string; posts: number }>(
      server.db,
      sql`select metric_type, count(distinct content_item_id)::int as posts from content_metrics where connection_id = ${connectionId} group by metric_type`,
    );
    const posts = Object.fromEntries(counts.map((row) => [row.metric_type, row.posts]));
    const [total] = await queryRows<{ n: number }>(server.db, sql`select count(*)::int as n from content_items where connection_id = ${connectionId}`);
    // Every post has impressions; only the posts with a video have views, and fewer views than impressions.
    expect(posts.impressions).toBe(total!.n);
    expect(posts.views).toBeGreaterThan(0);
    expect(posts.views).toBeLessThan(total!.n);
    const [above] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from content_metrics v join content_metrics i on i.content_item_id = v.content_item_id and i.as_of = v.as_of and i.metric_type = 'impressions'
        where v.connection_id = ${connectionId} and v.metric_type = 'views' and v.value > i.value`,
    );
    expect(above!.n).toBe(0);

    // The cards: views are the videos' views alone, impressions apart, the rate over impressions.
    const platformId = PLATFORM_CATALOGUE.twitter.id;
    const answer = (await server.request('GET', `/api/analytics?days=90&platformId=${platformId}`, { token: account.token })).body;
    const [days] = await queryRows<{ views: number; impressions: number; engagements: number }>(
      server.db,
      sql`select coalesce(sum(views), 0)::float8 as views, coalesce(sum(impressions), 0)::float8 as impressions, coalesce(sum(engagements), 0)::float8 as engagements
        from account_metric_days where connection_id = ${connectionId} and date between ${answer.startDate} and ${answer.endDate}`,
    );
    expect(answer.totals.totalImpressions).toBe(days!.impressions);
    expect(answer.totals.totalViews).toBe(days!.views);
    expect(answer.totals.totalViews).toBeGreaterThan(0);
    expect(answer.totals.totalViews).toBeLessThan(answer.totals.totalImpressions);
    expect(answer.totals.averageEngagementRate).toBeCloseTo((days!.engagements / days!.impressions) * 100, 1);
    // X's own words in the views trend: no impressions in it.
    const viewsTrend = answer.trends.find((trend: { metric: string }) => trend.metric === 'views');
    const trendTotal = (viewsTrend.combined as (number | null)[]).reduce((sum: number, value) => sum + (value ?? 0), 0);
    expect(trendTotal).toBe(days!.views);
  });
});

describe('migration 0029 on stored X rows', () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('moves X views to impressions in every table, leaves other platforms’ views, and keeps an impressions row that exists', async () => {
    const [user] = await db.insert(users).values({ username: 'xviews', email: 'xviews@example.com', passwordHash: 'x', firstName: 'X', lastName: 'Views' }).returning();
    const connection = async (platform: string) => {
      const [row] = await db.insert(platformConnections).values({ userId: user!.id, platform, platformUserId: `${platform}-9`, followers: 0, connectedAt: new Date(), updatedAt: new Date() }).returning();
      return row!.id;
    };
    const x = await connection('twitter');
    const tiktok = await connection('tiktok');
    const item = async (connectionId: number, id: string) => {
      const [row] = await db.insert(contentItems).values({ connectionId, platformContentId: id, title: id, publishedAt: new Date('2026-11-01T10:00:00Z') }).returning();
      return row!.id;
    };
    const xPost = await item(x, '1');
    const tiktokVideo = await item(tiktok, 'v1');
    // As the earlier X adapter stored them: impression_count under views.
    await db.insert(contentMetrics).values([
      { contentItemId: xPost, connectionId: x, metricType: 'views', asOf: '2026-11-01', value: 100 },
      { contentItemId: xPost, connectionId: x, metricType: 'views', asOf: '2026-11-02', value: 150 },
      { contentItemId: xPost, connectionId: x, metricType: 'likes', asOf: '2026-11-02', value: 5 },
      { contentItemId: tiktokVideo, connectionId: tiktok, metricType: 'views', asOf: '2026-11-02', value: 70 },
    ]);
    await db.insert(contentMetricReads).values([
      { contentItemId: xPost, metricType: 'views', readAt: new Date('2026-11-02T09:00:00Z'), value: 150 },
      { contentItemId: tiktokVideo, metricType: 'views', readAt: new Date('2026-11-02T09:00:00Z'), value: 70 },
    ]);
    await db.insert(accountMetrics).values([
      { connectionId: x, date: '2026-11-01', metricType: 'views', value: 100 },
      { connectionId: x, date: '2026-11-02', metricType: 'views', value: 50 },
      // A day somehow holding both: its impressions stay, the views go.
      { connectionId: x, date: '2026-11-03', metricType: 'views', value: 9 },
      { connectionId: x, date: '2026-11-03', metricType: 'impressions', value: 12 },
      { connectionId: x, date: '2026-11-02', metricType: 'likes', value: 5 },
      { connectionId: tiktok, date: '2026-11-02', metricType: 'views', value: 70 },
    ]);

    const migration = readFileSync(new URL('../../db/migrations/0029_x_impressions.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').map((part) => part.trim()).filter(Boolean)) {
      await db.execute(sql.raw(statement));
    }

    const metricsOf = async (table: string, connectionId: number) =>
      queryRows<{ metric_type: string; day: string; value: number }>(
        db,
        table === 'content_metrics'
          ? sql`select metric_type, as_of::text as day, value from content_metrics where connection_id = ${connectionId} order by as_of, metric_type`
          : table === 'content_metric_reads'
            ? sql`select r.metric_type, r.read_at::text as day, r.value from content_metric_reads r join content_items ci on ci.id = r.content_item_id where ci.connection_id = ${connectionId} order by r.metric_type`
            : sql`select metric_type, date::text as day, value from account_metrics where connection_id = ${connectionId} order by date, metric_type`,
      );
    expect((await metricsOf('content_metrics', x)).map((row) => [row.day, row.metric_type, row.value])).toEqual([
      ['2026-11-01', 'impressions', 100],
      ['2026-11-02', 'impressions', 150],
      ['2026-11-02', 'likes', 5],
    ]);
    expect((await metricsOf('content_metric_reads', x)).map((row) => [row.metric_type, row.value])).toEqual([['impressions', 150]]);
    expect((await metricsOf('account_metrics', x)).map((row) => [row.day, row.metric_type, row.value])).toEqual([
      ['2026-11-01', 'impressions', 100],
      ['2026-11-02', 'impressions', 50],
      ['2026-11-02', 'likes', 5],
      ['2026-11-03', 'impressions', 12],
    ]);
    expect((await metricsOf('content_metrics', tiktok)).map((row) => row.metric_type)).toEqual(['views']);
    expect((await metricsOf('content_metric_reads', tiktok)).map((row) => row.metric_type)).toEqual(['views']);
    expect((await metricsOf('account_metrics', tiktok)).map((row) => row.metric_type)).toEqual(['views']);
    // The day rows the screens sum follow (account_metric_days' triggers): X has no views left, only impressions.
    const days = await queryRows<{ date: string; views: number | null; impressions: number | null }>(
      db,
      sql`select date::text as date, views, impressions from account_metric_days where connection_id = ${x} order by date`,
    );
    expect(days).toEqual([
      { date: '2026-11-01', views: null, impressions: 100 },
      { date: '2026-11-02', views: null, impressions: 50 },
      { date: '2026-11-03', views: null, impressions: 12 },
    ]);
  });
});
