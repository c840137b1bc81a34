// LinkedIn's official JavaScript client (linkedin-api-client, github.com/linkedin-developers/linkedin-api-js-client)
// against the LinkedIn sandbox: a check we did not write ourselves that the sandbox accepts the Rest.li requests it
// builds (its own query encoding, `X-RestLi-Method`, `LinkedIn-Version` on /rest, none on /v2) and answers in shapes it
// reads: /v2/me, memberFollowersCount (q=me and q=dateRange), memberCreatorPostAnalytics paged with start/count, and
// the refusals of corrections rules 1, 5 and 8.
import { AuthClient, RestliClient } from 'linkedin-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { callbackParams, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
let accessToken: string;

beforeAll(async () => {
  context = await startTestSandbox();
  accessToken = await connectAs(context.sandbox, 'linkedin', 1);
});

afterAll(async () => {
  await context.close();
});

/** The client as an app builds it, its absolute https://api.linkedin.com URLs sent to the sandbox instead. */
function restliClient(): RestliClient {
  const client = new RestliClient();
  client.axiosInstance.interceptors.request.use((config) => ({ ...config, url: context.sandbox.url(config.url!) }));
  return client;
}

// The sandbox clock's month: an active LinkedIn-Version.
const VERSION = '202605';
const day = (year: number, month: number, dayOfMonth: number) => ({ year, month, day: dayOfMonth });

/** The status and body of a refused call (the client throws axios errors). */
async function refusal(request: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await request;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, data: response.data };
    throw error;
  }
  throw new Error('the call was not refused');
}

describe('linkedin-api-client against the sandbox', () => {
  it('AuthClient’s authorization URL: openid on the Community Management app comes back as unauthorized_scope_error (rule 1)', async () => {
    const { clientId, clientSecret } = context.sandbox.credentials.linkedin;
    const auth = new AuthClient({ clientId, clientSecret, redirectUrl: redirectUriFor('linkedin') });
    const refused = await context.sandbox.authorize(context.sandbox.url(auth.generateMemberAuthorizationUrl(['openid', 'profile', 'r_member_postAnalytics'], 'st-1')));
    expect(Object.fromEntries(callbackParams(refused.redirectUrl))).toEqual({ error: 'unauthorized_scope_error', error_description: 'Scope "openid" is not authorized for your application', state: 'st-1' });
    const granted = await context.sandbox.authorize(context.sandbox.url(auth.generateMemberAuthorizationUrl(['r_basicprofile', 'r_member_postAnalytics'], 'st-2')));
    expect(callbackParams(granted.redirectUrl).get('code')).toEqual(expect.any(String));
  });

  it('reads /v2/me (unversioned) with a projection', async () => {
    const me = await restliClient().get({ resourcePath: '/me', accessToken, queryParams: { projection: '(id,localizedFirstName,localizedLastName,vanityName,profilePicture(displayImage~:playableStreams))' } });
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ id: context.sandbox.accounts.linkedin[1]!.id, localizedFirstName: 'Theo', vanityName: context.sandbox.accounts.linkedin[1]!.username });
    expect(me.data.profilePicture['displayImage~'].elements[0].identifiers[0].identifier).toContain('/media.licdn.com/');
  });

  it('runs the memberFollowersCount finders me and dateRange', async () => {
    const client = restliClient();
    const now = await client.finder({ resourcePath: '/memberFollowersCount', finderName: 'me', accessToken, versionString: VERSION });
    expect(now.data.elements).toEqual([{ memberFollowersCount: context.sandbox.accounts.linkedin[1]!.followers }]);
    const history = await client.finder({
      resourcePath: '/memberFollowersCount',
      finderName: 'dateRange',
      queryParams: { dateRange: { start: day(2026, 4, 1), end: day(2026, 4, 8) } },
      accessToken,
      versionString: VERSION,
    });
    expect(history.data.paging).toMatchObject({ start: 0, count: 10, total: 7 });
    expect(history.data.elements).toHaveLength(7);
    expect(history.data.elements[6]).toEqual({ dateRange: { start: day(2026, 4, 7), end: day(2026, 4, 8) }, memberFollowersCount: expect.any(Number) });
  });

  it('pages memberCreatorPostAnalytics DAILY with start and count to the end of an exclusive range', async () => {
    const client = restliClient();
    const elements: { dateRange: { start: { day: number } } }[] = [];
    for (let start = 0; ; ) {
      const page = await client.finder({
        resourcePath: '/memberCreatorPostAnalytics',
        finderName: 'me',
        queryParams: { queryType: 'IMPRESSION', aggregation: 'DAILY', dateRange: { start: day(2026, 4, 1), end: day(2026, 5, 1) }, start, count: 10 },
        accessToken,
        versionString: VERSION,
      });
      expect(page.data.paging).toMatchObject({ start, total: 30 });
      elements.push(...(page.data.elements as typeof elements));
      start += page.data.elements.length;
      if (start >= page.data.paging!.total!) break;
    }
    expect(elements.map((element) => element.dateRange.start.day)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
  });

  it('gets LinkedIn’s validation failure for MEMBERS_REACHED with DAILY (rule 5) and for a range over the maximum (rule 8)', async () => {
    const client = restliClient();
    const ask = (queryType: string, start: ReturnType<typeof day>) =>
      client.finder({
        resourcePath: '/memberCreatorPostAnalytics',
        finderName: 'me',
        queryParams: { queryType, aggregation: 'DAILY', dateRange: { start, end: day(2026, 5, 1) } },
        accessToken,
        versionString: VERSION,
      });
    for (const refused of [await refusal(ask('MEMBERS_REACHED', day(2026, 4, 1))), await refusal(ask('IMPRESSION', day(2025, 4, 30)))]) {
      expect(refused).toEqual({ status: 400, data: { message: expect.stringMatching(/^Input field validation failure, reason: /), status: 400 } });
    }
  });
});
