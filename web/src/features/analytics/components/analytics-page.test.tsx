import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnalyticsResponse, type AnalyticsSummary, DERIVATION_EXPLANATIONS, DERIVATION_METHODS } from '#contract/analytics.ts';
import { forecastsAnswer, platformConnection } from '../../../test/factories';
import { AnalyticsPage } from './analytics-page';

// jsdom has no canvas: the charts become plain elements that show what they were given.
vi.mock('react-chartjs-2', () => {
  const fake = (kind: string) =>
    function FakeChart({ data }: { data: { labels?: string[]; datasets: { data: number[]; label?: string; borderDash?: number[] }[] } }) {
      // The comparison is the dashed line; every line is listed with its name.
      const overlay = data.datasets.find((dataset) => dataset.borderDash);
      const lines = data.datasets.filter((dataset) => !dataset.borderDash);
      return (
        <canvas
          data-testid={`${kind}-chart`}
          data-labels={JSON.stringify(data.labels)}
          data-values={JSON.stringify(lines.at(-1)?.data)}
          data-lines={JSON.stringify(lines.map((dataset) => dataset.label))}
          data-comparison={overlay ? JSON.stringify({ label: overlay.label, values: overlay.data }) : undefined}
        />
      );
    };
  return { Line: fake('line'), Bar: fake('bar'), Doughnut: fake('doughnut') };
});

const totals: AnalyticsResponse['totals'] = {
  totalFollowers: 128_449,
  averageEngagementRate: 4.2,
  totalViews: 2_345_678,
  totalImpressions: 0,
  totalRevenue: 1234.567,
  pledgesNotInUsd: [],
  connectedPlatforms: 3,
};

const summary: AnalyticsSummary = {
  ...totals,
  freshness: [
    { platform: 'YouTube', syncedAt: null, completeThrough: '2026-11-20' },
    { platform: 'TikTok', syncedAt: null, completeThrough: '2026-11-22' },
  ],
  comparison: null,
};

const analytics: AnalyticsResponse = {
  startDate: '2026-10-24',
  endDate: '2026-11-22',
  totals,
  comparison: null,
  allMetrics: [],
  paging: { page: 1, pageSize: 500, total: 0, hasMore: false },
  followersOverTime: [
    { date: '2026-11-20', value: 1_000 },
    { date: '2026-11-21', value: 1_200 },
  ],
  // TikTok's history begins inside the range: the total is drawn from its first day.
  followerHistoryStarts: [
    { platform: 'YouTube', account: 'Maya Creates', startDate: '2026-10-24' },
    { platform: 'TikTok', account: '@maya', startDate: '2026-11-20' },
  ],
  engagementOverTime: [{ date: '2026-11-21', value: 57 }],
  platformBreakdown: [
    { name: 'YouTube', followers: 750, percentage: 75, color: '#3B82F6' },
    { name: 'TikTok', followers: 250, percentage: 25, color: '#EF4444' },
  ],
  topContent: [
    { id: 'c1', title: 'Studio tour', description: null, platform: 'YouTube', engagement: 4_321, url: null, publishedAt: '2026-11-03T18:00:00.000Z' },
    { id: 'c2', title: '', description: 'A day in the life', platform: 'TikTok', engagement: 987, url: null, publishedAt: null },
  ],
  followersByPlatform: [
    { platform: 'YouTube', values: [700, ...Array.from({ length: 26 }, () => null), 750, 900, null] },
    { platform: 'TikTok', values: [...Array.from({ length: 27 }, () => null), 250, 300, null] },
  ],
  trends: [
    {
      metric: 'views',
      combined: [...Array.from({ length: 28 }, () => null), 5_000, 7_000],
      platforms: [
        { platform: 'YouTube', values: [...Array.from({ length: 28 }, () => null), 4_000, 6_000] },
        { platform: 'TikTok', values: [...Array.from({ length: 28 }, () => null), 1_000, 1_000] },
      ],
      comparison: [],
    },
    {
      metric: 'engagement_rate',
      combined: [...Array.from({ length: 29 }, () => null), 4.5],
      platforms: [{ platform: 'YouTube', values: [...Array.from({ length: 29 }, () => null), 4.5] }],
      comparison: [],
    },
    { metric: 'watch_time_minutes', combined: Array.from({ length: 30 }, () => null), platforms: [], comparison: [] },
  ],
  derivedSeries: [{ platform: 'TikTok', metrics: ['views', 'likes', 'comments'], method: DERIVATION_METHODS.snapshots, startDate: '2026-11-03', endDate: '2026-11-21' }],
};

/** The same answer compared with the previous 30 days. */
const compared: AnalyticsResponse = {
  ...analytics,
  comparison: {
    compare: 'previous',
    startDate: '2026-09-24',
    endDate: '2026-10-23',
    currentTotals: { totalFollowers: 110_000, averageEngagementRate: 4.2, totalViews: 2_000_000, totalRevenue: 1000, connectedPlatforms: 3 },
    totals: { totalFollowers: 100_000, averageEngagementRate: 4.2, totalViews: 2_500_000, totalRevenue: null, connectedPlatforms: 2 },
    leftOut: [{ platform: 'TikTok', account: '@maya', figures: null }],
    shortened: [{ platform: 'Instagram', account: '@maya', historyStart: '2026-10-20', days: 4, figures: null }],
    followersOverTime: [
      { date: '2026-09-24', value: 800 },
      { date: '2026-09-25', value: 900 },
    ],
  },
};

const emptyAnalytics: AnalyticsResponse = { ...analytics, followersOverTime: [], followersByPlatform: [], engagementOverTime: [], platformBreakdown: [], topContent: [], trends: [] };

type Reply = { status: number; body?: unknown };

/** The Posts panel and the Forecasts card below the charts (its own tests are in posts-panel.test.tsx): no posts unless a test says so. */
const noPosts: Reply = { status: 200, body: { posts: [], page: 1, pageSize: 10, total: 0, platforms: [] } };

/** Answers by path (query string ignored, but recorded); every request is kept. */
type Handler = Reply | ((url: URL) => Reply | Promise<Reply>);
function mockServer(routes: Record<string, Handler>) {
  const handlers: Record<string, Handler> = { 'GET /api/content': noPosts, 'GET /api/forecasts': { status: 200, body: forecastsAnswer() }, ...routes };
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
      const handler = handlers[`${init.method ?? 'GET'} ${url.pathname}`];
      if (!handler) return new Response(JSON.stringify({ message: 'No route' }), { status: 404 });
      const reply = typeof handler === 'function' ? await handler(url) : handler;
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, analyticsCalls: () => calls.filter((call) => call.startsWith('GET /api/analytics?')) };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(path = '/analytics') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AnalyticsPage />
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const search = () => screen.getByTestId('location').textContent;

/** The cards' figures (each card's first definition; a second one is its change). */
const cardFigures = () =>
  within(screen.getByRole('region', { name: 'Summary' }))
    .getAllByRole('term')
    .map((term) => term.nextElementSibling!.textContent);

/** A card's change line as read out. */
const cardChangeWords = (label: string) => within(screen.getByRole('region', { name: 'Summary' })).getByText(label).parentElement!.querySelectorAll('dd')[1]?.querySelector('.sr-only')?.textContent ?? null;

beforeEach(() => {
  window.localStorage.setItem('auth_token', 'token-123');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('AnalyticsPage', () => {
  it.each([
    ['100000', 'The address asked for 100000 days; showing the last 30 days.'],
    ['-5', 'The address asked for -5 days; showing the last 30 days.'],
    ['abc', 'The address asked for “abc” days; showing the last 30 days.'],
  ])('corrects ?days=%s in the address to the 30 days it shows, and says so in one line', async (days, notice) => {
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['followers', 'likes'] },
      'GET /api/analytics': { status: 200, body: analytics },
    });
    renderPage(`/analytics?days=${days}&platform=3&postsPage=0`);
    const line = await screen.findByText(notice, { exact: false });
    expect(line.getAttribute('role')).toBe('status');
    expect(line.textContent).toBe(`${notice} The address asked for page 0 of the posts; showing the first page.`);
    expect(search()).toBe('?platform=3');
    await screen.findByRole('img', { name: 'Followers growth, last 30 days, TikTok' });
    expect(server.analyticsCalls()).toEqual(['GET /api/analytics?days=30&platformId=3']);
    // The creator's next change takes the line away.
    fireEvent.change(screen.getByRole('combobox', { name: 'Date Range' }), { target: { value: '7' } });
    expect(search()).toBe('?platform=3&days=7');
    expect(screen.queryByText(notice, { exact: false })).toBeNull();
  });

  it('corrects a metric the account has none of to all metrics once its metrics are known', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['followers', 'likes'] },
      'GET /api/analytics': { status: 200, body: analytics },
    });
    renderPage('/analytics?metric=nonsense&days=7');
    expect(await screen.findByText('The address asked for the metric “nonsense”; showing all metrics.')).toBeTruthy();
    expect(search()).toBe('?days=7');
  });

  it("says on the followers trend that a tracked public YouTube channel keeps only the last 30 days (YouTube's policy)", { timeout: 20_000 }, async () => {
    const followers = [...Array.from({ length: 28 }, () => null), 1_000, 1_010];
    const withFollowersTrend: AnalyticsResponse = {
      ...analytics,
      trends: [{ metric: 'followers', combined: followers, platforms: [{ platform: 'YouTube', values: followers }], comparison: [] }, ...analytics.trends],
    };
    const routes = (connections: unknown[]) => ({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['followers'] },
      'GET /api/analytics': { status: 200, body: withFollowersTrend },
      'GET /api/platformconnections': { status: 200, body: connections },
    });
    const note = "Tracked public YouTube channels: last 30 days (YouTube's policy).";
    mockServer(routes([platformConnection({ platform: 'youtube', platformName: 'YouTube', manual: true })]));
    renderPage();
    const trendsCard = () => screen.getByRole('heading', { name: 'Trends' }).closest('section')!;
    await waitFor(() => expect(trendsCard().textContent).toContain(note));
    cleanup();
    vi.unstubAllGlobals();

    const mocked = mockServer(routes([platformConnection({ platform: 'youtube', platformName: 'YouTube', manual: false })]));
    renderPage();
    // Once the connections have answered (the Followers Growth card lists what they give), no such note.
    await screen.findAllByRole('table', { name: /per day, last 30 days/ });
    await waitFor(() => expect(mocked.calls).toContain('GET /api/platformconnections'));
    expect(trendsCard().textContent).not.toContain('Tracked public YouTube channels');
  });

  // A long walk through the whole screen: more than the default 5 s on a busy machine.
  it('shows the loading texts, then the four numbers, the charts with text alternatives and the top content', { timeout: 20_000 }, async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['followers', 'likes'] },
      'GET /api/analytics': async () => {
        await gate;
        return { status: 200, body: analytics };
      },
    });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Analytics', level: 1 })).toBeTruthy();
    // Until the numbers answer the screen is one skeleton, drawn whole when they do (no layout shift).
    expect(screen.getByText('Loading analytics...').getAttribute('role')).toBe('status');
    expect(screen.getByRole('heading', { name: 'Followers Growth' })).toBeTruthy();
    release();

    const followers = await screen.findByRole('img', { name: 'Followers growth, last 30 days' });
    // Every day of the range on the axis; the total only where every platform's history has begun (issue 24).
    const followersChart = within(followers).getByTestId('line-chart');
    expect(JSON.parse(followersChart.dataset.values!)).toEqual([...Array.from({ length: 27 }, () => null), 1000, 1200, null]);
    // One line per platform, then the total, named with the day it starts.
    expect(JSON.parse(followersChart.dataset.lines!)).toEqual(['YouTube', 'TikTok', "Total from Nov 20, 2026, when every platform's history begins"]);
    const followersTable = screen.getByRole('table', { name: 'Followers growth, last 30 days' });
    expect(within(followersTable).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DateFollowers',
      'Oct 24, 2026YouTube 700',
      'Nov 20, 2026YouTube 750; TikTok 250; total from nov 20, 2026, when every platform\'s history begins 1K',
      'Nov 21, 2026YouTube 900; TikTok 300; total from nov 20, 2026, when every platform\'s history begins 1.2K',
    ]);
    expect(await screen.findByRole('img', { name: 'Engagements per day, last 30 days' })).toBeTruthy();
    // What we derived is said under the chart it feeds: TikTok's likes and comments, not its views (not charted here).
    const engagementCard = screen.getByRole('heading', { name: 'Engagement Rate' }).closest('section')!;
    // The spec's title is over counts: the card says what a bar is (issue 25).
    expect(within(engagementCard).getByText("Each bar is a day's engagements.")).toBeTruthy();
    expect(within(engagementCard).getByText(`TikTok likes and comments: ${DERIVATION_METHODS.snapshots} since Nov 3, 2026.`)).toBeTruthy();
    // How it was derived, in words, behind the disclosure under that chart.
    const derivedHow = within(engagementCard).getByText('How is this calculated?').closest('details')!;
    expect(within(derivedHow).getByText(DERIVATION_EXPLANATIONS[DERIVATION_METHODS.snapshots]!)).toBeTruthy();
    const followersCard = screen.getByRole('heading', { name: 'Followers Growth' }).closest('section')!;
    expect(within(followersCard).queryByText(/Derived by Analytics Hub/)).toBeNull();
    // Where a history begins inside the range is said under the chart, with the day the total starts.
    expect(within(followersCard).getByText('Follower history begins on Nov 20, 2026 for TikTok (@maya): the total is drawn from Nov 20, 2026, when every history has begun.')).toBeTruthy();
    // Trends: views by default, a line per platform and all platforms together; a platform without the figure has none.
    const trends = screen.getByRole('heading', { name: 'Trends' }).closest('section')!;
    const views = within(within(trends).getByRole('img', { name: 'Views per day, last 30 days' })).getByTestId('line-chart');
    expect(JSON.parse(views.dataset.lines!)).toEqual(['YouTube', 'TikTok (derived)', 'All platforms']);
    expect(within(within(trends).getByRole('table', { name: 'Views per day, last 30 days' })).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DateViews',
      'Nov 21, 2026YouTube 4K; TikTok 1K; all platforms 5K',
      'Nov 22, 2026YouTube 6K; TikTok 1K; all platforms 7K',
    ]);
    expect(within(trends).getByText(/TikTok views, likes and comments: from how much each post’s running totals grew/)).toBeTruthy();
    // The engagement rate reads as a rate; a trend without any figure says so.
    fireEvent.click(within(trends).getByRole('button', { name: 'Engagement rate' }));
    expect(within(trends).getByRole('button', { name: 'Engagement rate' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(within(trends).getByRole('table', { name: 'Engagement rate per day, last 30 days' })).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DateEngagement rate',
      'Nov 22, 20264.5%',
    ]);
    fireEvent.click(within(trends).getByRole('button', { name: 'Watch time (minutes)' }));
    expect(within(trends).getByText('No watch time (minutes) reported in the last 30 days')).toBeTruthy();
    const doughnut = await screen.findByRole('img', { name: 'Followers by platform, last 30 days' });
    expect(within(doughnut).getByTestId('doughnut-chart').dataset.labels).toBe('["YouTube (75.0%)","TikTok (25.0%)"]');

    const topContent = screen.getByRole('heading', { name: 'Top Content' }).closest('section')!;
    expect(within(topContent).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '#1Studio tourYouTube · Nov 3, 20264.3K engagements',
      '#2A day in the lifeTikTok987 engagements',
    ]);
    // Which posts these are, in words: the period's own.
    expect(within(topContent).getByText('Your posts published in the last 30 days, most engagement first.')).toBeTruthy();

    expect(cardFigures()).toEqual(['128.4K', '2.3M', '$1,235', '3']);
    expect(screen.queryByText(/report impressions instead/)).toBeNull();
    // The Forecasts card (its own tests are in features/forecasts): month-end income with its track record.
    const forecasts = screen.getByRole('heading', { name: 'Forecasts' }).closest('section')!;
    expect(await within(forecasts).findByText('Inside the 80 % band 9 of 12 past months')).toBeTruthy();
    // compare=none: no change lines.
    expect(cardChangeWords('Total Followers')).toBeNull();
    expect(screen.getByText('Figures for the last 30 days.')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'How recent these figures are' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'YouTube complete through Nov 20, 2026 · not synced yet',
      'TikTok complete through Nov 22, 2026 · not synced yet',
    ]);
  });

  it('says that Total Views counts views only, and how many LinkedIn impressions there are', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['impressions'] },
      'GET /api/analytics': { status: 200, body: { ...analytics, totals: { ...totals, totalImpressions: 45_600 } } },
    });
    renderPage();
    expect(await screen.findByText('Total Views counts views only. LinkedIn and X report impressions instead: 45.6K in the last 30 days.')).toBeTruthy();
    expect(cardFigures()[1]).toBe('2.3M');
  });

  it('shows each card’s change against the comparison period and overlays it on Followers Growth', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: compared },
    });
    renderPage('/analytics?platform=1');
    await screen.findByText('128.4K');
    expect(cardChangeWords('Total Followers')).toBe('up 10.0 per cent versus the previous 30 days');
    expect(cardChangeWords('Total Views')).toBe('down 20.0 per cent versus the previous 30 days');
    expect(within(screen.getByRole('region', { name: 'Summary' })).getByText('▼ 20.0%').className).toContain('text-red-400');
    // No revenue in the comparison period: a dash, not 0 % or ∞.
    expect(cardChangeWords('Total Revenue')).toBe('no data for the previous 30 days to compare with');
    // Connecting a platform is not growth: the count has no change (issue 24).
    expect(cardChangeWords('Connected Platforms')).toBeNull();
    // The notes under the cards are one closed line that says why (issue 25); opened, every note in full.
    const notes = screen.getByTestId('analytics-card-notes') as HTMLDetailsElement;
    expect(notes.open).toBe(false);
    expect(within(notes).getByText('Some platforms are left out of the change — why?').closest('summary')).toBeTruthy();
    fireEvent.click(within(notes).getByText('Some platforms are left out of the change — why?'));
    expect(notes.open).toBe(true);
    expect(
      within(notes).getByText(
        'Figures for the last 30 days on YouTube, compared with the previous 30 days. Changes leave out TikTok (@maya), which has no figures for the previous 30 days to compare with. Instagram (@maya): history begins Oct 20, 2026, so its change compares the 4 days both periods hold.',
      ),
    ).toBeTruthy();
    // Only the selected platform's freshness.
    expect(within(screen.getByRole('list', { name: 'How recent these figures are' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'YouTube complete through Nov 20, 2026 · not synced yet',
    ]);
    const chart = within(await screen.findByRole('img', { name: 'Followers growth, last 30 days, YouTube' })).getByTestId('line-chart');
    // The comparison's 09-24 and 09-25 lie under the range's first two days (10-24, 10-25).
    expect(JSON.parse(chart.dataset.labels!)).toHaveLength(30);
    expect(JSON.parse(chart.dataset.labels!).slice(0, 2)).toEqual(['Oct 24, 2026', 'Oct 25, 2026']);
    expect(JSON.parse(chart.dataset.comparison!)).toEqual({ label: 'Previous 30 days', values: [800, 900, ...Array.from({ length: 28 }, () => null)] });
    expect(screen.queryByText(/^No line for/)).toBeNull();
    // The views trend has no previous line (the server draws none when the periods hold other accounts), and says why.
    const trends = screen.getByRole('heading', { name: 'Trends' }).closest('section')!;
    expect(within(trends).getByText(/No line for previous 30 days: it holds other accounts than this period, and fewer accounts would read as growth\.$/)).toBeTruthy();
  });

  it('says why the comparison period has no line when its follower figures are of other accounts', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: { ...compared, comparison: { ...compared.comparison!, followersOverTime: [] } } },
    });
    renderPage();
    const chart = within(await screen.findByRole('img', { name: 'Followers growth, last 30 days' })).getByTestId('line-chart');
    expect(chart.dataset.comparison).toBeUndefined();
    expect(screen.getByText('No line for the previous 30 days: not every account here has follower figures then.')).toBeTruthy();
  });

  it('asks for the comparison the Compare to filter names, custom periods as long as the range', async () => {
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: compared },
    });
    renderPage('/analytics?days=7');
    await screen.findByText('128.4K');
    const compareTo = screen.getByRole('combobox', { name: 'Compare to' });
    expect((compareTo as HTMLSelectElement).value).toBe('previous');
    expect(within(compareTo).getAllByRole('option').map((option) => option.textContent)).toEqual(['Previous period', 'Same period last year', 'Custom', 'None']);
    fireEvent.change(compareTo, { target: { value: 'year' } });
    expect(search()).toBe('?days=7&compare=year');
    fireEvent.change(compareTo, { target: { value: 'none' } });
    expect(search()).toBe('?days=7&compare=none');
    fireEvent.change(compareTo, { target: { value: 'custom' } });
    expect(search()).toMatch(/^\?days=7&compare=custom&compareFrom=\d{4}-\d{2}-\d{2}$/);
    const start = screen.getByLabelText('Comparison starts');
    fireEvent.change(start, { target: { value: '2026-09-01' } });
    expect(search()).toBe('?days=7&compare=custom&compareFrom=2026-09-01');
    expect(screen.getByText('7 days: Sep 1, 2026 to Sep 7, 2026')).toBeTruthy();
    await waitFor(() =>
      expect(server.analyticsCalls()).toContain('GET /api/analytics?days=7&compareStartDate=2026-09-01&compareEndDate=2026-09-07'),
    );
    expect(server.analyticsCalls().slice(0, 3)).toEqual(['GET /api/analytics?days=7', 'GET /api/analytics?days=7&compare=year', 'GET /api/analytics?days=7&compare=none']);
  });

  it('charts what the Metric filter names: Metric = Views draws views', async () => {
    const viewsOnly: AnalyticsResponse = { ...emptyAnalytics, trends: [analytics.trends[0]!] };
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['views'] },
      'GET /api/analytics': (url) => ({ status: 200, body: url.searchParams.get('metricType') === 'views' ? viewsOnly : analytics }),
    });
    renderPage('/analytics?metric=views');
    // The skeleton has a Trends card too: wait for the chart, then read its card.
    const chart = await screen.findByRole('img', { name: 'Views per day, last 30 days' });
    const trends = chart.closest('section')!;
    expect(within(trends).getByRole('heading', { name: 'Trends' })).toBeTruthy();
    // One trend: nothing to choose between.
    expect(within(trends).queryByRole('group', { name: 'Trend to chart' })).toBeNull();
  });

  it('says so when there is nothing to draw', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: emptyAnalytics },
    });
    renderPage();
    for (const text of ['No followers data available', 'No engagement data available', 'No platform data available', 'No content data available']) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(screen.queryByRole('img')).toBeNull();
    // Accounts are connected: the charts are empty for this period, and no notice sends the user to Platforms.
    expect(screen.queryByText('No platform connected yet')).toBeNull();
  });

  it('says why everything is empty when no platform is connected, and where to connect one (issue 25)', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: { ...summary, connectedPlatforms: 0, freshness: [] } },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: { ...emptyAnalytics, totals: { ...totals, connectedPlatforms: 0 } } },
    });
    renderPage();
    const notice = (await screen.findByText('No platform connected yet')).closest('[role="status"]') as HTMLElement;
    expect(within(notice).getByRole('link', { name: 'Connect Platform' }).getAttribute('href')).toBe('/platforms');
    expect(await screen.findByText('No followers data available')).toBeTruthy();
  });

  it('shows the analytics error, and the platform error when a platform is selected', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 500, body: { message: 'boom' } },
      // The best-time panel's account list loads (empty), so the only alert is the analytics one.
      'GET /api/platformconnections': { status: 200, body: [] },
    });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load analytics data');
    cleanup();
    renderPage('/analytics?platform=2');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load platform analytics');
  });

  it('keeps the filters in the URL and refetches only when a value really changes', async () => {
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['followers', 'likes'] },
      'GET /api/analytics': { status: 200, body: analytics },
    });
    renderPage();
    await screen.findByRole('img', { name: 'Followers growth, last 30 days' });
    expect(server.analyticsCalls()).toEqual(['GET /api/analytics?days=30']);

    const dateRange = screen.getByRole('combobox', { name: 'Date Range' });
    fireEvent.change(dateRange, { target: { value: '30' } });
    expect(search()).toBe('');

    fireEvent.change(dateRange, { target: { value: '7' } });
    expect(search()).toBe('?days=7');
    await screen.findByRole('img', { name: 'Followers growth, last 7 days' });

    fireEvent.change(screen.getByRole('combobox', { name: 'Platform' }), { target: { value: '3' } });
    expect(search()).toBe('?days=7&platform=3');
    await screen.findByRole('option', { name: 'Likes' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Metric' }), { target: { value: 'likes' } });
    expect(search()).toBe('?days=7&platform=3&metric=likes');
    await screen.findByRole('img', { name: 'Followers growth, last 7 days, TikTok' });

    // Back to a combination already loaded: served from the cache, no new request.
    fireEvent.change(screen.getByRole('combobox', { name: 'Platform' }), { target: { value: '3' } });
    expect(server.analyticsCalls()).toEqual([
      'GET /api/analytics?days=30',
      'GET /api/analytics?days=7',
      'GET /api/analytics?days=7&platformId=3',
      'GET /api/analytics?days=7&platformId=3&metricType=likes',
    ]);
    expect(server.calls.filter((call) => call === 'GET /api/analytics/metrics')).toHaveLength(1);
  });

  it('shows Clear Filters only with a platform or metric selected, and resets both', async () => {
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: ['likes'] },
      'GET /api/analytics': { status: 200, body: analytics },
    });
    renderPage('/analytics?days=90');
    await screen.findByRole('img', { name: 'Followers growth, last 90 days' });
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).toBeNull();

    fireEvent.change(screen.getByRole('combobox', { name: 'Platform' }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(search()).toBe('?days=90');
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).toBeNull();
    expect((screen.getByRole('combobox', { name: 'Platform' }) as HTMLSelectElement).value).toBe('');
    // Back to the filters already loaded: the cached answer, no new request.
    expect(server.analyticsCalls()).toEqual(['GET /api/analytics?days=90', 'GET /api/analytics?days=90&platformId=1']);
    expect(await screen.findByRole('img', { name: 'Followers growth, last 90 days' })).toBeTruthy();
  });

  it('Refresh refetches the numbers and the charts', async () => {
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/analytics/metrics': { status: 200, body: [] },
      'GET /api/analytics': { status: 200, body: analytics },
    });
    renderPage();
    await screen.findByRole('img', { name: 'Followers growth, last 30 days' });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => {
      expect(server.analyticsCalls()).toHaveLength(2);
      expect(server.calls.filter((call) => call === 'GET /api/analytics/summary')).toHaveLength(2);
    });
  });
});
