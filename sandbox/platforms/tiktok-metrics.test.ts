// TikTok's video list as a sync adapter drives it: cursor paging, lifetime counters, errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { DAY, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
beforeEach(async () => {
  context = await startTestSandbox();
});
afterEach(async () => {
  await context.close();
});

const FIELDS = 'id,title,video_description,create_time,share_url,view_count,like_count,comment_count,share_count,duration';
const listUrl = () => context.sandbox.url(`https://open.tiktokapis.com/v2/video/list/?fields=${FIELDS}`);

async function post(url: string, token: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

async function allVideos(token: string): Promise<any[]> {
  const videos: any[] = [];
  let cursor: number | undefined;
  for (;;) {
    const page = await post(listUrl(), token, { max_count: 20, ...(cursor !== undefined ? { cursor } : {}) });
    expect(page.status).toBe(200);
    expect(page.body.error.code).toBe('ok');
    videos.push(...page.body.data.videos);
    if (!page.body.data.has_more) break;
    cursor = page.body.data.cursor;
  }
  return videos;
}

describe('TikTok video.list', () => {
  it('pages through every video with the ms cursor, newest first, matching video_count', async () => {
    const token = await connectAs(context.sandbox, 'tiktok', 1);
    const videos = await allVideos(token);
    expect(videos.length).toBeGreaterThan(150);
    expect(new Set(videos.map((video) => video.id)).size).toBe(videos.length);
    const times = videos.map((video) => video.create_time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(times[0]).toBeLessThan(context.clock.now().getTime() / 1000);
    expect(Object.keys(videos[0]).sort()).toEqual(FIELDS.split(',').sort());
    expect(typeof videos[0].view_count).toBe('number');
    const info = await fetch(context.sandbox.url('https://open.tiktokapis.com/v2/user/info/?fields=video_count'), { headers: { authorization: `Bearer ${token}` } });
    expect(((await info.json()) as any).data.user.video_count).toBe(videos.length);
    expect(context.sandbox.countCalls('tiktok', 'video.list')).toBe(Math.ceil(videos.length / 20));
  });

  it('is deterministic within a day and refuses max_count above 20', async () => {
    const token = await connectAs(context.sandbox, 'tiktok', 0);
    const first = await post(listUrl(), token, { max_count: 20 });
    context.clock.advance(DAY / 24);
    const second = await post(listUrl(), token, { max_count: 20 });
    expect(second.body.data).toEqual(first.body.data);
    const tooMany = await post(listUrl(), token, { max_count: 21 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('invalid_params');
  });

  it('needs the video.list scope', async () => {
    const token = await connectAs(context.sandbox, 'tiktok', 0, 'user.info.basic');
    const answer = await post(listUrl(), token, { max_count: 5 });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('scope_not_authorized');
  });

  it('injects failures in TikTok envelopes', async () => {
    const token = await connectAs(context.sandbox, 'tiktok', 0);
    const { sandbox } = context;
    for (const failure of ['server_error', 'malformed_json', 'rate_limited', 'token_expired', 'revoked'] as const) sandbox.failNext('tiktok', 'metrics', failure);
    expect((await post(listUrl(), token, {})).body.error.code).toBe('internal_error');
    expect((await post(listUrl(), token, {})).body).toBeNull();
    const limited = await post(listUrl(), token, {});
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).toBe('30');
    expect((await post(listUrl(), token, {})).body.error.code).toBe('access_token_invalid');
    expect((await post(listUrl(), token, {})).status).toBe(401);
    expect((await post(listUrl(), token, {})).status).toBe(200);
  });
});
