// "Same period, same number" (issue 24): the last 30 days of a demo creator with all six platforms connected and
// synced, read through every route and export that shows them, give one answer each for views, revenue (per
// currency) and paying patrons. A figure that differs between two screens is a figure a creator stops trusting.
// @runs-once-on: postgresql (the figures are computed by the same Postgres engine whichever database holds them, and the
// analytics tests that read them through each driver run on both; scripts/test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsResponse, AnalyticsSummary } from '#contract/analytics.ts';
import { shiftDay } from '#contract/comparison.ts';
import type { ExportRecord } from '#contract/exports.ts';
import type { IncomeResponse } from '#contract/income.ts';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import type { PerformanceSummary } from '#contract/youtube.ts';
import { dayOf } from '../../lib/dates.ts';
import { type Account, connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const DAYS = 30;
let server: TestServer;
let account: Account;
let today: string;
let startDate: string;

const get = async <T>(path: string): Promise<T> => {
  const response = await server.request<T>('GET', path, { token: account.token });
  expect(response.status, path).toBe(200);
  return response.body;
};
const cents = (value: number) => Math.round(value * 100);

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
  // One demo creator on every platform (the sandbox's second persona: a monetised channel, a campaign in euros).
  for (const platform of PLATFORM_NAMES) {
    const connected = await connect(server, account, platform, { account: 1 });
    expect(connected.status, platform).toBe(200);
    if (platform === 'patreon') {
      expect((await server.request('PATCH', `/api/platformconnections/${connected.body.id}`, { token: account.token, body: { currency: 'EUR' } })).status).toBe(200);
    }
    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle' });
  }
  // A second campaign, in US dollars: its pledges join YouTube's revenue in the cards' one dollar figure.
  const dollars = await connect(server, account, 'patreon', { account: 0 });
  expect(dollars.status).toBe(200);
  expect((await server.request('PATCH', `/api/platformconnections/${dollars.body.id}`, { token: account.token, body: { currency: 'USD' } })).status).toBe(200);
  expect((await syncNow(server, account.token, dollars.body.id)).status).toMatchObject({ status: 'idle' });
  today = dayOf(server.clock.now());
  startDate = shiftDay(today, -(DAYS - 1));
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('the last 30 days, on every screen', () => {
  it('views: the Dashboard, Analytics, each platform, Income, YouTube and the export agree', async () => {
    const summary = await get<AnalyticsSummary>('/api/analytics/summary');
    const analytics = await get<AnalyticsResponse>(`/api/analytics?days=${DAYS}`);
    const ranged = await get<AnalyticsResponse>(`/api/analytics?startDate=${startDate}&endDate=${today}`);
    const income = await get<IncomeResponse>(`/api/income?startDate=${startDate}&endDate=${today}&granularity=day`);
    const incomeByMonth = await get<IncomeResponse>(`/api/income?startDate=${startDate}&endDate=${today}&granularity=month`);
    const perPlatform = await Promise.all(PLATFORM_NAMES.map((_, index) => get<AnalyticsResponse>(`/api/analytics/platform/${index + 1}?days=${DAYS}`)));
    const youtube = await get<PerformanceSummary>(`/api/youtubeanalytics/performance-summary?days=${DAYS}`);
    const exported = await get<{ records: ExportRecord[] }>(`/api/analytics/export?format=json&days=${DAYS}&metricType=views`);

    const views = analytics.totals.totalViews;
    expect(views).toBeGreaterThan(0);
    expect({
      dashboard: summary.totalViews,
      analyticsByDates: ranged.totals.totalViews,
      sumOfPlatforms: perPlatform.reduce((sum, answer) => sum + answer.totals.totalViews, 0),
      incomeByDay: income.totals.views,
      incomeByMonth: incomeByMonth.totals.views,
      exportedDays: exported.records.filter((record) => record.contentTitle === null).reduce((sum, record) => sum + (record.value ?? 0), 0),
    }).toEqual({ dashboard: views, analyticsByDates: views, sumOfPlatforms: views, incomeByDay: views, incomeByMonth: views, exportedDays: views });
    expect(youtube).toMatchObject({ startDate, endDate: today, totalViews: perPlatform[0]!.totals.totalViews });
  });

  it('revenue, per currency: the Dashboard, Analytics, Income by day and by month and its export agree', async () => {
    const summary = await get<AnalyticsSummary>('/api/analytics/summary');
    const analytics = await get<AnalyticsResponse>(`/api/analytics?days=${DAYS}`);
    const byDay = await get<IncomeResponse>(`/api/income?startDate=${startDate}&endDate=${today}&granularity=day`);
    const byMonth = await get<IncomeResponse>(`/api/income?startDate=${startDate}&endDate=${today}&granularity=month`);
    const exported = await get<IncomeResponse>(`/api/income/export?format=json&startDate=${startDate}&endDate=${today}&granularity=month`);

    const perCurrency = (income: IncomeResponse) => Object.fromEntries(income.totals.totalsByCurrency.map((entry) => [entry.currency, cents(entry.amount)]));
    const incomeTotals = perCurrency(byDay);
    expect(Object.keys(incomeTotals).sort()).toEqual(['EUR', 'USD']);
    expect(perCurrency(byMonth)).toEqual(incomeTotals);
    expect(perCurrency(exported)).toEqual(incomeTotals);
    // The cards: US dollars as one figure (YouTube's revenue and the dollar campaign's pledges), the euro pledges
    // beside it, over the same days.
    for (const cards of [summary, analytics.totals]) {
      expect(cents(cards.totalRevenue)).toBe(incomeTotals.USD);
      expect(cards.pledgesNotInUsd.map((pledges) => [pledges.currency, cents(pledges.periodAmount)])).toEqual([['EUR', incomeTotals.EUR]]);
    }
  });

  it('a history start is not growth: each connection is compared over the days both periods hold', async () => {
    const summary = await get<AnalyticsSummary>('/api/analytics/summary');
    const comparison = summary.comparison!;
    const perPlatform = await Promise.all(PLATFORM_NAMES.map((_, index) => get<AnalyticsResponse>(`/api/analytics/platform/${index + 1}?days=${DAYS}`)));
    // Instagram's insights reach as far back as Meta answers from its first sync (the sandbox: 90 days; its follower history 30 days): every figure is
    // compared, none left out or cut at its start. Views and engagement over the whole period but its last day (they
    // end yesterday; its follower count is today's), the same days in the previous 30: a month against a month, not
    // 30 days against a few (the +659 % of issue 24).
    const instagram = perPlatform[1]!.comparison!;
    expect({ leftOut: instagram.leftOut, shortened: instagram.shortened }).toEqual({ leftOut: [], shortened: [] });
    expect(comparison.leftOut.filter((entry) => entry.platform === 'Instagram')).toEqual([]);
    expect(comparison.shortened.filter((entry) => entry.platform === 'Instagram')).toEqual([]);
    const instagramViews = async (from: string, to: string) => (await get<AnalyticsResponse>(`/api/analytics/platform/2?startDate=${from}&endDate=${to}`)).totals.totalViews;
    expect(instagram.currentTotals.totalViews).toBe(await instagramViews(startDate, shiftDay(today, -1)));
    expect(instagram.totals.totalViews).toBe(await instagramViews(shiftDay(startDate, -DAYS), shiftDay(today, -DAYS - 1)));
    expect(instagram.totals.totalViews).toBeGreaterThan(0.5 * instagram.currentTotals.totalViews!);
    expect(instagram.currentTotals.averageEngagementRate).not.toBeNull();
    expect(instagram.totals.averageEngagementRate).not.toBeNull();
    expect(instagram.currentTotals.totalFollowers).not.toBeNull();
    expect(instagram.totals.totalFollowers).not.toBeNull();
    // TikTok's and X's daily views begin with their first sync (derived from the post counters): nothing to compare.
    expect(comparison.leftOut.map((entry) => entry.platform)).toEqual(expect.arrayContaining(['TikTok', 'Twitter']));
    // Each side of the total's change sums the same connections' sides, platform by platform.
    const sidesOf = (side: 'currentTotals' | 'totals') => perPlatform.reduce((sum, answer) => sum + (answer.comparison![side].totalViews ?? 0), 0);
    expect({ current: comparison.currentTotals.totalViews, previous: comparison.totals.totalViews }).toEqual({ current: sidesOf('currentTotals'), previous: sidesOf('totals') });
    // Like with like, the demo creator's month-on-month views move by tens of percent, not by multiples.
    const change = comparison.currentTotals.totalViews! / comparison.totals.totalViews! - 1;
    expect(Math.abs(change)).toBeLessThan(0.5);
  });

  it('paying patrons: the net change of Income is the change of Patreon’s line on Analytics', async () => {
    const income = await get<IncomeResponse>(`/api/income?startDate=${startDate}&endDate=${today}&granularity=month`);
    const patreon = await get<AnalyticsResponse>(`/api/analytics/platform/6?startDate=${shiftDay(startDate, -1)}&endDate=${today}`);
    const line = patreon.followersOverTime;
    expect(line[0]!.date).toBe(shiftDay(startDate, -1));
    expect(line.at(-1)!.date).toBe(today);
    const net = income.periods.reduce((sum, period) => sum + period.patrons.net!, 0);
    expect(net).toBe(line.at(-1)!.value - line[0]!.value);
    const latest = patreon.platformBreakdown.find((entry) => entry.name === 'Patreon')!;
    expect(latest.followers).toBe(line.at(-1)!.value);
  });
});
