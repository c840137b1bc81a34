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

  it('rejects unsupported dimensions and unknown metrics', async () => {
    const token = await connect(0);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&dimensions=country&metrics=views'), bearer(token))).status).toBe(400);
    expect((await get(report('startDate=2026-04-01&endDate=2026-04-30&metrics=impressions'), bearer(token))).status).toBe(400);
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
