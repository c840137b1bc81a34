import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forecastsAnswer } from '../../../test/factories';
import { ForecastsCard } from './forecasts-card';
import { MonthlyProjection } from './monthly-projection';

type Reply = { status: number; body?: unknown };

function mockServer(reply: () => Reply | Promise<Reply>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      calls.push(url.pathname + url.search);
      const answer = url.pathname === '/api/forecasts' ? await reply() : { status: 404, body: { message: 'No route' } };
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderWith(node: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{node}</QueryClientProvider>);
}

beforeEach(() => window.localStorage.setItem('auth_token', 'token-123'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('ForecastsCard', () => {
  it('loads, then shows each forecast with its interval and track record, and says where history is too short', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockServer(async () => {
      await gate;
      return { status: 200, body: forecastsAnswer() };
    });
    renderWith(<ForecastsCard />);
    expect(screen.getByRole('status', { name: 'Loading forecasts' })).toBeTruthy();
    release();

    const income = await screen.findByRole('region', { name: 'Income this month, to Nov 30, 2026' });
    expect(calls).toEqual(['/api/forecasts']);
    const youtube = within(income).getByRole('heading', { name: 'YouTube revenue' }).closest('section')!;
    expect(within(youtube).getByText('$4,410')).toBeTruthy();
    expect(within(youtube).getByText('80 % interval: $4,121 to $4,761')).toBeTruthy();
    expect(within(youtube).getByText('Inside the 80 % band 9 of 12 past months')).toBeTruthy();
    expect(within(youtube).getByText('$2,870 so far, the rest forecast')).toBeTruthy();
    const patreon = within(income).getByRole('heading', { name: 'Patreon pledges' }).closest('section')!;
    expect(within(patreon).getByText('Not enough history yet (40 of 90 days)')).toBeTruthy();
    expect(within(income).getByText('Not enough history yet for every source.')).toBeTruthy();
    expect(within(income).getByText(/Patreon pledges left out: €120.00 a month in EUR/)).toBeTruthy();

    const followers = screen.getByRole('region', { name: 'Followers' });
    const [youtubeRow, instagramRow] = within(followers).getAllByRole('listitem');
    expect(within(youtubeRow!).getByText('48,210 subscribers on Nov 21, 2026')).toBeTruthy();
    expect(within(youtubeRow!).getByText('49,300')).toBeTruthy();
    expect(within(youtubeRow!).getByText('80 % interval: 48,900 to 49,650')).toBeTruthy();
    // The month-end figure carries the track record; the 30-day one has none of its own.
    expect(within(youtubeRow!).getAllByText(/^Inside the 80 % band/).map((line) => line.textContent)).toEqual(['Inside the 80 % band 10 of 12 past months']);
    expect(within(youtubeRow!).getByText('80 % interval: 50,100 to 51,400')).toBeTruthy();
    expect(within(youtubeRow!).getByText('Next milestone: 50K subscribers')).toBeTruthy();
    expect(within(youtubeRow!).getByText('Dec 14, 2026')).toBeTruthy();
    expect(within(youtubeRow!).getByText('80 % interval: Dec 8, 2026 to Dec 22, 2026')).toBeTruthy();
    expect(within(instagramRow!).getByText('Not enough history yet (30 of 90 days)')).toBeTruthy();
  });

  it('says when a milestone lies beyond the horizon', async () => {
    const answer = forecastsAnswer();
    answer.followers[0]!.milestone = { milestone: 50_000, label: '50K', low: '2027-06-01', median: null, high: null, horizonEnd: '2027-11-21' };
    mockServer(() => ({ status: 200, body: answer }));
    renderWith(<ForecastsCard />);
    expect(await screen.findByText('Not by Nov 21, 2027')).toBeTruthy();
    expect(screen.getByText('80 % interval: Jun 1, 2027 to after Nov 21, 2027')).toBeTruthy();
  });

  it('says how many past months the track record left out for days missing from the history', async () => {
    const answer = forecastsAnswer();
    answer.followers[0]!.trackRecord = { months: 11, inside: 9, leftOut: 1 };
    mockServer(() => ({ status: 200, body: answer }));
    renderWith(<ForecastsCard />);
    expect(await screen.findByText('Inside the 80 % band 9 of 11 past months (1 past month left out: days missing from the history)')).toBeTruthy();
  });

  it('says it once when the whole interval of a milestone lies beyond the horizon (issue 25)', async () => {
    const answer = forecastsAnswer();
    answer.followers[0]!.milestone = { milestone: 50_000, label: '50K', low: null, median: null, high: null, horizonEnd: '2027-11-21' };
    mockServer(() => ({ status: 200, body: answer }));
    renderWith(<ForecastsCard />);
    expect(await screen.findByText('Not by Nov 21, 2027')).toBeTruthy();
    expect(screen.getByText('80 % interval: after Nov 21, 2027')).toBeTruthy();
  });

  it('says when it failed, and tries again', async () => {
    let fail = true;
    const calls = mockServer(() => (fail ? { status: 500, body: { message: 'Boom' } } : { status: 200, body: forecastsAnswer() }));
    renderWith(<ForecastsCard />);
    expect(await screen.findByText('The forecasts could not be loaded.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Followers' })).toBeTruthy();
    expect(calls).toHaveLength(2);
  });
});

describe('MonthlyProjection', () => {
  it('shows the month’s YouTube revenue forecast with its interval and track record', async () => {
    mockServer(() => ({ status: 200, body: forecastsAnswer() }));
    renderWith(<MonthlyProjection />);
    expect(await screen.findByText('$4,410')).toBeTruthy();
    expect(screen.getByText('80 % interval: $4,121 to $4,761')).toBeTruthy();
    expect(screen.getByText('Inside the 80 % band 9 of 12 past months')).toBeTruthy();
    expect(screen.getByText('YouTube revenue for the month to Nov 30, 2026: $2,870 so far, the rest forecast from Nov 19, 2026.')).toBeTruthy();
  });

  it('says when there is not enough history', async () => {
    const answer = forecastsAnswer();
    answer.income.youtube = { asOf: '2026-11-19', historyDays: 61, knownSoFar: 120, estimate: null, trackRecord: null };
    mockServer(() => ({ status: 200, body: answer }));
    renderWith(<MonthlyProjection />);
    expect(await screen.findByText('Not enough history yet (61 of 90 days)')).toBeTruthy();
  });
});
