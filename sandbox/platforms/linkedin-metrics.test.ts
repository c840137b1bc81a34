// LinkedIn member post analytics (q=me) as a sync adapter drives it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { bearer, get, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
beforeEach(async () => {
  context = await startTestSandbox();
});
afterEach(async () => {
  await context.close();
});

const VERSION = { 'linkedin-version': '202605', 'x-restli-protocol-version': '2.0.0' };
const analytics = (query: string) => context.sandbox.url(`https://api.linkedin.com/rest/memberCreatorPostAnalytics?q=me&${query}`);
const APRIL = 'dateRange=(start:(day:1,month:4,year:2026),end:(day:1,month:5,year:2026))';

describe('LinkedIn memberCreatorPostAnalytics', () => {
  it('answers one element per day for DAILY and one total for TOTAL, deterministically', async () => {
    const token = await connectAs(context.sandbox, 'linkedin', 0);
    const headers = { ...bearer(token), ...VERSION };
    const daily = await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}`), headers);
    expect(daily.status).toBe(200);
    expect(daily.body.elements).toHaveLength(30);
    expect(daily.body.elements[0]).toEqual({
      count: expect.any(Number),
      metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': 'IMPRESSION' },
      dateRange: { start: { year: 2026, month: 4, day: 1 }, end: { year: 2026, month: 4, day: 2 } },
    });
    const total = await get(analytics(`queryType=IMPRESSION&aggregation=TOTAL&${APRIL}`), headers);
    expect(total.body.elements[0].count).toBe(daily.body.elements.reduce((sum: number, element: any) => sum + element.count, 0));
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}`), headers)).body).toEqual(daily.body);
    expect((await get(analytics(`queryType=MEMBERS_REACHED&aggregation=DAILY&${APRIL}`), headers)).status).toBe(400);
    expect(context.sandbox.countCalls('linkedin', 'post.analytics')).toBe(4);
  });

  it('needs r_member_postAnalytics and the version header', async () => {
    const token = await connectAs(context.sandbox, 'linkedin', 0, 'openid profile r_member_profileAnalytics');
    expect((await get(analytics('queryType=REACTION'), { ...bearer(token), ...VERSION })).status).toBe(403);
    expect((await get(analytics('queryType=REACTION'), bearer(token))).status).toBe(400);
  });

  it('injects failures with LinkedIn bodies', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'linkedin', 0);
    const headers = { ...bearer(token), ...VERSION };
    const url = analytics('queryType=COMMENT&aggregation=TOTAL');
    for (const failure of ['rate_limited', 'token_expired', 'revoked', 'server_error'] as const) sandbox.failNext('linkedin', 'metrics', failure);
    expect((await get(url, headers)).body.code).toBe('TOO_MANY_REQUESTS');
    expect((await get(url, headers)).body.serviceErrorCode).toBe(65602);
    expect((await get(url, headers)).body.serviceErrorCode).toBe(65601);
    expect((await get(url, headers)).status).toBe(500);
    expect((await get(url, headers)).status).toBe(200);
  });
});
