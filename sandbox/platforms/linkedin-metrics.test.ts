// LinkedIn's member analytics finders as a sync adapter drives them: memberCreatorPostAnalytics (q=me) and
// memberFollowersCount (q=dateRange). Each test names the rule of ../shared/platform-apis-corrections.md it checks.
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
const followerHistory = (query: string) => context.sandbox.url(`https://api.linkedin.com/rest/memberFollowersCount?q=dateRange&${query}`);
const range = (start: [number, number, number], end: [number, number, number]) =>
  `dateRange=(start:(day:${start[2]},month:${start[1]},year:${start[0]}),end:(day:${end[2]},month:${end[1]},year:${end[0]}))`;
// The test clock's today is 2026-05-04.
const APRIL = range([2026, 4, 1], [2026, 5, 1]);
const UP_TO_TODAY = range([2026, 4, 1], [2026, 5, 4]);

async function headersFor(account = 0) {
  return { ...bearer(await connectAs(context.sandbox, 'linkedin', account)), ...VERSION };
}

/** Every element of a finder, page by page with start/count, as only paging reaches the later ones (rule 7). */
async function allPages(url: string, headers: Record<string, string>) {
  const elements: any[] = [];
  for (let start = 0; ; ) {
    const page = await get(`${url}&start=${start}&count=10`, headers);
    expect(page.status).toBe(200);
    elements.push(...page.body.elements);
    start += page.body.elements.length;
    if (page.body.elements.length === 0 || start >= page.body.paging.total) return elements;
  }
}

const isoOf = (date: { year: number; month: number; day: number }) => `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

describe('LinkedIn memberCreatorPostAnalytics', () => {
  it('rules 6–7: DAILY answers one element per day whose end is the next day, paged 10 at a time, with paging.total', async () => {
    const headers = await headersFor();
    const first = await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}`), headers);
    expect(first.status).toBe(200);
    expect(first.body.paging).toEqual({ start: 0, count: 10, total: 30, links: [] });
    expect(first.body.elements).toHaveLength(10);
    expect(first.body.elements[0]).toEqual({
      count: expect.any(Number),
      metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': 'IMPRESSION' },
      dateRange: { start: { year: 2026, month: 4, day: 1 }, end: { year: 2026, month: 4, day: 2 } },
    });
    // A larger count is served as the page size: only start reaches the later days.
    const large = await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}&count=100`), headers);
    expect(large.body.paging).toMatchObject({ start: 0, count: 10, total: 30 });
    expect(large.body.elements).toEqual(first.body.elements);

    const every = await allPages(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}`), headers);
    expect(every.map((element) => isoOf(element.dateRange.start))).toEqual(Array.from({ length: 30 }, (_, index) => `2026-04-${String(index + 1).padStart(2, '0')}`));
    // The request's end is exclusive: 1 May is not in April's answer.
    expect(isoOf(every.at(-1).dateRange.end)).toBe('2026-05-01');
    const total = await get(analytics(`queryType=IMPRESSION&aggregation=TOTAL&${APRIL}`), headers);
    expect(total.body.elements[0].count).toBe(every.reduce((sum, element) => sum + element.count, 0));
    // Deterministic: the same question, the same answer.
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${APRIL}`), headers)).body).toEqual(first.body);
  });

  it('rule 6: a range ending today has no element for today (nor for a day after it)', async () => {
    const headers = await headersFor();
    const days = (await allPages(analytics(`queryType=REACTION&aggregation=DAILY&${UP_TO_TODAY}`), headers)).map((element) => isoOf(element.dateRange.start));
    expect(days.at(-1)).toBe('2026-05-03');
    expect(days).toHaveLength(33);
    const beyond = await allPages(analytics(`queryType=REACTION&aggregation=DAILY&${range([2026, 5, 1], [2026, 5, 20])}`), headers);
    expect(beyond.map((element) => isoOf(element.dateRange.start))).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
  });

  it('rule 7: the page size is a switch', async () => {
    context.sandbox.linkedin.pageSize = 25;
    const headers = await headersFor();
    const page = await get(analytics(`queryType=COMMENT&aggregation=DAILY&${APRIL}&count=100`), headers);
    expect(page.body.paging).toMatchObject({ count: 25, total: 30 });
    expect(page.body.elements).toHaveLength(25);
    const second = await get(analytics(`queryType=COMMENT&aggregation=DAILY&${APRIL}&start=25&count=5`), headers);
    expect(second.body.elements.map((element: any) => isoOf(element.dateRange.start))).toEqual(['2026-04-26', '2026-04-27', '2026-04-28', '2026-04-29', '2026-04-30']);
  });

  it('rule 5: MEMBERS_REACHED with DAILY is refused with LinkedIn’s validation body; with TOTAL it answers', async () => {
    const headers = await headersFor();
    const refused = await get(analytics(`queryType=MEMBERS_REACHED&aggregation=DAILY&${APRIL}`), headers);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^Input field validation failure, reason: /), status: 400 });
    expect((await get(analytics(`queryType=MEMBERS_REACHED&aggregation=TOTAL&${APRIL}`), headers)).status).toBe(200);
  });

  it('rule 8: a dateRange longer than the maximum (365 days by default, a switch) answers 400 "Input field validation failure"', async () => {
    const headers = await headersFor();
    const year = range([2025, 5, 3], [2026, 5, 3]);
    const tooLong = range([2025, 5, 2], [2026, 5, 3]);
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${year}`), headers)).status).toBe(200);
    const refused = await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${tooLong}`), headers);
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Input field validation failure, reason: /), status: 400 } });
    expect(Object.keys(refused.body).sort()).toEqual(['message', 'status']);
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=TOTAL&${tooLong}`), headers)).status).toBe(400);

    context.sandbox.linkedin.maxDateRangeDays = 90;
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${range([2026, 1, 1], [2026, 4, 1])}`), headers)).status).toBe(200);
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${range([2026, 1, 1], [2026, 4, 2])}`), headers)).status).toBe(400);
    // An end not after the start, or a DAILY call without a range, is refused the same way.
    expect((await get(analytics(`queryType=IMPRESSION&aggregation=DAILY&${range([2026, 4, 1], [2026, 4, 1])}`), headers)).body.message).toMatch(/^Input field validation failure/);
    expect((await get(analytics('queryType=IMPRESSION&aggregation=DAILY'), headers)).body.message).toMatch(/^Input field validation failure/);
  });

  it('needs r_member_postAnalytics and the version header', async () => {
    const token = await connectAs(context.sandbox, 'linkedin', 0, 'r_basicprofile r_member_profileAnalytics');
    expect((await get(analytics('queryType=REACTION'), { ...bearer(token), ...VERSION })).status).toBe(403);
    expect((await get(analytics('queryType=REACTION'), bearer(token))).status).toBe(400);
  });

  it('injects failures with LinkedIn bodies', async () => {
    const { sandbox } = context;
    const headers = await headersFor();
    const url = analytics('queryType=COMMENT&aggregation=TOTAL');
    for (const failure of ['rate_limited', 'token_expired', 'revoked', 'server_error'] as const) sandbox.failNext('linkedin', 'metrics', failure);
    expect((await get(url, headers)).body.code).toBe('TOO_MANY_REQUESTS');
    expect((await get(url, headers)).body.serviceErrorCode).toBe(65602);
    expect((await get(url, headers)).body.serviceErrorCode).toBe(65601);
    expect((await get(url, headers)).status).toBe(500);
    expect((await get(url, headers)).status).toBe(200);
  });
});

describe('LinkedIn memberFollowersCount q=dateRange', () => {
  it('rule 9: one element per day with dateRange and memberFollowersCount; daily gains by default, summing to the change in the total', async () => {
    const headers = await headersFor(1);
    const today = (await get(context.sandbox.url('https://api.linkedin.com/rest/memberFollowersCount?q=me'), headers)).body.elements[0].memberFollowersCount;
    expect(today).toBe(context.sandbox.accounts.linkedin[1]!.followers);
    const gains = await allPages(followerHistory(UP_TO_TODAY), headers);
    expect(gains).toHaveLength(33);
    expect(gains[0]).toEqual({ dateRange: { start: { year: 2026, month: 4, day: 1 }, end: { year: 2026, month: 4, day: 2 } }, memberFollowersCount: expect.any(Number) });
    expect(isoOf(gains.at(-1).dateRange.start)).toBe('2026-05-03');
    // Gains are small next to the total and never negative.
    expect(gains.every((element) => element.memberFollowersCount >= 0 && element.memberFollowersCount < today / 10)).toBe(true);

    context.sandbox.linkedin.followerHistory = 'running_total';
    const totals = await allPages(followerHistory(UP_TO_TODAY), headers);
    expect(totals.map((element) => element.dateRange)).toEqual(gains.map((element) => element.dateRange));
    // The total at the end of yesterday is today's count; each day's total is the day before's plus that day's gain.
    expect(totals.at(-1).memberFollowersCount).toBe(today);
    for (let index = 1; index < totals.length; index += 1) {
      expect(totals[index].memberFollowersCount - totals[index - 1].memberFollowersCount).toBe(gains[index].memberFollowersCount);
    }
  });

  it('rules 7–8 hold for the follower history too: paged, and no longer than the maximum', async () => {
    const headers = await headersFor();
    const page = await get(followerHistory(APRIL), headers);
    expect(page.body.paging).toEqual({ start: 0, count: 10, total: 30, links: [] });
    expect((await get(followerHistory(range([2025, 5, 2], [2026, 5, 3])), headers)).body).toEqual({ message: expect.stringMatching(/^Input field validation failure, reason: /), status: 400 });
    expect((await get(context.sandbox.url('https://api.linkedin.com/rest/memberFollowersCount?q=dateRange'), headers)).status).toBe(400);
  });

  it('needs r_member_profileAnalytics', async () => {
    const token = await connectAs(context.sandbox, 'linkedin', 0, 'r_basicprofile r_member_postAnalytics');
    expect(await get(followerHistory(APRIL), { ...bearer(token), ...VERSION })).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', message: 'Not enough permissions to access: memberFollowersCount.FINDER-dateRange.202605' } });
  });
});
