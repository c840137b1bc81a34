// Google's own client libraries (@googleapis/youtube, @googleapis/youtubeanalytics) against the YouTube sandbox: a
// check we did not write ourselves that the sandbox accepts every request form the real API accepts (Google's
// clients send lists as repeated parameters and address youtube.googleapis.com) and answers in the published shapes.
import { youtube as youtubeClient } from '@googleapis/youtube';
import { youtubeAnalytics as youtubeAnalyticsClient } from '@googleapis/youtubeanalytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, basicAuth, callbackParams, pkcePair, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

const SCOPES = [
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/yt-analytics.readonly',
  'https://www.googleapis.com/auth/yt-analytics-monetary.readonly',
].join(' ');

let context: TestSandbox;
let headers: { Authorization: string };

beforeAll(async () => {
  context = await startTestSandbox();
  const { sandbox } = context;
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(sandbox, 'https://accounts.google.com/o/oauth2/v2/auth', {
    response_type: 'code',
    client_id: sandbox.credentials.youtube.clientId,
    redirect_uri: redirectUriFor('youtube'),
    state: 's',
    scope: SCOPES,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const { redirectUrl } = await sandbox.authorize(url, { account: 0 });
  const token = await postForm(
    sandbox.url('https://oauth2.googleapis.com/token'),
    { grant_type: 'authorization_code', code: callbackParams(redirectUrl).get('code')!, redirect_uri: redirectUriFor('youtube'), code_verifier: verifier },
    basicAuth(sandbox.credentials.youtube.clientId, sandbox.credentials.youtube.clientSecret),
  );
  headers = { Authorization: `Bearer ${token.body.access_token as string}` };
});

afterAll(async () => {
  await context.close();
});

const data = () => youtubeClient({ version: 'v3', retry: false });
const analytics = () => youtubeAnalyticsClient({ version: 'v2', retry: false });
/**
 * Per-call options: the clients' default hosts as the sandbox serves them (`<base>/<host>/<path>`), and the token.
 * (A client-wide rootUrl would drop the path prefix: the libraries resolve their paths against its origin.)
 */
const dataCall = () => ({ rootUrl: context.sandbox.url('https://youtube.googleapis.com/'), headers });
const analyticsCall = () => ({ rootUrl: context.sandbox.url('https://youtubeanalytics.googleapis.com/'), headers });

async function uploadIds(): Promise<string[]> {
  const channel = await data().channels.list({ part: ['contentDetails'], mine: true }, dataCall());
  const playlistId = channel.data.items![0]!.contentDetails!.relatedPlaylists!.uploads!;
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await data().playlistItems.list({ part: ['contentDetails', 'snippet'], playlistId, maxResults: 50, pageToken }, dataCall());
    expect(page.data.items!.length).toBeLessThanOrEqual(50);
    ids.push(...page.data.items!.map((item) => item.contentDetails!.videoId!));
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken);
  return ids;
}

describe('@googleapis/youtube against the sandbox', () => {
  it('reads the channel with every part it asks for as repeated parameters', async () => {
    const channel = await data().channels.list({ part: ['snippet', 'statistics', 'contentDetails'], mine: true }, dataCall());
    expect(channel.status).toBe(200);
    const item = channel.data.items![0]!;
    expect(item.id).toMatch(/^UC[\w-]{22}$/);
    expect(item.snippet!.title).toBeTruthy();
    // A sandbox that read only the first `part` would drop these.
    expect(Number(item.statistics!.subscriberCount)).toBeGreaterThan(0);
    expect(item.contentDetails!.relatedPlaylists!.uploads).toMatch(/^UU/);
  });

  it('pages the uploads playlist to the end and lists 50 videos per call', async () => {
    const ids = await uploadIds();
    expect(ids.length).toBeGreaterThan(200);
    expect(new Set(ids).size).toBe(ids.length);
    const videos = await data().videos.list({ part: ['snippet', 'statistics', 'contentDetails'], id: ids.slice(0, 50), maxResults: 50 }, dataCall());
    expect(videos.data.items).toHaveLength(50);
    expect(videos.data.items!.map((video) => video.id)).toEqual(ids.slice(0, 50));
    for (const video of videos.data.items!) {
      expect(video.statistics!.viewCount).toMatch(/^\d+$/);
      expect(video.contentDetails!.duration).toMatch(/^P/);
    }
  });
});

describe('@googleapis/youtubeanalytics against the sandbox', () => {
  const window = { ids: 'channel==MINE', startDate: '2026-01-01', endDate: '2026-04-30' };

  it('answers the daily channel metrics and revenue the product reads', async () => {
    const daily = await analytics().reports.query(
      { ...window, dimensions: 'day', sort: 'day', metrics: 'views,estimatedMinutesWatched,likes,comments,shares,subscribersGained,subscribersLost' },
      analyticsCall(),
    );
    expect(daily.data.columnHeaders!.map((header) => header.name)).toEqual(['day', 'views', 'estimatedMinutesWatched', 'likes', 'comments', 'shares', 'subscribersGained', 'subscribersLost']);
    expect(daily.data.rows!.length).toBe(120);
    const revenue = await analytics().reports.query({ ...window, dimensions: 'day', sort: 'day', metrics: 'estimatedRevenue,estimatedAdRevenue,monetizedPlaybacks,playbackBasedCpm,cpm' }, analyticsCall());
    expect(revenue.data.rows!.length).toBe(120);
  });

  it('serves per-video totals for every video in filters=video== batches, and refuses paging past the top 200', async () => {
    const ids = await uploadIds();
    const metrics = 'views,estimatedMinutesWatched,averageViewDuration,averageViewPercentage,likes,comments,shares,subscribersGained';
    const lifetime = { ids: 'channel==MINE', startDate: '2005-04-23', endDate: '2026-05-04', dimensions: 'video', sort: '-views', metrics };
    const seen = new Set<string>();
    for (let start = 0; start < ids.length; start += 200) {
      const batch = ids.slice(start, start + 200);
      const answer = await analytics().reports.query({ ...lifetime, filters: `video==${batch.join(',')}`, maxResults: batch.length }, analyticsCall());
      for (const row of answer.data.rows ?? []) seen.add(String(row[0]));
    }
    expect(seen.size).toBeGreaterThan(ids.length * 0.95);
    await expect(analytics().reports.query({ ...lifetime, maxResults: 200, startIndex: 201 }, analyticsCall())).rejects.toMatchObject({ status: 400 });
  });

  it('answers traffic sources, demographics, retention and early views in their report shapes', async () => {
    // A video old enough to have days processed (the newest ones have no rows yet).
    const videoId = (await uploadIds())[100]!;
    const traffic = await analytics().reports.query({ ...window, dimensions: 'day,insightTrafficSourceType', sort: 'day', metrics: 'views,estimatedMinutesWatched' }, analyticsCall());
    expect(traffic.data.rows!.length).toBeGreaterThan(120);
    const ageGender = await analytics().reports.query({ ...window, dimensions: 'ageGroup,gender', sort: 'gender,ageGroup', metrics: 'viewerPercentage' }, analyticsCall());
    const shares = ageGender.data.rows!.reduce((sum, row) => sum + Number(row[2]), 0);
    expect(shares).toBeGreaterThan(99);
    expect(shares).toBeLessThan(101);
    const countries = await analytics().reports.query({ ...window, dimensions: 'country', sort: '-views', metrics: 'views' }, analyticsCall());
    expect(countries.data.rows!.length).toBeGreaterThan(3);
    const retention = await analytics().reports.query(
      { ids: 'channel==MINE', startDate: '2005-04-23', endDate: '2026-05-04', dimensions: 'elapsedVideoTimeRatio', metrics: 'audienceWatchRatio,relativeRetentionPerformance', filters: `video==${videoId}`, sort: 'elapsedVideoTimeRatio' },
      analyticsCall(),
    );
    expect(retention.data.rows!.length).toBe(100);
    const early = await analytics().reports.query({ ids: 'channel==MINE', startDate: '2005-04-23', endDate: '2026-05-04', dimensions: 'day', metrics: 'views', filters: `video==${videoId}`, sort: 'day' }, analyticsCall());
    expect(early.data.columnHeaders!.map((header) => header.name)).toEqual(['day', 'views']);
  });
});
