import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { eventually } from '../../../test/eventually';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsResponse, AnalyticsSummary, ConnectionSyncStatus } from '#contract/analytics.ts';
import { SYNC_STATUS_POLL_LIMIT_MS } from '../../../lib/sync-progress';
import { DashboardPage } from './dashboard-page';
import { platformConnection } from '../../../test/factories';

const connection = platformConnection;

const summary: AnalyticsSummary = {
  totalFollowers: 128_449,
  averageEngagementRate: 4.567,
  totalViews: 1_000_000,
  totalImpressions: 0,
  totalRevenue: 1234.5,
  pledgesNotInUsd: [],
  connectedPlatforms: 3,
  freshness: [],
  comparison: null,
};

const connections = [
  connection({}),
  connection({ id: 5, platformId: 6, platformName: 'Patreon', platform: 'patreon', platformUsername: 'mayamakes', followers: 87 }),
  connection({ id: 6, platformId: 3, platformName: 'TikTok', platform: 'tiktok', platformUsername: null, platformUserId: 'tt-77', followers: 2_500_000 }),
];

type Reply = { status: number; body?: unknown };

function mockServer(handlers: Record<string, Reply | (() => Reply | Promise<Reply>)>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const key = `${init.method ?? 'GET'} ${input}`;
      calls.push(key);
      const handler = handlers[key];
      if (!handler) return new Response(JSON.stringify({ message: `No route ${key}` }), { status: 404 });
      const reply = typeof handler === 'function' ? await handler() : handler;
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, count: (key: string) => calls.filter((call) => call === key).length };
}

function syncStatus(connectionId: number, status: ConnectionSyncStatus['status'], message: string | null = null): ConnectionSyncStatus {
  const platformName = connections.find((item) => item.id === connectionId)?.platformName ?? 'YouTube';
  return { connectionId, platformName, status, pausedReason: status === 'paused' ? 'subscription_ended' : null, message, pause: null, lastSyncedAt: null, nextRunAt: null, lastFailedAt: null, attempts: 0, state: status === 'paused' ? 'paused' : status === 'failed' ? 'failed' : 'ok', missingParts: [], action: null };
}

function renderDashboard() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <DashboardPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A card's figure (its first definition), without the change line under it. */
function statValue(label: string): string {
  return screen.getByText(label).nextElementSibling!.textContent!;
}

/** A card's change line, as read out. */
function statChange(label: string): string | null {
  return screen.getByText(label).parentElement!.querySelectorAll('dd')[1]?.querySelector('.sr-only')?.textContent ?? null;
}

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  window.localStorage.setItem('auth_token', 'token-123');
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  consoleError.mockRestore();
  window.localStorage.clear();
});

/** GET /api/analytics?days=30 (the trends under the cards): followers of two platforms, views of one. */
const nulls = (count: number) => Array.from({ length: count }, () => null);
const trendsAnswer: Pick<AnalyticsResponse, 'startDate' | 'endDate' | 'comparison' | 'derivedSeries' | 'trends'> = {
  startDate: '2026-10-24',
  endDate: '2026-11-22',
  comparison: null,
  derivedSeries: [],
  trends: [
    {
      metric: 'views',
      combined: [...nulls(28), 500, 700],
      // Patreon reports no views: no line, never a flat zero.
      platforms: [{ platform: 'YouTube', values: [...nulls(28), 500, 700] }],
      comparison: [],
    },
    {
      metric: 'followers',
      combined: [...nulls(29), 1_087],
      platforms: [
        { platform: 'YouTube', values: [...nulls(28), 990, 1_000] },
        { platform: 'Patreon', values: [...nulls(29), 87] },
      ],
      comparison: [],
    },
  ],
};

describe('DashboardPage', () => {
  it('draws the followers and views trends of the last 30 days under the cards', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: connections },
      'GET /api/analytics?days=30': { status: 200, body: trendsAnswer },
    });
    renderDashboard();
    const followers = await screen.findByRole('table', { name: 'Followers per day, last 30 days' });
    expect(within(followers).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DateFollowers',
      'Nov 21, 2026YouTube 990',
      "Nov 22, 2026YouTube 1K; Patreon 87; total from nov 22, 2026, when every platform's history begins 1.1K",
    ]);
    const views = screen.getByRole('table', { name: 'Views per day, last 30 days' });
    expect(within(views).getAllByRole('row').map((row) => row.textContent)).toEqual(['DateViews', 'Nov 21, 2026500', 'Nov 22, 2026700']);
    // Under the cards, before the connections.
    const trends = screen.getByRole('region', { name: 'Trends' });
    expect(screen.getByRole('region', { name: 'Summary' }).compareDocumentPosition(trends) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });


  it("asks a synced Patreon campaign's currency when Patreon named none, until the creator answers; the totals are read again", async () => {
    let currency: string | null = null;
    const patreon = () => connection({ id: 5, platformId: 6, platformName: 'Patreon', platform: 'patreon', platformUsername: 'mayamakes', followers: 87, currency, lastSyncedAt: '2026-11-22T09:00:00.000Z' });
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: { ...summary, pledgesNotInUsd: currency ? [] : [{ currency: null, monthlyAmount: 310, periodAmount: 310, connections: 1 }] } },
      'GET /api/platformconnections': () => ({ status: 200, body: [connections[0]!, patreon()] }),
      'PATCH /api/platformconnections/5': () => {
        currency = 'USD';
        return { status: 200, body: patreon() };
      },
    });
    renderDashboard();
    const banner = (await screen.findByText('Which currency does your Patreon campaign @mayamakes charge in?')).closest('[role="status"]') as HTMLElement;
    // Above the cards: the first thing read.
    expect(banner.compareDocumentPosition(screen.getByRole('region', { name: 'Summary' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const summaries = server.count('GET /api/analytics/summary');
    fireEvent.change(within(banner).getByLabelText(/Campaign currency/), { target: { value: 'USD' } });
    await eventually(() => expect(screen.queryByText(/Which currency does your Patreon campaign/)).toBeNull());
    await eventually(() => expect(server.count('GET /api/analytics/summary')).toBeGreaterThan(summaries));
  });

  it('shows loading placeholders, then the empty state with a way to connect', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: { ...summary, totalFollowers: 0, averageEngagementRate: 0, connectedPlatforms: 0 } },
      'GET /api/platformconnections': { status: 200, body: [] },
    });
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
    expect(screen.getByText('Overview of your social media analytics')).toBeTruthy();
    expect(screen.getByText('Loading summary...')).toBeTruthy();

    expect(await screen.findByText('No platforms connected yet')).toBeTruthy();
    const card = screen.getByRole('heading', { name: 'Platform Connections' }).closest('section')!;
    expect(within(card).getByRole('link', { name: 'Connect Platform' }).getAttribute('href')).toBe('/platforms');
    expect(await screen.findByText('0.0%')).toBeTruthy();
    expect(statValue('Total Followers')).toBe('0');
    expect(statValue('Connected Platforms')).toBe('0');
    expect(screen.getByRole('button', { name: 'Sync Data' })).toHaveProperty('disabled', true);
  });

  it('shows the numbers and every connection with its follower label', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: connections },
    });
    renderDashboard();
    // The screen is drawn whole once both calls have answered (no layout shift): read the final section.
    await eventually(() => expect(screen.queryByText('Loading summary...')).toBeNull());
    const card = screen.getByRole('heading', { name: 'Platform Connections' }).closest('section')!;
    const rows = await within(card).findAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'YouTube@maya12.3K subscribers',
      'Patreon@mayamakes87 patrons',
      // No username: the account's name, not the platform's raw id (issue 25).
      'TikTokMaya Creates2.5M followers',
    ]);
    // Each row shows its platform's brand mark (spec: the platform's first letter; issue 16: the brand mark instead).
    expect(rows.map((row) => row.querySelector('[data-platform]')?.getAttribute('data-platform'))).toEqual(['youtube', 'patreon', 'tiktok']);
    expect(rows.every((row) => row.querySelector('[data-platform] svg path') !== null)).toBe(true);
    expect(await screen.findByText('128.4K')).toBeTruthy();
    expect(statValue('Engagement Rate')).toBe('4.6%');
    expect(statValue('Connected Platforms')).toBe('3');

    const quickActions = screen.getByRole('heading', { name: 'Quick Actions' }).closest('section')!;
    expect(within(quickActions).getByRole('link', { name: 'View Analytics' }).getAttribute('href')).toBe('/analytics');
    expect(within(quickActions).getByRole('link', { name: 'Connect Platform' }).getAttribute('href')).toBe('/platforms');
  });

  it('shows each card’s change against the previous 30 days, and how recent each platform’s figures are', async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    mockServer({
      'GET /api/analytics/summary': {
        status: 200,
        body: {
          ...summary,
          freshness: [
            { platform: 'YouTube', syncedAt: hoursAgo(2), completeThrough: '2026-11-21' },
            { platform: 'TikTok', syncedAt: null, completeThrough: null },
          ],
          comparison: {
            compare: 'previous',
            startDate: '2026-09-24',
            endDate: '2026-10-23',
            currentTotals: { totalFollowers: 112_400, averageEngagementRate: 4.5, totalViews: 900_000, totalRevenue: 1000, connectedPlatforms: 3 },
            totals: { totalFollowers: 100_000, averageEngagementRate: null, totalViews: 1_000_000, totalRevenue: 1000, connectedPlatforms: 3 },
            leftOut: [{ platform: 'TikTok', account: null, figures: null }],
            shortened: [],
          },
        },
      },
      'GET /api/platformconnections': { status: 200, body: connections },
    });
    renderDashboard();
    await screen.findByText('128.4K');
    expect(statChange('Total Followers')).toBe('up 12.4 per cent versus the previous 30 days');
    expect(screen.getByText('▲ 12.4%').className).toContain('text-emerald-400');
    // No engagement figure in the previous period: a dash and words, never 0 % or ∞.
    await eventually(() => expect(statChange('Engagement Rate')).toBe('no data for the previous 30 days to compare with'));
    // Connecting a platform is not growth: the count has no change (issue 24).
    expect(statChange('Connected Platforms')).toBeNull();
    expect(screen.getByText('Changes leave out TikTok, which has no figures for the previous 30 days to compare with.')).toBeTruthy();
    const freshness = screen.getByRole('list', { name: 'How recent these figures are' });
    expect(within(freshness).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'YouTube complete through Nov 21, 2026 · synced 2 hours ago',
      'TikTok: no figures yet · not synced yet',
    ]);
  });

  it('Sync Data syncs every connection, says Syncing..., and reloads the dashboard 2 seconds later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: connections },
      'POST /api/sync/platform/4': { status: 202, body: {} },
      'POST /api/sync/platform/5': { status: 202, body: {} },
      'POST /api/sync/platform/6': { status: 202, body: {} },
      // Already finished when first asked: the status refresh and the 2-second reload both happen.
      'GET /api/sync/status': { status: 200, body: [4, 5, 6].map((id) => syncStatus(id, 'idle')) },
    });
    renderDashboard();
    await screen.findByText('@maya');
    fireEvent.click(screen.getByRole('button', { name: 'Sync Data' }));
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toHaveProperty('disabled', true);
    await eventually(() => {
      for (const id of [4, 5, 6]) expect(server.count(`POST /api/sync/platform/${id}`)).toBe(1);
    });
    expect(screen.getByText('Syncing your accounts. The dashboard refreshes in a moment.')).toBeTruthy();

    // The status says all three are done: refresh at once.
    await eventually(() => {
      expect(server.count('GET /api/analytics/summary')).toBe(2);
      expect(server.count('GET /api/platformconnections')).toBe(2);
    });
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(server.count('GET /api/analytics/summary')).toBe(2);

    // ...and the 2-second reload of spec section 9 still comes.
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await eventually(() => {
      expect(server.count('GET /api/analytics/summary')).toBe(3);
      expect(server.count('GET /api/platformconnections')).toBe(3);
    });
    expect(server.count('GET /api/sync/status')).toBe(1);
    expect(await screen.findByRole('button', { name: 'Sync Data' })).toHaveProperty('disabled', false);
  });

  it('logs the syncs that could not start and still reloads for the others', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: connections.slice(0, 2) },
      'POST /api/sync/platform/4': { status: 202, body: {} },
      'POST /api/sync/platform/5': { status: 500, body: { message: 'Patreon is down' } },
      'GET /api/sync/status': { status: 200, body: [syncStatus(4, 'running'), syncStatus(5, 'idle')] },
    });
    renderDashboard();
    await screen.findByText('@maya');
    fireEvent.click(screen.getByRole('button', { name: 'Sync Data' }));
    await eventually(() => expect(consoleError).toHaveBeenCalledTimes(1));
    await act(() => vi.advanceTimersByTimeAsync(2_100));
    await eventually(() => expect(server.count('GET /api/platformconnections')).toBe(2));
    // Connection 4 still runs, so the button keeps saying so; only its status is watched.
    expect(screen.getByRole('button', { name: 'Syncing...' })).toBeTruthy();
  });

  it('polls the sync status every second while a sync runs, refreshes when all are done and stops polling', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let statusAnswer: ConnectionSyncStatus[] = [syncStatus(4, 'queued'), syncStatus(6, 'queued')];
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: [connections[0]!, connections[2]!] },
      'POST /api/sync/platform/4': { status: 202, body: {} },
      'POST /api/sync/platform/6': { status: 202, body: {} },
      'GET /api/sync/status': () => ({ status: 200, body: statusAnswer }),
    });
    renderDashboard();
    await screen.findByText('@maya');
    fireEvent.click(screen.getByRole('button', { name: 'Sync Data' }));
    await eventually(() => expect(server.count('GET /api/sync/status')).toBe(1));

    statusAnswer = [syncStatus(4, 'idle'), syncStatus(6, 'running')];
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await eventually(() => expect(server.count('GET /api/sync/status')).toBe(2));
    expect(server.count('GET /api/analytics/summary')).toBe(1);

    // The 2-second reload comes while TikTok still runs; the button keeps saying Syncing..., with the progress.
    statusAnswer = [syncStatus(4, 'idle'), syncStatus(6, 'running')];
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await eventually(() => expect(server.count('GET /api/sync/status')).toBe(3));
    await eventually(() => expect(server.count('GET /api/analytics/summary')).toBe(2));
    expect(screen.getByRole('button', { name: 'Syncing... 1/2' })).toBeTruthy();

    statusAnswer = [syncStatus(4, 'idle'), syncStatus(6, 'failed', 'TikTok refused the request (rate limit). We will retry later.')];
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await eventually(() => expect(server.count('GET /api/analytics/summary')).toBe(3));
    expect(server.count('GET /api/platformconnections')).toBe(3);
    expect(await screen.findByRole('button', { name: 'Sync Data' })).toHaveProperty('disabled', false);
    const failures = screen.getByRole('list', { name: 'Failed syncs' });
    expect(failures.textContent).toBe('TikTok: TikTok refused the request (rate limit). We will retry later.');

    const polls = server.count('GET /api/sync/status');
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(server.count('GET /api/sync/status')).toBe(polls);
  });

  it('stops polling after the time limit while a sync is still running, and reloads once more', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockServer({
      'GET /api/analytics/summary': { status: 200, body: summary },
      'GET /api/platformconnections': { status: 200, body: [connections[0]!] },
      'POST /api/sync/platform/4': { status: 202, body: {} },
      // Rate limited at the platform: queued for the next quarter of an hour.
      'GET /api/sync/status': { status: 200, body: [syncStatus(4, 'queued')] },
    });
    renderDashboard();
    await screen.findByText('@maya');
    fireEvent.click(screen.getByRole('button', { name: 'Sync Data' }));
    await eventually(() => expect(server.count('GET /api/sync/status')).toBe(1));
    // (The fake clock also moves with real time: keep a margin.)
    await act(() => vi.advanceTimersByTimeAsync(SYNC_STATUS_POLL_LIMIT_MS - 15_000));
    expect(screen.getByRole('button', { name: 'Syncing...' })).toBeTruthy();
    const summaries = server.count('GET /api/analytics/summary');
    await act(() => vi.advanceTimersByTimeAsync(16_000));
    expect(await screen.findByRole('button', { name: 'Sync Data' })).toHaveProperty('disabled', false);
    expect(screen.getByText('Some accounts are still syncing. The dashboard refreshes when they finish.')).toBeTruthy();
    await eventually(() => expect(server.count('GET /api/analytics/summary')).toBe(summaries + 1));
    const polls = server.count('GET /api/sync/status');
    expect(polls).toBeLessThanOrEqual(SYNC_STATUS_POLL_LIMIT_MS / 1_000 + 1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(server.count('GET /api/sync/status')).toBe(polls);
  });

  it('shows a dash for Engagement Rate before there is any data, and the rate once a connection synced', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: { ...summary, totalViews: 0, averageEngagementRate: 0 } },
      'GET /api/platformconnections': { status: 200, body: [connection({ lastSyncedAt: null })] },
    });
    renderDashboard();
    await screen.findByText('@maya');
    await eventually(() => expect(statValue('Engagement Rate')).toBe('—No data yet'));
    expect(screen.queryByText('0.0%')).toBeNull();
  });

  it('shows 0.0% once a connection has synced, even without views', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 200, body: { ...summary, totalViews: 0, averageEngagementRate: 0 } },
      'GET /api/platformconnections': { status: 200, body: [connection({ lastSyncedAt: '2026-11-20T10:00:00.000Z' })] },
    });
    renderDashboard();
    expect(await screen.findByText('0.0%')).toBeTruthy();
  });

  it('logs a failed summary and shows a dash instead of numbers', async () => {
    mockServer({
      'GET /api/analytics/summary': { status: 500, body: { message: 'boom' } },
      'GET /api/platformconnections': { status: 200, body: [] },
    });
    renderDashboard();
    await eventually(() => expect(consoleError).toHaveBeenCalled());
    expect(await screen.findAllByText('Not available')).toHaveLength(3);
  });
});
