// The YouTube Data API's quota buckets and videos.list's maxResults, as Google documents them: search.list has its own
// bucket of 100 calls a day (platform-apis-corrections.md row 26, imitation rule 25), the general bucket is per
// project and resets at midnight Pacific time (determine_quota_cost), and maxResults is "not supported for use in
// conjunction with the id parameter" (row 25, rule 24: observed as ignored; a refusal is unverified, so a switch).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { bearer, get, HOUR, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const api = (path: string) => context.sandbox.url(`https://www.googleapis.com/youtube/v3/${path}`);
const quotaReason = (body: any) => ({ code: body.error.code, reason: body.error.errors[0].reason, domain: body.error.errors[0].domain });
/** From the test clock's 2026-05-04 10:00 UTC (03:00 PDT) to just past midnight Pacific (07:00 UTC). */
const TO_NEXT_PACIFIC_DAY = 21 * HOUR + 1000;

async function uploadIds(token: string, count: number): Promise<string[]> {
  const channel = await get(api('channels?part=contentDetails&mine=true'), bearer(token));
  const uploads = channel.body.items[0].contentDetails.relatedPlaylists.uploads as string;
  const page = await get(api(`playlistItems?part=contentDetails&playlistId=${uploads}&maxResults=${count}`), bearer(token));
  return page.body.items.map((item: any) => item.contentDetails.videoId as string);
}

describe('rule 25: search.list draws on its own bucket of 100 calls a day', () => {
  it('answers 403 quotaExceeded on the 101st call while the general bucket still serves, and again the next Pacific day', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'youtube', 0);
    const generalBefore = sandbox.quotaUnitsUsed();
    for (let call = 1; call <= 100; call += 1) {
      const answer = await get(api('search?part=snippet&type=video&maxResults=1'), bearer(token));
      expect(answer.status).toBe(200);
    }
    // Search calls spend none of the 10,000-unit general bucket.
    expect(sandbox.quotaUnitsUsed()).toBe(generalBefore);
    const refused = await get(api('search?part=snippet&type=video&maxResults=1'), bearer(token));
    expect(refused.status).toBe(403);
    expect(quotaReason(refused.body)).toEqual({ code: 403, reason: 'quotaExceeded', domain: 'youtube.quota' });
    // The general bucket has room: list calls still answer.
    expect((await get(api('channels?part=snippet&mine=true'), bearer(token))).status).toBe(200);
    // The app's API key shares the project's bucket.
    expect((await get(api(`search?part=id&q=a&key=${sandbox.appKeys.youtubeApiKey}`), {})).status).toBe(403);

    // The access token has expired by then: the API key asks.
    context.clock.advance(TO_NEXT_PACIFIC_DAY);
    expect((await get(api(`search?part=snippet&type=video&maxResults=1&key=${sandbox.appKeys.youtubeApiKey}`), {})).status).toBe(200);
  });

  it('finds the demo channels and their videos, newest first, in pages', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'youtube', 0);
    const channelId = (await get(api('channels?part=id&mine=true'), bearer(token))).body.items[0].id as string;
    const first = await get(api(`search?part=snippet&channelId=${channelId}&type=video&maxResults=5`), bearer(token));
    expect(first.status).toBe(200);
    expect(first.body.kind).toBe('youtube#searchListResponse');
    expect(first.body.items).toHaveLength(5);
    const times = first.body.items.map((item: any) => Date.parse(item.snippet.publishedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const item of first.body.items) expect(item).toMatchObject({ kind: 'youtube#searchResult', id: { kind: 'youtube#video' }, snippet: { channelId } });
    const second = await get(api(`search?part=snippet&channelId=${channelId}&type=video&maxResults=5&pageToken=${first.body.nextPageToken}`), bearer(token));
    expect(second.body.items[0].id.videoId).not.toBe(first.body.items[0].id.videoId);
    expect((await get(api('search?part=snippet&maxResults=51'), bearer(token))).status).toBe(400);
  });
});

describe('the general bucket is the project’s, per Pacific day', () => {
  it('refuses list calls with 403 quotaExceeded once the day’s units are spent, whatever the credential, until midnight Pacific', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'youtube', 1);
    sandbox.settings.youtubeDailyUnits = 3;
    expect((await get(api('channels?part=snippet&mine=true'), bearer(token))).status).toBe(200);
    expect((await get(api(`channels?part=snippet&forHandle=@theocooks&key=${sandbox.appKeys.youtubeApiKey}`), {})).status).toBe(200);
    expect((await get(api('channels?part=snippet&mine=true'), bearer(token))).status).toBe(200);
    const refused = await get(api('videos?part=statistics&id=abc'), bearer(token));
    expect(refused.status).toBe(403);
    expect(quotaReason(refused.body)).toEqual({ code: 403, reason: 'quotaExceeded', domain: 'youtube.quota' });
    expect((await get(api(`channels?part=snippet&forHandle=@theocooks&key=${sandbox.appKeys.youtubeApiKey}`), {})).status).toBe(403);
    // A refused call is not charged.
    expect(sandbox.quotaUnitsUsed()).toBe(3);
    // search.list's bucket is separate.
    expect((await get(api('search?part=id&type=channel'), bearer(token))).status).toBe(200);

    // The access token has expired by then: the API key asks.
    const byKey = () => get(api(`channels?part=snippet&forHandle=@theocooks&key=${sandbox.appKeys.youtubeApiKey}`), {});
    context.clock.advance(TO_NEXT_PACIFIC_DAY - 2 * HOUR);
    expect((await byKey()).status).toBe(403);
    context.clock.advance(2 * HOUR);
    expect((await byKey()).status).toBe(200);
  });
});

describe('rule 24: videos.list with id and maxResults', () => {
  it('ignored (as observed): maxResults never limits the videos answered for the ids', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'youtube', 2);
    const ids = await uploadIds(token, 3);
    expect(sandbox.settings.youtubeMaxResultsWithId).toBe('ignored');
    const answer = await get(api(`videos?part=statistics&id=${ids.join(',')}&maxResults=1`), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((item: any) => item.id)).toEqual(ids);
  });

  it('refused (as documented, unverified): 400 incompatibleParameters; without maxResults the call answers', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'youtube', 2);
    const ids = await uploadIds(token, 3);
    sandbox.settings.youtubeMaxResultsWithId = 'refused';
    const refused = await get(api(`videos?part=statistics&id=${ids.join(',')}&maxResults=50`), bearer(token));
    expect(refused.status).toBe(400);
    expect(refused.body.error.errors[0]).toMatchObject({ reason: 'incompatibleParameters', location: 'maxResults' });
    const answer = await get(api(`videos?part=statistics&id=${ids.join(',')}`), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(3);
  });
});
