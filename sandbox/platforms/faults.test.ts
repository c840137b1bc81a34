// The fault injector over HTTP, as a tester or a server test uses it: add, list, fire, expire, clear, bad input, and
// that a faulted call is logged but never billed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathMatches } from './faults.ts';
import { connectAs } from './metrics-test-helpers.ts';
import { bearer, get, startTestSandbox, type HttpAnswer, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
beforeEach(async () => {
  context = await startTestSandbox();
});
afterEach(async () => {
  await context.close();
});

const faultsUrl = () => `${context.sandbox.baseUrl}/_sandbox/faults`;

async function send(method: string, url: string, body?: unknown, raw?: string): Promise<HttpAnswer> {
  const response = await fetch(url, { method, headers: body === undefined && raw === undefined ? {} : { 'content-type': 'application/json' }, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

const addFault = (fault: unknown) => send('POST', faultsUrl(), fault);
const listFaults = async () => (await get(faultsUrl())).body as { faults: any[]; spent: any[] };

const TIKTOK_SCOPE_REFUSAL = { data: {}, error: { code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.', log_id: '20260504sandboxfault' } };
const tiktokList = (token: string) =>
  fetch(context.sandbox.url('https://open.tiktokapis.com/v2/video/list/?fields=id,view_count'), { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ max_count: 5 }) });

describe('POST /_sandbox/faults', () => {
  it('answers the next matching request with the fault, then expires and lets the platform answer again', async () => {
    const token = await connectAs(context.sandbox, 'tiktok');
    const added = await addFault({ platform: 'tiktok', method: 'post', path: '/v2/video/list', status: 401, body: TIKTOK_SCOPE_REFUSAL, headers: { 'X-Tt-Logid': 'abc' } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(String), platform: 'tiktok', method: 'POST', path: '/v2/video/list', status: 401, remaining: 1, fired: 0 });
    expect((await listFaults()).faults).toEqual([expect.objectContaining({ id: added.body.id, fired: 0 })]);

    const refused = await tiktokList(token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refused.headers.get('x-tt-logid')).toBe('abc');
    expect(await refused.json()).toEqual(TIKTOK_SCOPE_REFUSAL);
    expect(context.sandbox.calls.at(-1)).toMatchObject({ platform: 'tiktok', endpoint: 'video.list', fault: added.body.id });

    const listed = await listFaults();
    expect(listed.faults).toEqual([]);
    expect(listed.spent).toEqual([expect.objectContaining({ id: added.body.id, fired: 1, remaining: 0 })]);

    const real = await tiktokList(token);
    expect(real.status).toBe(200);
    expect(((await real.json()) as any).error.code).toBe('ok');
    expect(context.sandbox.calls.at(-1)?.fault).toBeUndefined();
  });

  it('fires `times` times, or always until cleared, and counts each firing', async () => {
    const token = await connectAs(context.sandbox, 'tiktok');
    const twice = await addFault({ platform: 'tiktok', path: '/v2/video/list', status: 503, body: 'upstream unavailable', times: 2 });
    expect(twice.body.remaining).toBe(2);
    expect((await tiktokList(token)).status).toBe(503);
    expect((await listFaults()).faults).toEqual([expect.objectContaining({ fired: 1, remaining: 1 })]);
    const second = await tiktokList(token);
    expect(second.status).toBe(503);
    expect(second.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await second.text()).toBe('upstream unavailable');
    expect((await tiktokList(token)).status).toBe(200);

    const always = await addFault({ platform: 'tiktok', path: '/v2/video', status: 500, times: 'always' });
    expect(always.body.remaining).toBeNull();
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await tiktokList(token)).status).toBe(500);
    expect((await listFaults()).faults).toEqual([expect.objectContaining({ id: always.body.id, fired: 3, remaining: null })]);

    expect((await send('DELETE', faultsUrl())).body).toEqual({ cleared: 1 });
    expect(await listFaults()).toEqual({ faults: [], spent: [] });
    expect((await tiktokList(token)).status).toBe(200);
  });

  it('deletes one fault by id and answers 404 for an unknown one', async () => {
    const first = await addFault({ platform: 'twitter', path: '/2/users/me', status: 503, times: null });
    const second = await addFault({ platform: 'twitter', path: '/2/tweets', status: 503, times: null });
    expect((await send('DELETE', `${faultsUrl()}/${first.body.id}`)).body).toEqual({ deleted: first.body.id });
    expect((await listFaults()).faults.map((fault) => fault.id)).toEqual([second.body.id]);
    const unknown = await send('DELETE', `${faultsUrl()}/${first.body.id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain(first.body.id);
  });

  it('matches only its platform, method, host, path pattern and query', async () => {
    const token = await connectAs(context.sandbox, 'instagram');
    const media = await get(context.sandbox.url('https://graph.instagram.com/v25.0/me/media?fields=id&limit=1'), bearer(token));
    const mediaId = media.body.data[0].id as string;
    await addFault({ platform: 'instagram', method: 'GET', host: 'graph.instagram.com', path: '/v25.0/*/insights', query: { period: 'day' }, status: 400, body: { error: { message: '(#10) Application does not have permission for this action', type: 'OAuthException', code: 10, fbtrace_id: 'Sbx' } }, times: 'always' });
    await addFault({ platform: 'tiktok', path: '/v25.0', status: 500, times: 'always' });

    const postInsights = await get(context.sandbox.url(`https://graph.instagram.com/v25.0/${mediaId}/insights?metric=views`), bearer(token));
    expect(postInsights.status).toBe(200); // no period=day: the media insights are not faulted
    const accountInsights = await get(context.sandbox.url('https://graph.instagram.com/v25.0/me/insights?metric=reach&period=day&metric_type=total_value'), bearer(token));
    expect(accountInsights).toMatchObject({ status: 400, body: { error: { code: 10 } } });
    const wrongMethod = await send('POST', context.sandbox.url('https://graph.instagram.com/v25.0/me/insights?period=day'));
    expect(wrongMethod.status).not.toBe(400);
    expect((await listFaults()).faults.map((fault) => fault.fired)).toEqual([1, 0]);
  });

  it('does not bill a faulted call: X post reads and YouTube units stay as they were', async () => {
    const { sandbox } = context;
    const usage = async () => (await get(`${sandbox.baseUrl}/_sandbox/usage`)).body;
    const xToken = await connectAs(sandbox, 'twitter', 2);
    const ytToken = await connectAs(sandbox, 'youtube');
    const before = await usage();
    await addFault({ platform: 'twitter', path: '/2/users/*/tweets', status: 503, body: { title: 'Service Unavailable', type: 'about:blank', status: 503, detail: 'Service Unavailable' } });
    await addFault({ platform: 'youtube', host: 'www.googleapis.com', path: '/youtube/v3/channels', status: 500 });
    expect((await get(sandbox.url(`https://api.x.com/2/users/${sandbox.accounts.twitter[2]!.id}/tweets?max_results=5`), bearer(xToken))).status).toBe(503);
    expect((await get(sandbox.url('https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true'), bearer(ytToken))).status).toBe(500);
    expect(await usage()).toEqual(before);
    expect(sandbox.countCalls('twitter', 'users.tweets')).toBe(1);
    expect(sandbox.calls.filter((call) => call.fault).map((call) => call.endpoint)).toEqual(['users.tweets', 'profile']);
  });

  it('refuses bad input with 400 and a message, and changes nothing', async () => {
    const badJson = await send('POST', faultsUrl(), undefined, '{"platform":');
    expect(badJson).toMatchObject({ status: 400, body: { error: 'invalid_json', message: expect.stringContaining('JSON') } });
    const cases: [unknown, RegExp][] = [
      [[1, 2], /JSON object/],
      [{ platform: 'myspace', path: '/', status: 500 }, /"platform" must be one of/],
      [{ platform: 'tiktok', path: 'v2/video', status: 500 }, /"path" must be a path/],
      [{ platform: 'tiktok', path: '/v2/video?x=1', status: 500 }, /without a query/],
      [{ platform: 'tiktok', path: '/v2', status: 42 }, /"status" must be an integer/],
      [{ platform: 'tiktok', path: '/v2', status: '500' }, /"status"/],
      [{ platform: 'tiktok', path: '/v2', status: 500, times: 0 }, /"times"/],
      [{ platform: 'tiktok', path: '/v2', status: 500, times: 'forever' }, /"times"/],
      [{ platform: 'tiktok', path: '/v2', status: 500, method: 'FETCH' }, /"method"/],
      [{ platform: 'tiktok', path: '/v2', status: 500, host: 'api.x.com' }, /"host" must be one of tiktok's hosts/],
      [{ platform: 'tiktok', path: '/v2', status: 500, headers: { 'bad header': 'x' } }, /invalid header name/],
      [{ platform: 'tiktok', path: '/v2', status: 500, headers: { 'x-a': 'line\r\nbreak' } }, /line breaks/],
      [{ platform: 'tiktok', path: '/v2', status: 500, headers: { 'x-a': 1 } }, /must be a string/],
      [{ platform: 'tiktok', path: '/v2', status: 500, query: 'a=b' }, /"query" must be an object/],
      [{ platform: 'tiktok', path: '/v2', status: 500, delay: 5 }, /Unknown field\(s\): delay/],
    ];
    for (const [input, message] of cases) {
      const answer = await addFault(input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(answer.body.error).toBe('invalid_fault');
      expect(answer.body.message).toMatch(message);
    }
    expect((await send('PUT', faultsUrl(), {})).status).toBe(405);
    expect((await send('GET', `${faultsUrl()}/fault-1`)).status).toBe(405);
    expect(await listFaults()).toEqual({ faults: [], spent: [] });
  });
});

describe('pathMatches', () => {
  it('matches a prefix segment by segment, with * inside one segment', () => {
    expect(pathMatches('/v2/video', '/v2/video/list/')).toBe(true);
    expect(pathMatches('/v2/video/list', '/v2/video/list/')).toBe(true);
    expect(pathMatches('/v2/video', '/v2/videos/')).toBe(false);
    expect(pathMatches('/v18.0/*/insights', '/v18.0/17841400000/insights')).toBe(true);
    expect(pathMatches('/v18.0/*/insights', '/v18.0/17841400000/media')).toBe(false);
    expect(pathMatches('/v*/me', '/v25.0/me/media')).toBe(true);
    expect(pathMatches('/', '/anything')).toBe(true);
    expect(pathMatches('/a/b/c', '/a/b')).toBe(false);
  });
});
