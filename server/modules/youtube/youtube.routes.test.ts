// The /api/youtubeanalytics calls over HTTP against hand-written YouTube rows: empty answers without a channel, the
// spec's fallbacks only where a value is missing (and flagged), paging and sorting on the server, the revenue panel
// computed by hand, insights and viral potential through the API, validation, access and ownership.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel, type SeedVideo, testVideoId } from '../../test/youtube-factory.ts';
import { earlyViewsFor, wobble } from '../../test/youtube-insight-data.ts';
import { contentMetrics } from '../../db/schema.ts';

let server: TestServer;
let alice: Account; // a monetised channel of 60 videos
let bob: Account; // another user's channel
let carol: Account; // no YouTube connection
let erin: Account; // a channel without the monetary scope
let frank: Account; // a channel whose Tuesday uploads outperform
let aliceVideos: { id: number; videoId: string }[];
let frankVideos: { id: number; videoId: string }[];
let bobVideos: { id: number; videoId: string }[];

const DAY_MS = 86_400_000;
const today = '2026-11-02';
const dayOffset = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

// Stored in the spec's other spelling: TitleCase keys inside a JSON string.
const TITLE_CASE_RETENTION = JSON.stringify([
  { TimeRatio: 0.02, WatchRatio: 0.9, RelativePerformance: 0.6 },
  { TimeRatio: 0.01, WatchRatio: 1, RelativePerformance: 0.55 },
  { TimeRatio: 'x', WatchRatio: 0.5 },
  { TimeRatio: 1, WatchRatio: 0.31, RelativePerformance: null },
]);

function aliceVideo(index: number): SeedVideo {
  const video: SeedVideo = {
    title: index % 10 === 3 ? `Cooking show ${index}` : index === 4 ? 'Finished 100%_done' : `Video ${index}`,
    views: index >= 50 ? 500 : 1000 + index * 100,
    likes: 10 + index,
    comments: index % 5,
    watchTimeMinutes: 100 + index,
    durationSeconds: 300 + index,
    retention: [{ timeRatio: 0.5, watchRatio: 0.5, relativePerformance: null }],
  };
  if (index === 0) {
    return {
      ...video,
      estimatedRevenue: 12.5,
      estimatedAdRevenue: 9,
      cpm: 4.1,
      impressions: 20_000,
      clickThroughRate: 5.2,
      averageViewPercentage: 45,
      retention: TITLE_CASE_RETENTION,
      traffic: [
        { sourceType: 'YT_SEARCH', views: 600, watchTimeMinutes: 1200 },
        { sourceType: 'RELATED_VIDEO', views: 300 },
        { sourceType: 'SOMETHING_NEW', views: 100 },
      ],
    };
  }
  if (index === 1) return { ...video, estimatedRevenue: 10 };
  return video;
}

function aliceDaily() {
  const days: { date: string; values: Record<string, number> }[] = [];
  for (let k = 0; k < 7; k += 1) {
    days.push({
      date: dayOffset(-6 + k),
      values: {
        views: 1000,
        watch_time_minutes: 3000,
        likes: 50,
        comments: 10,
        subscribers_gained: 5,
        revenue: 4,
        ad_revenue: 3,
        monetized_playbacks: 100 * (k + 1),
        cpm: k < 3 ? 5 : 10,
      },
    });
    days.push({ date: dayOffset(-13 + k), values: { views: 900, revenue: 2 } });
  }
  return days;
}

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  const now = server.clock.now();
  [alice, bob, carol, erin, frank] = [await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server), await signUpWithAccess(server)];
  const seededAlice = await seedYoutubeChannel(server.db, {
    userId: alice.user.id,
    now,
    title: 'Alice cooks',
    reachSince: new Date('2026-10-03T07:00:00Z'),
    videos: Array.from({ length: 60 }, (_, index) => aliceVideo(index)),
    daily: aliceDaily(),
    channelTraffic: Array.from({ length: 7 }, (_, k) => [
      { date: dayOffset(-k), sourceType: 'YT_SEARCH', views: 600 },
      { date: dayOffset(-k), sourceType: 'RELATED_VIDEO', views: 300 },
      { date: dayOffset(-k), sourceType: 'EXT_URL', views: 100 },
    ]).flat(),
    demographics: [
      { periodDays: 7, demographicType: 'ageGender', demographicValue: 'female age18-24', viewerPercentage: 100 },
      { periodDays: 30, demographicType: 'ageGender', demographicValue: 'male age18-24', viewerPercentage: 35 },
      { periodDays: 30, demographicType: 'ageGender', demographicValue: 'female age25-34', viewerPercentage: 40 },
      { periodDays: 30, demographicType: 'ageGender', demographicValue: 'male age65-', viewerPercentage: 25 },
      { periodDays: 30, demographicType: 'country', demographicValue: 'DE', viewerPercentage: 60 },
      { periodDays: 90, demographicType: 'country', demographicValue: 'US', viewerPercentage: 70 },
    ],
  });
  aliceVideos = seededAlice.videos;
  // Bob's channel holds videos with the same YouTube ids as Alice's: each user must only ever see their own.
  bobVideos = (await seedYoutubeChannel(server.db, { userId: bob.user.id, now, videos: [{ videoId: 'bobsvideo01', title: 'Bob only' }, { videoId: testVideoId(0), title: 'Bob copy' }] })).videos;
  await seedYoutubeChannel(server.db, {
    userId: erin.user.id,
    now,
    revenueAccess: 'missingScope',
    videos: [{ estimatedRevenue: 5, estimatedAdRevenue: 4, cpm: 3, views: 2000, likes: null, comments: null }],
    daily: [{ date: today, values: { views: 100, revenue: 1 } }],
  });
  // Frank: 120 videos, Tuesday uploads get twice the first-week views.
  frankVideos = (
    await seedYoutubeChannel(server.db, {
      userId: frank.user.id,
      now,
      videos: Array.from({ length: 120 }, (_, index) => {
        const publishedAt = new Date(Date.UTC(2026, 9, 25 - index, 15));
        const firstWeek = Math.round(8000 * wobble(index) * (publishedAt.getUTCDay() === 2 ? 2 : 1));
        return {
          publishedAt,
          earlyViews: earlyViewsFor(firstWeek),
          views: firstWeek * 2,
          likes: Math.round(firstWeek * 0.04),
          comments: 20,
          averageViewPercentage: 40 * wobble(index + 2),
          clickThroughRate: 5 * wobble(index + 4),
        };
      }),
    })
  ).videos;
});
afterAll(async () => {
  await server?.close();
});

const get = (path: string, account: Account = alice) => server.request('GET', path, { token: account.token });
const post = (path: string, account: Account = alice) => server.request('POST', path, { token: account.token });

describe('without a YouTube connection', () => {
  it('answers well-formed empty answers', async () => {
    expect((await get('/api/youtubeanalytics/videos', carol)).body).toEqual({ connected: false, revenueAccess: 'missingScope', videos: [], page: 1, pageSize: 25, total: 0, lastSyncedAt: null });
    const summary = await get('/api/youtubeanalytics/performance-summary?days=7', carol);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ connected: false, analyticsAccess: false, days: 7, totalVideos: 0, totalViews: null, totalRevenue: null, revenue: { totalRevenue: null, trend: [], revenueBySource: [] } });
    expect((await get('/api/youtubeanalytics/demographics', carol)).body).toEqual([]);
    expect((await get('/api/youtubeanalytics/insights', carol)).body).toEqual([]);
    expect((await post('/api/youtubeanalytics/insights/generate', carol)).body).toEqual([]);
  });

  it('knows no video and cannot sync', async () => {
    for (const path of ['/api/youtubeanalytics/videos/1', `/api/youtubeanalytics/videos/${testVideoId(0)}/traffic-sources`, '/api/youtubeanalytics/insights/1/viral-potential']) {
      const response = await get(path, carol);
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('No such video.');
    }
    expect((await post('/api/youtubeanalytics/sync', carol)).status).toBe(404);
  });
});

describe('access', () => {
  it('needs a session (401) and premium access (402)', async () => {
    expect((await server.request('GET', '/api/youtubeanalytics/videos')).status).toBe(401);
    const noAccess = await server.signUp();
    for (const [method, path] of [
      ['GET', '/api/youtubeanalytics/videos'],
      ['GET', '/api/youtubeanalytics/performance-summary'],
      ['POST', '/api/youtubeanalytics/insights/generate'],
      ['GET', `/api/youtubeanalytics/insights/${aliceVideos[0]!.id}/viral-potential`],
    ] as const) {
      const response = await server.request(method, path, { token: noAccess.token });
      expect(response.status).toBe(402);
      expect(response.body.upgradeUrl).toBe('/billing?upgrade=true');
    }
  });

  it("answers another user's video as absent, by our id or by YouTube's", async () => {
    for (const path of [`/api/youtubeanalytics/videos/${aliceVideos[1]!.id}`, `/api/youtubeanalytics/videos/${aliceVideos[1]!.videoId}/traffic-sources`, `/api/youtubeanalytics/insights/${aliceVideos[1]!.id}/viral-potential`]) {
      expect((await get(path, bob)).status).toBe(404);
    }
    // The same YouTube id in two channels: each user gets their own video.
    expect((await get(`/api/youtubeanalytics/videos/${testVideoId(0)}`, bob)).body.title).toBe('Bob copy');
    expect((await get(`/api/youtubeanalytics/videos/${testVideoId(0)}`)).body.title).toBe('Video 0');
    expect((await get(`/api/youtubeanalytics/videos/${bobVideos[0]!.id}`)).status).toBe(404);
    expect((await get('/api/youtubeanalytics/videos/9999999999')).status).toBe(404);
  });
});

describe('validation', () => {
  it.each([
    ['/api/youtubeanalytics/videos?days=0', 'days must be at least 1'],
    ['/api/youtubeanalytics/videos?days=abc', 'days must be a whole number'],
    ['/api/youtubeanalytics/videos?pageSize=1000', 'pageSize must be at most 100'],
    ['/api/youtubeanalytics/videos?sort=bogus', 'sort must be one of publishedAt, views'],
    ['/api/youtubeanalytics/videos?order=up', 'order must be asc or desc'],
    ['/api/youtubeanalytics/videos?colour=red', 'Unknown field'],
    ['/api/youtubeanalytics/performance-summary?days=-3', 'days must be a whole number'],
    ['/api/youtubeanalytics/demographics?days=99999', 'days must be at most 730'],
    ['/api/youtubeanalytics/videos/not-an-id!', 'id must be a video id'],
    ['/api/youtubeanalytics/insights/12345678901234/viral-potential', 'id must be a video id'],
  ])('%s → 400', async (path, message) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('bad_request');
    expect(response.body.message).toContain(message);
  });

  it('refuses a bad sync window', async () => {
    expect((await post('/api/youtubeanalytics/sync?days=zero')).status).toBe(400);
  });
});

describe('GET /api/youtubeanalytics/videos', () => {
  it('pages and sorts on the server, ties broken by id', async () => {
    const first = await get('/api/youtubeanalytics/videos?sort=views&order=desc&pageSize=10');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ connected: true, revenueAccess: 'available', page: 1, pageSize: 10, total: 60 });
    expect(first.body.videos.map((video: { views: number }) => video.views)).toEqual(Array.from({ length: 10 }, (_, k) => 1000 + (49 - k) * 100));
    // Ten videos share 500 views: ascending pages of 4 walk them in id order, never repeating one.
    const pages = await Promise.all([1, 2, 3].map((page) => get(`/api/youtubeanalytics/videos?sort=views&order=asc&pageSize=4&page=${page}`)));
    const ids = pages.flatMap((page) => page.body.videos.map((video: { id: number }) => video.id));
    expect(ids.slice(0, 10)).toEqual(aliceVideos.slice(50, 60).map((video) => video.id));
    expect(new Set(ids).size).toBe(12);
    const past = await get('/api/youtubeanalytics/videos?page=99&pageSize=10');
    expect(past.body).toMatchObject({ videos: [], total: 60 });
  });

  it('sorts by engagement, revenue and title, unknown values last', async () => {
    const engagement = (await get('/api/youtubeanalytics/videos?sort=engagement&pageSize=100')).body.videos.map((video: { engagementRate: number }) => video.engagementRate);
    expect(engagement).toEqual([...engagement].sort((a, b) => b - a));
    const revenue = (await get('/api/youtubeanalytics/videos?sort=revenue&pageSize=3')).body.videos;
    expect(revenue.map((video: { estimatedRevenue: number | null }) => video.estimatedRevenue)).toEqual([12.5, 10, null]);
    const ascending = (await get('/api/youtubeanalytics/videos?sort=revenue&order=asc&pageSize=3')).body.videos;
    expect(ascending.map((video: { estimatedRevenue: number | null }) => video.estimatedRevenue)).toEqual([10, 12.5, null]);
    const titles = (await get('/api/youtubeanalytics/videos?sort=title&pageSize=2')).body.videos.map((video: { title: string }) => video.title);
    expect(titles).toEqual(['Cooking show 13', 'Cooking show 23']);
  });

  it('searches titles case-insensitively and literally, and filters by publishing date', async () => {
    const cooking = await get('/api/youtubeanalytics/videos?search=COOKING&pageSize=100');
    expect(cooking.body.total).toBe(6);
    const literal = await get(`/api/youtubeanalytics/videos?search=${encodeURIComponent('100%_')}`);
    expect(literal.body.videos.map((video: { title: string }) => video.title)).toEqual(['Finished 100%_done']);
    expect((await get(`/api/youtubeanalytics/videos?search=${encodeURIComponent('0%')}`)).body.total).toBe(1);
    // Published 1 to 60 days ago: the last 7 days (2026-10-27 onwards) hold six of them.
    const recent = await get('/api/youtubeanalytics/videos?days=7&sort=publishedAt&order=asc');
    expect(recent.body.total).toBe(6);
    expect(recent.body.videos[0].id).toBe(aliceVideos[5]!.id);
  });

  it('applies the fallbacks only where YouTube reported nothing, and flags them', async () => {
    const videos = (await get('/api/youtubeanalytics/videos?sort=revenue&pageSize=2')).body.videos;
    expect(videos[0]).toMatchObject({
      id: aliceVideos[0]!.id,
      videoId: testVideoId(0),
      views: 1000,
      estimatedRevenue: 12.5,
      estimatedAdRevenue: 9,
      cpm: 4.1,
      impressions: 20_000,
      clickThroughRate: 5.2,
      averagePercentageViewed: 45,
      engagementRate: 1,
      estimatedFields: [],
      url: `https://www.youtube.com/watch?v=${testVideoId(0)}`,
    });
    // 1,100 views, revenue 10: ad revenue 8, cpm 10 / 1,100 × 1,000, impressions 1.2 × views; (11 + 1) / 1,100.
    expect(videos[1]).toMatchObject({
      estimatedRevenue: 10,
      estimatedAdRevenue: 8,
      cpm: 9.09,
      impressions: 1320,
      engagementRate: 1.09,
      clickThroughRate: null,
      estimatedFields: ['estimatedAdRevenue', 'cpm', 'impressions'],
    });
  });

  it('hides revenue without revenue access and computes no revenue fallback', async () => {
    const response = await get('/api/youtubeanalytics/videos', erin);
    expect(response.body.revenueAccess).toBe('missingScope');
    expect(response.body.videos[0]).toMatchObject({ estimatedRevenue: null, estimatedAdRevenue: null, cpm: null, impressions: 2400, engagementRate: null, estimatedFields: ['impressions'] });
  });

  it('pages a channel of 2,000 videos', async () => {
    const grace = await signUpWithAccess(server);
    await seedYoutubeChannel(server.db, {
      userId: grace.user.id,
      now: server.clock.now(),
      videos: Array.from({ length: 2000 }, (_, index) => ({ views: (index * 7919) % 5000, likes: index % 97, comments: index % 13 })),
    });
    const response = await get('/api/youtubeanalytics/videos?sort=engagement&order=desc&page=40&pageSize=50', grace);
    expect(response.body.total).toBe(2000);
    expect(response.body.videos).toHaveLength(50);
    const rates = response.body.videos.map((video: { engagementRate: number | null }) => video.engagementRate ?? -1);
    expect(rates).toEqual([...rates].sort((a: number, b: number) => b - a));
  });
});

describe('GET /api/youtubeanalytics/videos/{id}', () => {
  it('answers the video with its retention curve in one shape, by our id or YouTube’s', async () => {
    const byId = await get(`/api/youtubeanalytics/videos/${aliceVideos[0]!.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.retentionData).toEqual([
      { timeRatio: 0.01, watchRatio: 1, relativePerformance: 0.55 },
      { timeRatio: 0.02, watchRatio: 0.9, relativePerformance: 0.6 },
      { timeRatio: 1, watchRatio: 0.31, relativePerformance: null },
    ]);
    expect(byId.body.revenueAccess).toBe('available');
    // Reported impressions count from the oldest reach report read; the 1.2 × views estimate has no start.
    expect(byId.body).toMatchObject({ impressions: 20_000, impressionsSince: '2026-10-03T07:00:00.000Z' });
    const byVideoId = await get(`/api/youtubeanalytics/videos/${testVideoId(2)}`);
    expect(byVideoId.body).toMatchObject({ id: aliceVideos[2]!.id, retentionData: [{ timeRatio: 0.5, watchRatio: 0.5, relativePerformance: null }] });
    expect(byVideoId.body).toMatchObject({ estimatedFields: expect.arrayContaining(['impressions']), impressionsSince: null });
  });

  it('answers traffic sources with readable names and shares', async () => {
    const response = await get(`/api/youtubeanalytics/videos/${aliceVideos[0]!.id}/traffic-sources`);
    expect(response.body).toEqual([
      { id: `${aliceVideos[0]!.id}:YT_SEARCH`, source: 'YouTube search', sourceType: 'YT_SEARCH', views: 600, watchTimeMinutes: 1200, percentage: 60 },
      { id: `${aliceVideos[0]!.id}:RELATED_VIDEO`, source: 'Suggested videos', sourceType: 'RELATED_VIDEO', views: 300, watchTimeMinutes: null, percentage: 30 },
      { id: `${aliceVideos[0]!.id}:SOMETHING_NEW`, source: 'Other', sourceType: 'SOMETHING_NEW', views: 100, watchTimeMinutes: null, percentage: 10 },
    ]);
    expect((await get(`/api/youtubeanalytics/videos/${aliceVideos[3]!.id}/traffic-sources`)).body).toEqual([]);
  });
});

describe('GET /api/youtubeanalytics/demographics', () => {
  it('answers the smallest stored period covering the days, largest share first', async () => {
    expect((await get('/api/youtubeanalytics/demographics?days=14')).body).toEqual([
      { demographicType: 'country', demographicValue: 'DE', viewsPercentage: 60 },
      { demographicType: 'ageGender', demographicValue: 'female 25-34', viewsPercentage: 40 },
      { demographicType: 'ageGender', demographicValue: 'male 18-24', viewsPercentage: 35 },
      { demographicType: 'ageGender', demographicValue: 'male 65+', viewsPercentage: 25 },
    ]);
    expect((await get('/api/youtubeanalytics/demographics?days=7')).body).toEqual([{ demographicType: 'ageGender', demographicValue: 'female 18-24', viewsPercentage: 100 }]);
    // Nothing stored for a year: the longest period there is.
    expect((await get('/api/youtubeanalytics/demographics?days=700')).body).toEqual([{ demographicType: 'country', demographicValue: 'US', viewsPercentage: 70 }]);
  });
});

describe('GET /api/youtubeanalytics/performance-summary', () => {
  it('computes the cards and the revenue panel for the period', async () => {
    const response = await get('/api/youtubeanalytics/performance-summary?days=7');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      connected: true,
      channelTitle: 'Alice cooks',
      days: 7,
      totalVideos: 60,
      analyticsAccess: true,
      totalViews: 7000,
      totalWatchTime: 21_000,
      averageEngagement: 6,
      totalRevenue: 28,
      subscribersGained: 35,
      revenueAccess: 'available',
    });
    expect(response.body.revenue).toEqual({
      totalRevenue: 28,
      previousPeriodRevenue: 14,
      changePercent: 100,
      rpm: 4,
      // (5 × 600 + 10 × 2,200) / 2,800 monetized playbacks.
      cpm: 8.93,
      monetizedViews: 2800,
      adRevenue: 21,
      otherRevenue: 7,
      monthlyProjection: 120,
      trend: Array.from({ length: 7 }, (_, k) => ({ date: dayOffset(-6 + k), revenue: 4 })),
      topEarningVideos: [
        { id: aliceVideos[0]!.id, videoId: testVideoId(0), title: 'Video 0', revenue: 12.5, views: 1000 },
        { id: aliceVideos[1]!.id, videoId: testVideoId(1), title: 'Video 1', revenue: 10, views: 1100 },
      ],
      revenueBySource: [
        { source: 'YouTube search', revenue: 16.8, percentage: 60 },
        { source: 'Suggested videos', revenue: 8.4, percentage: 30 },
        { source: 'External', revenue: 2.8, percentage: 10 },
      ],
      estimatedFields: [],
    });
  });

  it('estimates ad revenue and cpm only when YouTube reported none, and has no previous period before the history', async () => {
    const response = await get('/api/youtubeanalytics/performance-summary?days=30');
    // 30 days: 28 + 14 revenue; the previous 30 days have no rows at all.
    expect(response.body.revenue).toMatchObject({ totalRevenue: 42, previousPeriodRevenue: null, changePercent: null, adRevenue: 21, estimatedFields: [] });
    const henry = await signUpWithAccess(server);
    await seedYoutubeChannel(server.db, { userId: henry.user.id, now: server.clock.now(), daily: [{ date: today, values: { views: 2000, revenue: 10 } }] });
    const estimated = (await get('/api/youtubeanalytics/performance-summary?days=7', henry)).body.revenue;
    expect(estimated).toMatchObject({ totalRevenue: 10, adRevenue: 8, otherRevenue: 2, cpm: 5, monetizedViews: null, estimatedFields: ['adRevenue', 'cpm'] });
    // One day reported of the seven asked: the projection is that day's revenue × 30, not the week's ÷ 7 × 30.
    expect(estimated.monthlyProjection).toBe(300);
  });

  it('answers no revenue without revenue access', async () => {
    const response = await get('/api/youtubeanalytics/performance-summary?days=7', erin);
    expect(response.body).toMatchObject({ connected: true, totalViews: 100, totalRevenue: null, revenueAccess: 'missingScope' });
    expect(response.body.revenue).toMatchObject({ totalRevenue: null, rpm: null, trend: [], topEarningVideos: [], revenueBySource: [] });
  });
});

describe('the performance summary’s comparison and freshness', () => {
  it('compares the cards with the previous period over the days YouTube has reported, and says how far that is', async () => {
    const grace = await signUpWithAccess(server);
    // The daily report ends on 10-31 (YouTube's lag): the current 7 days (10-27 … 11-02) have 5 days of figures, so
    // the previous 7 days (10-20 … 10-26) are compared over their first 5 too.
    const daily = [
      ...Array.from({ length: 5 }, (_, k) => ({ date: dayOffset(-6 + k), values: { views: 100, likes: 8, comments: 2, watch_time_minutes: 300, revenue: 1 } })),
      ...Array.from({ length: 7 }, (_, k) => ({ date: dayOffset(-13 + k), values: { views: 80, likes: 4, comments: 0, watch_time_minutes: 200, revenue: 0.5 } })),
    ];
    const publishedAt = ['2026-10-01T12:00:00Z', '2026-10-25T12:00:00Z', '2026-11-01T12:00:00Z'].map((instant) => ({ publishedAt: new Date(instant) }));
    await seedYoutubeChannel(server.db, { userId: grace.user.id, now: server.clock.now(), videos: publishedAt, daily });

    const summary = (await get('/api/youtubeanalytics/performance-summary?days=7', grace)).body;
    expect(summary).toMatchObject({ startDate: '2026-10-27', endDate: '2026-11-02', totalVideos: 3, totalViews: 500, totalRevenue: 5, completeThrough: '2026-10-31', revenueCompleteThrough: '2026-10-31' });
    expect(summary.comparison).toEqual({
      compare: 'previous',
      startDate: '2026-10-20',
      endDate: '2026-10-26',
      currentTotals: { totalVideos: 3, totalViews: 500, totalWatchTime: 1500, averageEngagement: 10, totalRevenue: 5 },
      totals: { totalVideos: 2, totalViews: 400, totalWatchTime: 1000, averageEngagement: 5, totalRevenue: 2.5 },
      revenueTrend: Array.from({ length: 7 }, (_, k) => ({ date: dayOffset(-13 + k), revenue: 0.5 })),
    });
    // The revenue panel's change is the same like-for-like comparison.
    expect(summary.revenue).toMatchObject({ totalRevenue: 5, previousPeriodRevenue: 2.5, changePercent: 100 });

    const none = (await get('/api/youtubeanalytics/performance-summary?days=7&compare=none', grace)).body;
    expect(none.comparison).toBeNull();
    expect(none.revenue).toMatchObject({ previousPeriodRevenue: null, changePercent: null });
    // Nothing a year back: no data (null), never 0.
    const year = (await get('/api/youtubeanalytics/performance-summary?days=7&compare=year', grace)).body.comparison;
    expect(year).toMatchObject({ startDate: '2025-10-27', endDate: '2025-11-02' });
    expect(year.totals).toEqual({ totalVideos: 0, totalViews: null, totalWatchTime: null, averageEngagement: null, totalRevenue: null });
    const custom = (await get('/api/youtubeanalytics/performance-summary?days=7&compareStartDate=2026-10-20&compareEndDate=2026-10-26', grace)).body.comparison;
    expect(custom).toEqual({ ...summary.comparison, compare: 'custom' });
    expect((await get('/api/youtubeanalytics/performance-summary?days=7&compare=custom', grace)).status).toBe(400);
    // Without revenue access, revenue stays unknown on both sides.
    expect((await get('/api/youtubeanalytics/performance-summary?days=7', erin)).body).toMatchObject({
      revenueCompleteThrough: null,
      comparison: { totals: { totalRevenue: null }, currentTotals: { totalRevenue: null }, revenueTrend: [] },
    });
    expect((await get('/api/youtubeanalytics/performance-summary', carol)).body).toMatchObject({ comparison: null, completeThrough: null });
  });
});

describe('the channel trend and a video’s views over time', () => {
  let ivy: Account;
  let ivyVideos: { id: number; videoId: string }[];
  beforeAll(async () => {
    ivy = await signUpWithAccess(server);
    // The report ends on 10-31 (YouTube's lag); 10-29 has no row; the subscriber total is also written for today.
    const daily: { date: string; values: Record<string, number> }[] = [
      { date: dayOffset(-6), values: { views: 100, watch_time_minutes: 300, subscribers_gained: 5, subscribers_lost: 1, subscribers: 996 } },
      { date: dayOffset(-5), values: { views: 120, watch_time_minutes: 310, subscribers_gained: 3, subscribers_lost: 0, subscribers: 999 } },
      { date: dayOffset(-2), values: { views: 90, watch_time_minutes: 250, subscribers_gained: 1, subscribers_lost: 0, subscribers: 1000 } },
      { date: today, values: { subscribers: 1000 } },
    ];
    const videos = [{ publishedAt: new Date('2026-10-20T15:00:00Z'), views: 700, earlyViews: [300, 200, 0] }, { publishedAt: null, earlyViews: null }];
    const seeded = await seedYoutubeChannel(server.db, { userId: ivy.user.id, now: server.clock.now(), daily, videos });
    ivyVideos = seeded.videos;
    const young = ivyVideos[0]!.id;
    await server.db.insert(contentMetrics).values([
      { contentItemId: young, connectionId: seeded.connectionId, metricType: 'views', asOf: '2026-10-30', value: 650 },
      { contentItemId: young, connectionId: seeded.connectionId, metricType: 'views', asOf: '2026-11-01', value: 700 },
      { contentItemId: young, connectionId: seeded.connectionId, metricType: 'likes', asOf: '2026-11-01', value: 9 },
    ]);
  });

  it('lists the channel’s days through the last complete day of the report, missing figures null', async () => {
    const summary = (await get('/api/youtubeanalytics/performance-summary?days=7', ivy)).body;
    expect(summary.completeThrough).toBe('2026-10-31');
    const nothing = { views: null, watchTimeMinutes: null, subscribersGained: null, subscribersLost: null, subscribers: null };
    expect(summary.channelTrend).toEqual([
      { date: '2026-10-27', views: 100, watchTimeMinutes: 300, subscribersGained: 5, subscribersLost: 1, subscribers: 996 },
      { date: '2026-10-28', views: 120, watchTimeMinutes: 310, subscribersGained: 3, subscribersLost: 0, subscribers: 999 },
      { date: '2026-10-29', ...nothing },
      { date: '2026-10-30', ...nothing },
      { date: '2026-10-31', views: 90, watchTimeMinutes: 250, subscribersGained: 1, subscribersLost: 0, subscribers: 1000 },
    ]);
    // Without a channel there is no trend.
    expect((await get('/api/youtubeanalytics/performance-summary', carol)).body.channelTrend).toEqual([]);
  });

  it('answers a video’s daily views from YouTube’s report and its total views as read each day', async () => {
    const detail = (await get(`/api/youtubeanalytics/videos/${ivyVideos[0]!.id}`, ivy)).body;
    expect(detail.viewsHistory).toEqual({
      daily: [
        { date: '2026-10-20', views: 300 },
        { date: '2026-10-21', views: 200 },
        { date: '2026-10-22', views: 0 },
      ],
      totals: [
        { date: '2026-10-30', views: 650 },
        { date: '2026-10-31', views: null },
        { date: '2026-11-01', views: 700 },
      ],
    });
    expect((await get(`/api/youtubeanalytics/videos/${ivyVideos[1]!.id}`, ivy)).body.viewsHistory).toEqual({ daily: [], totals: [] });
  });
});

describe('POST /api/youtubeanalytics/sync', () => {
  it("queues the YouTube connection's sync", async () => {
    const response = await post('/api/youtubeanalytics/sync?days=30');
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'queued' });
    expect(response.body.jobId).toEqual(expect.any(String));
    const status = await get('/api/sync/status');
    expect(status.body.find((entry: { connectionId: number }) => entry.connectionId === response.body.connectionId)?.status).toBe('queued');
  });
});

describe('insights and viral potential', () => {
  it('generates insights from the channel’s data, stores them, and answers the latest batch', async () => {
    const generated = await post('/api/youtubeanalytics/insights/generate', frank);
    expect(generated.status).toBe(200);
    const day = generated.body.find((insight: { insightType: string }) => insight.insightType === 'best_publish_day');
    expect(day).toMatchObject({ title: 'Best day to publish: Tuesday', videoId: null, createdAt: '2026-11-02T10:00:00.000Z' });
    expect(day.confidenceScore).toBeGreaterThanOrEqual(0.8);
    expect(day.recommendation).toMatch(/^Videos published on Tuesday \(UTC\) got \d\.\d× the 7-day views of those published on other days, 95 % CI \d\.\d–\d\.\d×, n = \d+ vs \d+\./);
    // The evidence travels with the insight, stored in the facts column and split out again.
    expect(day.evidence).toMatchObject({ effect: 'ratioOfGeometricMeans', measure: '7-day views', noEffect: 1, comparisons: 7 });
    expect(day.evidence.ci95.low).toBeGreaterThan(1);
    expect(day.facts).not.toHaveProperty('evidence');
    const scores = generated.body.map((insight: { confidenceScore: number }) => insight.confidenceScore);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect((await get('/api/youtubeanalytics/insights', frank)).body).toEqual(generated.body);
    // A new run replaces the previous batch.
    const again = await post('/api/youtubeanalytics/insights/generate', frank);
    expect(again.body.map((insight: { insightType: string }) => insight.insightType)).toEqual(generated.body.map((insight: { insightType: string }) => insight.insightType));
    expect((await get('/api/youtubeanalytics/insights', frank)).body).toEqual(again.body);
    // Other users see only their own.
    expect((await get('/api/youtubeanalytics/insights', bob)).body).toEqual([]);
  });

  it('gives a small channel no insights', async () => {
    expect((await post('/api/youtubeanalytics/insights/generate', bob)).body).toEqual([]);
  });

  it('scores viral potential by our id or YouTube’s videoId', async () => {
    const tuesday = frankVideos.find((_, index) => new Date(Date.UTC(2026, 9, 25 - index, 15)).getUTCDay() === 2)!;
    const byId = await get(`/api/youtubeanalytics/insights/${tuesday.id}/viral-potential`, frank);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ videoId: tuesday.videoId, baselineSampleSize: 119 });
    expect(byId.body.reasons.map((reason: { factor: string }) => reason.factor)).toEqual(['viewVelocity', 'engagementRate', 'retention', 'clickThroughRate']);
    expect(byId.body.score).toBeGreaterThan(50);
    expect(byId.body.recommendation).toMatch(new RegExp(`^Viral potential ${byId.body.score}/100`));
    expect((await get(`/api/youtubeanalytics/insights/${tuesday.videoId}/viral-potential`, frank)).body).toEqual(byId.body);
  });

  it('answers 422 when the channel is too small for a baseline', async () => {
    const response = await get(`/api/youtubeanalytics/insights/${bobVideos[0]!.id}/viral-potential`, bob);
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/at least 3 other videos/);
  });
});
