// YouTube's metrics endpoints as a sync adapter drives them: uploads playlist paging, videos.list batches of 50,
// reports.query tables, quota units, determinism and injected failures.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, bearer, callbackParams, DAY, get, pkcePair, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const MONETARY = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';

async function connect(account = 0, scopes = `${READONLY} ${ANALYTICS}`): Promise<string> {
  const { sandbox } = context;
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(sandbox, 'https://accounts.google.com/o/oauth2/v2/auth', {
    response_type: 'code',
    client_id: sandbox.credentials.youtube.clientId,
    redirect_uri: redirectUriFor('youtube'),
    state: 's',
    scope: scopes,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const { redirectUrl } = await sandbox.authorize(url, { account });
  const token = await postForm(
    sandbox.url('https://oauth2.googleapis.com/token'),
    { grant_type: 'authorization_code', code: callbackParams(redirectUrl).get('code')!, redirect_uri: redirectUriFor('youtube'), code_verifier: verifier },
    basicAuth(sandbox.credentials.youtube.clientId, sandbox.credentials.youtube.clientSecret),
  );
  expect(token.status).toBe(200);
  return token.body.access_token as string;
}

const api = (path: string) => context.sandbox.url(`https://www.googleapis.com/youtube/v3/${path}`);
const report = (query: string) => context.sandbox.url(`https://youtubeanalytics.googleapis.com/v2/reports?ids=channel%3D%3DMINE&${query}`);

/** Walks the uploads playlist as an adapter does; returns every video id. */
async function allUploads(token: string): Promise<string[]> {
  const channel = await get(api('channels?part=snippet,statistics,contentDetails&mine=true'), bearer(token));
  expect(channel.status).toBe(200);
  const uploads = channel.body.items[0].contentDetails.relatedPlaylists.uploads as string;
  expect(uploads.startsWith('UU')).toBe(true);
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await get(api(`playlistItems?part=contentDetails,snippet&playlistId=${uploads}&maxResults=50${pageToken ? `&pageToken=${pageToken}` : ''}`), bearer(token));
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(50);
    ids.push(...page.body.items.map((item: any) => item.contentDetails.videoId));
    pageToken = page.body.nextPageToken;
  } while (pageToken);
  return ids;
}

describe('YouTube Data API: uploads and videos', () => {
  it('pages through ~1,000 uploads of the large channel, newest first, with videoCount matching', async () => {
    const token = await connect(0);
    const ids = await allUploads(token);
    const { sandbox } = context;
    expect(ids.length).toBeGreaterThan(900);
    expect(ids.length).toBeLessThan(1200);
    expect(new Set(ids).size).toBe(ids.length);
    const channel = await get(api('channels?part=statistics&mine=true'), bearer(token));
    expect(channel.body.items[0].statistics.videoCount).toBe(String(ids.length));
    expect(sandbox.countCalls('youtube', 'playlistItems.list')).toBe(Math.ceil(ids.length / 50));

    // videos.list in batches of 50: ceil(n / 50) calls, statistics as strings.
    let views = 0;
    for (let offset = 0; offset < ids.length; offset += 50) {
      const batch = await get(api(`videos?part=snippet,statistics,contentDetails&id=${ids.slice(offset, offset + 50).join(',')}`), bearer(token));
      expect(batch.status).toBe(200);
      expect(batch.body.items).toHaveLength(Math.min(50, ids.length - offset));
      for (const video of batch.body.items) {
        expect(typeof video.statistics.viewCount).toBe('string');
        expect(video.contentDetails.duration).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
        expect(video.snippet.thumbnails.medium).toEqual({ url: `https://i.ytimg.com/vi/${video.id}/mqdefault.jpg`, width: 320, height: 180 });
        expect(Date.parse(video.snippet.publishedAt)).toBeLessThanOrEqual(context.clock.now().getTime());
        views += Number(video.statistics.viewCount);
      }
    }
    expect(views).toBeGreaterThan(0);
    expect(sandbox.countCalls('youtube', 'videos.list')).toBe(Math.ceil(ids.length / 50));
    // 1 unit per list call (channels ×2, playlistItems, videos).
    expect(sandbox.quotaUnitsUsed(token)).toBe(2 + Math.ceil(ids.length / 50) * 2);
    expect(sandbox.quotaUnitsUsed()).toBe(sandbox.quotaUnitsUsed(token));
  });

  it('refuses more than 50 ids and maxResults above 50', async () => {
    const token = await connect(2);
    const ids = await allUploads(token);
    const tooMany = Array.from({ length: 51 }, (_, index) => ids[index % ids.length]).join(',');
    const answer = await get(api(`videos?part=statistics&id=${tooMany}`), bearer(token));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(400);
    const channel = await get(api('channels?part=contentDetails&mine=true'), bearer(token));
    const page = await get(api(`playlistItems?part=contentDetails&playlistId=${channel.body.items[0].contentDetails.relatedPlaylists.uploads}&maxResults=51`), bearer(token));
    expect(page.status).toBe(400);
    expect(page.body.error.errors[0].reason).toBe('invalidParameter');
  });

  it('is deterministic: the same day gives the same numbers; a later day only grows them; new videos appear', async () => {
    const token = await connect(1);
    const ids = await allUploads(token);
    // The app's API key does not expire while the clock moves.
    const url = api(`videos?part=statistics&id=${ids.slice(0, 50).join(',')}&key=${context.sandbox.appKeys.youtubeApiKey}`);
    const first = await get(url);
    context.clock.advance(60 * 60 * 1000);
    const second = await get(url);
    expect(second.body.items).toEqual(first.body.items);
    context.clock.advance(30 * DAY);
    const later = await get(url);
    for (const [index, video] of later.body.items.entries()) {
      expect(Number(video.statistics.viewCount)).toBeGreaterThanOrEqual(Number(first.body.items[index].statistics.viewCount));
    }
    expect((await allUploads(await connect(1))).length).toBeGreaterThan(ids.length);
  });

  it('serves uploads to an API key too, and counts its quota separately', async () => {
    const token = await connect(0);
    const channel = await get(api('channels?part=contentDetails&mine=true'), bearer(token));
    const uploads = channel.body.items[0].contentDetails.relatedPlaylists.uploads;
    const key = context.sandbox.appKeys.youtubeApiKey;
    const page = await get(api(`playlistItems?part=contentDetails&playlistId=${uploads}&maxResults=10&key=${key}`));
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(10);
    expect(context.sandbox.quotaUnitsUsed(key)).toBe(1);
  });
});

describe('YouTube Analytics reports.query', () => {
  it('answers daily rows with columnHeaders, up to three days before today', async () => {
    const token = await connect(0);
    // Clock: 2026-05-04 → last row 2026-05-01.
    const answer = await get(report('startDate=2026-04-01&endDate=2026-05-04&dimensions=day&sort=day&metrics=views,estimatedMinutesWatched,averageViewPercentage,subscribersGained,subscribersLost,likes,comments,shares'), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.kind).toBe('youtubeAnalytics#resultTable');
    expect(answer.body.columnHeaders[0]).toEqual({ name: 'day', columnType: 'DIMENSION', dataType: 'STRING' });
    expect(answer.body.columnHeaders.map((header: any) => header.name)).toEqual(['day', 'views', 'estimatedMinutesWatched', 'averageViewPercentage', 'subscribersGained', 'subscribersLost', 'likes', 'comments', 'shares']);
    expect(answer.body.columnHeaders[3].dataType).toBe('FLOAT');
    expect(answer.body.rows).toHaveLength(31);
    expect(answer.body.rows[0][0]).toBe('2026-04-01');
    expect(answer.body.rows.at(-1)[0]).toBe('2026-05-01');
    for (const row of answer.body.rows) expect(row[1]).toBeGreaterThan(0);
    // Determinism: the same query answers the same table.
    const again = await get(report('startDate=2026-04-01&endDate=2026-05-04&dimensions=day&sort=day&metrics=views,estimatedMinutesWatched,averageViewPercentage,subscribersGained,subscribersLost,likes,comments,shares'), bearer(token));
    expect(again.body).toEqual(answer.body);
    expect(context.sandbox.countCalls('youtube', 'reports.query')).toBe(2);
  });

  it("keeps the channel's subscriber count and the reported gains in step: counted back two years it stays above zero, and a month later it has grown by the month's gains", async () => {
    // Each channel, six months after the test clock's start (the count grows with the clock, as a channel's does).
    context.clock.advance(180 * DAY);
    const day = (offset: number) => new Date(context.clock.now().getTime() + offset * DAY).toISOString().slice(0, 10);
    for (const account of [0, 1, 2]) {
      // A fresh token for each read: the clock moves by weeks and an access token lives an hour.
      const countNow = async () => Number((await get(api('channels?part=statistics&mine=true'), bearer(await connect(account)))).body.items[0].statistics.subscriberCount);
      const netGains = async (from: string, to: string) => {
        const answer = await get(report(`startDate=${from}&endDate=${to}&dimensions=day&sort=day&metrics=subscribersGained,subscribersLost`), bearer(await connect(account)));
        expect(answer.status).toBe(200);
        return (answer.body.rows ?? []).reduce((sum: number, row: number[]) => sum + row[1]! - row[2]!, 0);
      };
      const today = await countNow();
      // The count two years back: today's count less every gain reported since (the last three days are not reported
      // yet, so this is, if anything, too low).
      expect(today - (await netGains(day(-730), day(0)))).toBeGreaterThan(0);

      const monthStart = day(0);
      context.clock.advance(30 * DAY);
      const later = await countNow();
      const monthEnd = day(-1);
      // Three days on, YouTube has reported every day of the month.
      context.clock.advance(3 * DAY);
      const gained = await netGains(monthStart, monthEnd);
      expect(gained).toBeGreaterThan(0);
      // YouTube shows three figures, rounded down: the counts agree with the gains to within a step of the larger.
      const step = later < 1000 ? 1 : 10 ** (Math.floor(Math.log10(later)) - 2);
      expect(Math.abs(later - today - gained)).toBeLessThan(step);
      context.clock.advance(-33 * DAY);
    }
  });

  it('leaves rows out when there is no data', async () => {
    const token = await connect(0);
    const answer = await get(report('startDate=2026-05-02&endDate=2026-05-04&dimensions=day&metrics=views'), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.columnHeaders).toHaveLength(2);
    expect('rows' in answer.body).toBe(false);
  });

  it('answers a top-videos report only with sort and maxResults', async () => {
    const token = await connect(0);
    const bad = await get(report('startDate=2026-01-01&endDate=2026-04-30&dimensions=video&metrics=views,likes'), bearer(token));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^The query is not supported/);
    const top = await get(report('startDate=2026-01-01&endDate=2026-04-30&dimensions=video&metrics=views,likes&sort=-views&maxResults=10'), bearer(token));
    expect(top.status).toBe(200);
    expect(top.body.rows).toHaveLength(10);
    const views = top.body.rows.map((row: any) => row[1]);
    expect([...views].sort((a, b) => b - a)).toEqual(views);
    // A video filter for a per-video daily series.
    const daily = await get(report(`startDate=2026-04-01&endDate=2026-04-30&dimensions=day&metrics=views&filters=video%3D%3D${top.body.rows[0][0]}`), bearer(token));
    expect(daily.status).toBe(200);
    expect(daily.body.rows.length).toBeGreaterThan(0);
  });

  it('refuses revenue without the monetary scope (403) and serves it with it', async () => {
    const token = await connect(0);
    const denied = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day&metrics=estimatedRevenue'), bearer(token));
    expect(denied.status).toBe(403);
    const monetary = await connect(0, `${READONLY} ${ANALYTICS} ${MONETARY}`);
    const revenue = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day&metrics=estimatedRevenue,estimatedAdRevenue,cpm,monetizedPlaybacks,playbackBasedCpm'), bearer(monetary));
    expect(revenue.status).toBe(200);
    expect(revenue.body.columnHeaders[1]).toEqual({ name: 'estimatedRevenue', columnType: 'METRIC', dataType: 'CURRENCY' });
    expect(revenue.body.rows).toHaveLength(30);
    expect(revenue.body.rows[0][1]).toBeGreaterThan(0);
    // Ivy's channel is not monetised: 403 even with the scope.
    const ivy = await connect(2, `${READONLY} ${ANALYTICS} ${MONETARY}`);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&metrics=estimatedRevenue'), bearer(ivy))).status).toBe(403);
  });

  it('rejects unsupported combinations and unknown metrics', async () => {
    const token = await connect(0);
    // Demographics only answer viewerPercentage, and never by day.
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=ageGroup&metrics=views'), bearer(token))).status).toBe(400);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day,ageGroup&metrics=viewerPercentage'), bearer(token))).status).toBe(400);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=city&metrics=views'), bearer(token))).status).toBe(400);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&metrics=impressions'), bearer(token))).status).toBe(400);
  });

  it('refuses thumbnail impressions and click-through rate with "The query is not supported." (use the Reporting API)', async () => {
    const token = await connect(0);
    for (const query of ['metrics=videoThumbnailImpressions', 'dimensions=video&metrics=videoThumbnailImpressions,videoThumbnailImpressionsClickRate&sort=-videoThumbnailImpressions&maxResults=10', 'dimensions=day&metrics=videoThumbnailImpressionsClickRate']) {
      const answer = await get(report(`startDate=2026-04-01&endDate=2026-04-30&${query}`), bearer(token));
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/^The query is not supported/);
    }
  });

  it('lists at most 200 videos in the top-videos report, refuses paging past them, and serves every video in filters=video== batches of at most 200', async () => {
    const token = await connect(0);
    const ids = await allUploads(token);
    expect(ids.length).toBeGreaterThan(800);
    const totals = 'startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=views,estimatedMinutesWatched,averageViewDuration,averageViewPercentage,likes,comments,shares,subscribersGained&sort=-views&maxResults=200';
    const top = await get(report(`${totals}&startIndex=1`), bearer(token));
    expect(top.status).toBe(200);
    expect(top.body.rows).toHaveLength(200);
    // A page that starts inside the 200 ends with them.
    expect((await get(report(`${totals}&startIndex=151`), bearer(token))).body.rows).toHaveLength(50);
    const past = await get(report(`${totals}&startIndex=201`), bearer(token));
    expect(past.status).toBe(400);
    expect(past.body.error.errors[0].reason).toBe('badRequest');
    expect((await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=views&sort=-views&maxResults=201'), bearer(token))).status).toBe(400);
    // Every video, in batches of known ids.
    const listed: (string | number)[][] = [];
    for (let start = 0; start < ids.length; start += 200) {
      const batch = await get(report(`${totals}&filters=video==${ids.slice(start, start + 200).join(',')}`), bearer(token));
      expect(batch.status).toBe(200);
      listed.push(...(batch.body.rows ?? []));
    }
    expect((await get(report(`${totals}&filters=video==${ids.slice(0, 201).join(',')}`), bearer(token))).status).toBe(400);
    expect(new Set(listed.map((row) => row[0])).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThan(ids.length * 0.95);
    const views = top.body.rows.map((row: (string | number)[]) => row[1] as number);
    expect([...views].sort((a, b) => b - a)).toEqual(views);
    // The same videos from the Data API: lifetime counters now vs the report through three days ago.
    const sample = listed.slice(0, 50);
    const live = await get(api(`videos?part=statistics,contentDetails&id=${sample.map((row) => row[0]).join(',')}`), bearer(token));
    const liveViews = new Map(live.body.items.map((item: any) => [item.id, Number(item.statistics.viewCount)]));
    for (const row of sample) {
      const now = liveViews.get(row[0] as string) as number;
      expect(row[1]).toBeLessThanOrEqual(now);
      expect(row[1]).toBeGreaterThan(now * 0.9);
      // averageViewPercentage in percent; averageViewDuration in seconds.
      expect(row[4]).toBeGreaterThanOrEqual(30);
      expect(row[4]).toBeLessThanOrEqual(55);
    }
  });

  it('serves per-video revenue and the daily monetary recipe only with the monetary scope on a monetised channel', async () => {
    const monetary = await connect(0, `${READONLY} ${ANALYTICS} ${MONETARY}`);
    const perVideo = await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=estimatedRevenue,estimatedAdRevenue,cpm,monetizedPlaybacks&sort=-estimatedRevenue&maxResults=20'), bearer(monetary));
    expect(perVideo.status).toBe(200);
    expect(perVideo.body.columnHeaders.map((header: any) => header.dataType)).toEqual(['STRING', 'CURRENCY', 'CURRENCY', 'CURRENCY', 'INTEGER']);
    for (const [, revenue, adRevenue, cpm] of perVideo.body.rows) {
      expect(adRevenue).toBeLessThan(revenue);
      expect(cpm).toBeGreaterThan(0);
    }
    const daily = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day&sort=day&metrics=estimatedRevenue,estimatedAdRevenue,estimatedRedPartnerRevenue,monetizedPlaybacks,playbackBasedCpm,cpm'), bearer(monetary));
    expect(daily.body.rows).toHaveLength(30);
    expect(daily.body.columnHeaders[3]).toEqual({ name: 'estimatedRedPartnerRevenue', columnType: 'METRIC', dataType: 'CURRENCY' });
    // estimatedRevenue = ad + YouTube Premium + transactions: the first two never exceed it, and each is there.
    for (const [, revenue, adRevenue, premiumRevenue] of daily.body.rows) {
      expect(adRevenue).toBeGreaterThan(0);
      expect(premiumRevenue).toBeGreaterThan(0);
      expect(adRevenue + premiumRevenue).toBeLessThanOrEqual(revenue + 0.01);
    }
    const plain = await connect(0);
    expect((await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=estimatedRevenue&sort=-estimatedRevenue&maxResults=20'), bearer(plain))).status).toBe(403);
  });

  it('splits views by traffic source: channel by day and per video, adding up to the basic reports', async () => {
    const token = await connect(0);
    const traffic = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day,insightTrafficSourceType&metrics=views,estimatedMinutesWatched&sort=day'), bearer(token));
    expect(traffic.status).toBe(200);
    expect(traffic.body.columnHeaders.map((header: any) => header.name)).toEqual(['day', 'insightTrafficSourceType', 'views', 'estimatedMinutesWatched']);
    const daily = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=day&metrics=views'), bearer(token));
    for (const [day, views] of daily.body.rows) {
      const sources = traffic.body.rows.filter((row: any) => row[0] === day);
      expect(sources.length).toBeGreaterThan(5);
      expect(sources.reduce((total: number, row: any) => total + row[2], 0)).toBe(views);
    }
    const top = await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=views&sort=-views&maxResults=1'), bearer(token));
    const [videoId, videoViews] = top.body.rows[0];
    const perVideo = await get(report(`startDate=2024-01-01&endDate=2026-05-04&dimensions=insightTrafficSourceType&metrics=views,estimatedMinutesWatched&filters=video%3D%3D${videoId}&sort=-views`), bearer(token));
    expect(perVideo.body.rows.reduce((total: number, row: any) => total + row[1], 0)).toBe(videoViews);
    expect(perVideo.body.rows.map((row: any) => row[0])).toContain('YT_SEARCH');
    // More than 50,000 video-days is refused.
    const ids = (await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=views&sort=-views&maxResults=200'), bearer(token))).body.rows.map((row: any) => row[0]);
    expect((await get(report(`startDate=2024-05-01&endDate=2026-05-01&dimensions=insightTrafficSourceType&metrics=views&filters=video%3D%3D${ids.join(',')}`), bearer(token))).status).toBe(400);
  });

  it('answers demographics as viewerPercentage summing to 100, and countries by views', async () => {
    const token = await connect(1);
    const demographics = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=ageGroup,gender&metrics=viewerPercentage&sort=gender,ageGroup'), bearer(token));
    expect(demographics.status).toBe(200);
    expect(demographics.body.columnHeaders[2]).toEqual({ name: 'viewerPercentage', columnType: 'METRIC', dataType: 'FLOAT' });
    expect(demographics.body.rows).toHaveLength(21);
    expect(demographics.body.rows[0].slice(0, 2)).toEqual(['age13-17', 'female']);
    const total = demographics.body.rows.reduce((sum: number, row: any) => sum + row[2], 0);
    expect(Math.abs(total - 100)).toBeLessThan(0.5);
    const byGender = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=gender&metrics=viewerPercentage'), bearer(token));
    expect(byGender.body.rows.map((row: any) => row[0]).sort()).toEqual(['female', 'male', 'user_specified']);
    const countries = await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=country&metrics=views,estimatedMinutesWatched&sort=-views'), bearer(token));
    expect(countries.body.rows[0][0]).toMatch(/^(CA|US)$/);
    const views = await get(report('startDate=2026-04-01&endDate=2026-04-30&metrics=views'), bearer(token));
    expect(countries.body.rows.reduce((sum: number, row: any) => sum + row[1], 0)).toBe(views.body.rows[0][0]);
  });

  it('answers one video\'s retention curve: 100 points, an intro drop, a mean equal to averageViewPercentage', async () => {
    const token = await connect(0);
    const top = await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=video&metrics=views,averageViewPercentage&sort=-views&maxResults=2'), bearer(token));
    const [[videoId, , percent], [otherId]] = top.body.rows;
    const curve = await get(report(`startDate=2024-01-01&endDate=2026-05-04&dimensions=elapsedVideoTimeRatio&metrics=audienceWatchRatio,relativeRetentionPerformance&filters=video%3D%3D${videoId}&sort=elapsedVideoTimeRatio`), bearer(token));
    expect(curve.status).toBe(200);
    expect(curve.body.columnHeaders[0]).toEqual({ name: 'elapsedVideoTimeRatio', columnType: 'DIMENSION', dataType: 'FLOAT' });
    const rows = curve.body.rows as number[][];
    expect(rows).toHaveLength(100);
    expect(rows[0]![0]).toBe(0.01);
    expect(rows[99]![0]).toBe(1);
    expect(rows[0]![1]).toBeGreaterThan(1);
    expect(rows[20]![1]).toBeLessThan(rows[0]![1]! * 0.85);
    const mean = rows.reduce((sum, row) => sum + row[1]!, 0) / rows.length;
    expect(Math.abs(mean * 100 - percent)).toBeLessThan(1);
    for (const row of rows) {
      expect(row[2]).toBeGreaterThan(0);
      expect(row[2]).toBeLessThan(1);
    }
    // Exactly one video: none or two are refused.
    expect((await get(report('startDate=2024-01-01&endDate=2026-05-04&dimensions=elapsedVideoTimeRatio&metrics=audienceWatchRatio'), bearer(token))).status).toBe(400);
    expect((await get(report(`startDate=2024-01-01&endDate=2026-05-04&dimensions=elapsedVideoTimeRatio&metrics=audienceWatchRatio&filters=video%3D%3D${videoId},${otherId}`), bearer(token))).status).toBe(400);
  });
});

describe('YouTube Reporting API: reach reports', () => {
  const reporting = (path: string) => context.sandbox.url(`https://youtubereporting.googleapis.com/v1/${path}`);

  it('creates one reach job per channel, lists a report per day, and serves each as CSV consistent with the views', async () => {
    const token = await connect(0);
    const types = await get(reporting('reportTypes'), bearer(token));
    expect(types.body.reportTypes.map((type: any) => type.id)).toContain('channel_reach_basic_a1');
    expect(await get(reporting('jobs'), bearer(token))).toMatchObject({ status: 200, body: {} });
    const created = await fetch(reporting('jobs'), { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ reportTypeId: 'channel_reach_basic_a1', name: 'reach' }) });
    const job = (await created.json()) as { id: string };
    expect(created.status).toBe(200);
    expect(job).toMatchObject({ id: expect.any(String), reportTypeId: 'channel_reach_basic_a1', name: 'reach', createTime: '2026-05-04T10:00:00.000000Z' });
    const duplicate = await fetch(reporting('jobs'), { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ reportTypeId: 'channel_reach_basic_a1' }) });
    expect(duplicate.status).toBe(409);
    expect((await get(reporting('jobs'), bearer(token))).body.jobs).toEqual([job]);

    // Reports exist at once (the real API takes ~48 h): the 30 days before the job, newest first.
    const list = await get(reporting(`jobs/${job.id}/reports`), bearer(token));
    expect(list.body.reports).toHaveLength(30);
    const [newest] = list.body.reports;
    expect(newest).toEqual({ id: expect.any(String), jobId: job.id, startTime: '2026-05-03T00:00:00.000000Z', endTime: '2026-05-04T00:00:00.000000Z', createTime: '2026-05-04T10:00:00.000000Z', downloadUrl: expect.stringMatching(/^https:\/\/youtubereporting\.googleapis\.com\/v1\/media\//) });
    expect((await get(reporting(`jobs/${job.id}/reports?startTimeAtOrAfter=2026-05-01T00:00:00Z`), bearer(token))).body.reports).toHaveLength(3);
    expect((await get(reporting(`jobs/${job.id}/reports?createdAfter=2026-05-04T10:00:00Z`), bearer(token))).body).toEqual({});

    const csv = await fetch(context.sandbox.url(newest.downloadUrl), { headers: bearer(token) });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = (await csv.text()).trim().split('\n');
    expect(header).toBe('date,channel_id,video_id,live_or_on_demand,subscribed_status,video_thumbnail_impressions,video_thumbnail_impressions_ctr');
    expect(lines.length).toBeGreaterThan(500);
    for (const line of lines.slice(0, 100)) {
      const [date, channelId, , , subscribed, impressions, ctr] = line.split(',');
      expect(date).toBe('20260503');
      expect(channelId).toMatch(/^UC/);
      expect(['subscribed', 'not_subscribed']).toContain(subscribed);
      expect(Number(impressions)).toBeGreaterThan(0);
      expect(Number(ctr)).toBeGreaterThan(0);
      expect(Number(ctr)).toBeLessThan(0.5);
    }
    // Clicks (impressions × click-through rate) are the ~70 % of a day's views that start from a thumbnail.
    const april20 = list.body.reports.find((entry: any) => entry.startTime.startsWith('2026-04-20'));
    const rows = (await (await fetch(context.sandbox.url(april20.downloadUrl), { headers: bearer(token) })).text()).trim().split('\n').slice(1).map((line) => line.split(','));
    const videoId = rows[0]![2]!;
    const clicks = rows.filter((row) => row[2] === videoId).reduce((total, row) => total + Number(row[5]) * Number(row[6]), 0);
    const dayViews = await get(report(`startDate=2026-04-20&endDate=2026-04-20&dimensions=day&metrics=views&filters=video%3D%3D${videoId}`), bearer(token));
    expect(clicks / dayViews.body.rows[0][1]).toBeGreaterThan(0.6);
    expect(clicks / dayViews.body.rows[0][1]).toBeLessThan(0.8);
    // Another channel's token sees neither the job nor its reports.
    const other = await connect(1);
    expect((await get(reporting(`jobs/${job.id}/reports`), bearer(other))).status).toBe(404);
    expect((await fetch(context.sandbox.url(newest.downloadUrl), { headers: bearer(other) })).status).toBe(404);
    // The next day brings one more report.
    context.clock.advance(DAY);
    expect((await get(reporting(`jobs/${job.id}/reports?startTimeAtOrAfter=2026-05-04T00:00:00Z`), bearer(await connect(0)))).body.reports).toHaveLength(1);
  });

  it('restates some days: a second report for the same day, created later, with corrected figures; both stay listed', async () => {
    const token = await connect(0);
    const created = await fetch(reporting('jobs'), { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ reportTypeId: 'channel_reach_basic_a1' }) });
    const job = (await created.json()) as { id: string; createTime: string };
    const downloadTotal = async (url: string, auth: string) => {
      const lines = (await (await fetch(context.sandbox.url(url), { headers: bearer(auth) })).text()).trim().split('\n').slice(1);
      return { rows: lines.length, impressions: lines.reduce((total, line) => total + Number(line.split(',')[5]), 0) };
    };
    // At the job's creation: one report per day, no restatement yet.
    const first = (await get(reporting(`jobs/${job.id}/reports`), bearer(token))).body.reports as any[];
    expect(new Set(first.map((entry) => entry.startTime)).size).toBe(first.length);

    // Three days later the restatements of backfilled days are listed beside the reports they replace.
    context.clock.advance(3 * DAY);
    const later = await connect(0);
    const all = (await get(reporting(`jobs/${job.id}/reports`), bearer(later))).body.reports as any[];
    const byDay = new Map<string, any[]>();
    for (const entry of all) byDay.set(entry.startTime, [...(byDay.get(entry.startTime) ?? []), entry]);
    const restatedDays = [...byDay.values()].filter((entries) => entries.length === 2);
    expect(restatedDays.length).toBeGreaterThanOrEqual(3);
    expect(restatedDays.length).toBeLessThanOrEqual(5);
    const [restatement, original] = restatedDays[0]!.sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime));
    expect(restatement.id).not.toBe(original.id);
    expect(restatement.endTime).toBe(original.endTime);
    expect(Date.parse(restatement.createTime) - Date.parse(original.createTime)).toBe(3 * DAY);
    // Listed as created after the first read, though its day is long past: only createdAfter finds it.
    const since = (await get(reporting(`jobs/${job.id}/reports?createdAfter=${encodeURIComponent(job.createTime)}`), bearer(later))).body.reports as any[];
    expect(since.map((entry) => entry.id)).toContain(restatement.id);
    expect(since.map((entry) => entry.id)).not.toContain(original.id);
    expect(Date.parse(restatement.startTime)).toBeLessThan(Date.parse(job.createTime) - DAY);
    // Corrected figures: 7 % of the impressions removed, small rows dropped.
    const before = await downloadTotal(original.downloadUrl, later);
    const after = await downloadTotal(restatement.downloadUrl, later);
    expect(after.impressions).toBeLessThan(before.impressions * 0.94);
    expect(after.impressions).toBeGreaterThan(before.impressions * 0.9);
    expect(after.rows).toBeLessThanOrEqual(before.rows);
  });
});

describe('YouTube failNext metrics', () => {
  it('injects 5xx, malformed JSON, 429 with Retry-After, expired and revoked tokens', async () => {
    const token = await connect(0);
    const { sandbox } = context;
    const url = report('startDate=2026-04-01&endDate=2026-04-30&metrics=views');
    sandbox.failNext('youtube', 'metrics', 'server_error');
    sandbox.failNext('youtube', 'metrics', 'malformed_json');
    sandbox.failNext('youtube', 'metrics', 'rate_limited');
    sandbox.failNext('youtube', 'metrics', 'token_expired');
    sandbox.failNext('youtube', 'metrics', 'revoked');
    expect((await get(url, bearer(token))).status).toBe(503);
    const malformed = await get(url, bearer(token));
    expect(malformed.status).toBe(200);
    expect(malformed.body).toBeNull();
    const limited = await get(url, bearer(token));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    const expired = await get(url, bearer(token));
    expect(expired.status).toBe(401);
    expect(expired.body.error.errors[0].reason).toBe('authError');
    expect((await get(url, bearer(token))).status).toBe(401);
    expect((await get(url, bearer(token))).status).toBe(200);
  });
});
