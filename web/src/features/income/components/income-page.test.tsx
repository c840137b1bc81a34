import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../../test/eventually';
import type { IncomeResponse } from '#contract/income.ts';
import type { PlatformConnection } from '#contract/platforms.ts';
import { platformConnection } from '../../../test/factories';
import { IncomePage } from './income-page';

// Chart.js needs a canvas; the charts' text alternatives are what these tests read.
vi.mock('react-chartjs-2', () => ({ Bar: () => null, Line: () => null }));

type Reply = { status: number; body?: unknown };

/** Answers the income calls with `reply` (and records them); the connections with `connections`. */
function mockServer(reply: (url: URL) => Reply, connections: PlatformConnection[] = []) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname.startsWith('/api/platformconnections')) {
        // PATCH …/{id}: the creator's currency, kept on the connection as the server does.
        const patched = connections.find((connection) => url.pathname.endsWith(`/${connection.id}`));
        if (init?.method === 'PATCH' && patched) patched.currency = JSON.parse(String(init.body)).currency;
        return new Response(JSON.stringify(patched ?? connections), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      calls.push(url);
      const answer = reply(url);
      return new Response(JSON.stringify(answer.body ?? null), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function renderPage(path = '/income') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <IncomePage />
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const answer = (granularity: 'day' | 'month'): IncomeResponse => ({
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  granularity,
  displayCurrency: 'USD',
  periods: [
    {
      period: granularity === 'month' ? '2026-10' : '2026-10-31',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      lines: [
        { source: 'youtube_ad', connectionId: 1, account: 'maya', original: { currency: 'USD', amount: 248 }, converted: 248 },
        { source: 'patreon_pledges', connectionId: 2, account: 'maya', original: { currency: 'EUR', amount: 310 }, converted: 358 },
        { source: 'patreon_pledges', connectionId: 3, account: 'other', original: { currency: 'GBP', amount: 62 }, converted: null },
      ],
      total: null,
      totalsByCurrency: [
        { currency: 'USD', amount: 248 },
        { currency: 'EUR', amount: 310 },
        { currency: 'GBP', amount: 62 },
      ],
      views: 31_000,
      patrons: { new: 7, churned: 2, net: 5 },
    },
  ],
  totals: {
    total: null,
    totalsByCurrency: [{ currency: 'USD', amount: 248 }, { currency: 'EUR', amount: 310 }, { currency: 'GBP', amount: 62 }],
    unconverted: [{ currency: 'GBP', amount: 62 }],
    views: 31_000,
    incomePer1000Views: null,
  },
  shares: [
    { platform: 'youtube', incomeReported: true, income: 248, incomeShare: null, views: 31_000, viewsShare: 1 },
    { platform: 'patreon', incomeReported: true, income: null, incomeShare: null, views: 0, viewsShare: 0 },
  ],
  rates: [{ currency: 'EUR', rate: 1.2, rateDate: '2026-10-15', source: 'European Central Bank' }],
  hasIncomeSources: true,
});

beforeEach(() => window.localStorage.setItem('auth_token', 'token-123'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('IncomePage', () => {
  it('corrects an unknown range in the address to the 6 months it shows, and says so in one line', async () => {
    const calls = mockServer(() => ({ status: 200, body: answer('month') }));
    renderPage('/income?range=10y&by=day');
    expect((await screen.findByText(/^The address asked for/)).getAttribute('role')).toBe('status');
    expect(screen.getByText('The address asked for the range “10y”; showing the last 6 months.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('?by=day');
    expect((screen.getByRole('combobox', { name: 'Period' }) as HTMLSelectElement).value).toBe('6m');
    expect(calls.every((url) => url.searchParams.get('granularity') === 'day')).toBe(true);
  });

  it('shows the rate’s source and date, keeps amounts without a rate out of every sum, and the patrons table', async () => {
    const calls = mockServer((url) => ({ status: 200, body: answer(url.searchParams.get('granularity') === 'day' ? 'day' : 'month') }));
    renderPage();
    expect(screen.getByText('Loading income...')).toBeTruthy();
    const note = await screen.findByTestId('income-currency-note');
    // One line that opens to the whole note (issue 25).
    expect(note.tagName).toBe('DETAILS');
    expect(note.querySelector('summary')!.textContent).toBe('Amounts in USD: the exchange rates used');
    expect(note.textContent).toContain('1 EUR = 1.2000 USD (European Central Bank, Oct 15, 2026)');
    expect(note.textContent).toContain('shown side by side and not added up: £62.00.');
    expect(screen.getByText(/Not in the chart \(no rate\): £62.00/)).toBeTruthy();
    expect(screen.getByText('Not all amounts have a rate: see below')).toBeTruthy();
    const patrons = screen.getByRole('table', { name: /New, churned and net paying patrons per month/ });
    expect(within(patrons).getByRole('row', { name: /Oct 2026/ }).textContent).toContain('+5');
    expect(calls[0]!.searchParams.get('granularity')).toBe('month');

    fireEvent.click(screen.getByRole('button', { name: 'By day' }));
    expect(await screen.findByRole('table', { name: /per day/ })).toBeTruthy();
    expect(calls.at(-1)!.searchParams.get('granularity')).toBe('day');
    expect(screen.getByRole('button', { name: 'By day' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('says why there is no chart when no amount can be shown in the display currency (issue 25)', async () => {
    const pledgesWithoutCurrency = answer('month');
    pledgesWithoutCurrency.periods[0]!.lines = [{ source: 'patreon_pledges', connectionId: 2, account: 'maya', original: { currency: null, amount: 54.7 }, converted: null }];
    pledgesWithoutCurrency.totals.unconverted = [{ currency: null, amount: 54.7 }];
    mockServer(() => ({ status: 200, body: pledgesWithoutCurrency }));
    renderPage();
    expect(await screen.findByText('Nothing to chart: no amount in this period can be shown in USD.')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Income by month and source/ })).toBeNull();
    expect(screen.getByText(/Not in the chart \(no rate or no currency set\)/)).toBeTruthy();
  });

  it("asks the currency of a Patreon campaign whose pledges named none until the creator answers, then counts its pledges", async () => {
    const patreon = platformConnection({ id: 5, platformId: 6, platformName: 'Patreon', platform: 'patreon', platformUsername: 'theo', currency: null, lastSyncedAt: '2026-11-02T09:00:00.000Z' });
    const calls = mockServer(() => ({ status: 200, body: answer('month') }), [patreon, platformConnection({ id: 6, lastSyncedAt: '2026-11-02T09:00:00.000Z' })]);
    renderPage();
    const banner = (await screen.findByText('Which currency does your Patreon campaign @theo charge in?')).closest('[role="status"]') as HTMLElement;
    expect(banner.textContent).toContain('Its pledges are not in your totals until you choose');
    await screen.findByTestId('income-currency-note');
    const asked = calls.length;
    fireEvent.change(within(banner).getByLabelText(/Campaign currency/), { target: { value: 'EUR' } });
    await eventually(() => expect(screen.queryByText('Which currency does your Patreon campaign @theo charge in?')).toBeNull());
    // The income is read again: its totals now count the campaign.
    await eventually(() => expect(calls.length).toBeGreaterThan(asked));
  });

  it('asks nothing when every campaign has its currency, or has not finished its first sync', async () => {
    mockServer(() => ({ status: 200, body: answer('month') }), [
      platformConnection({ id: 5, platform: 'patreon', platformName: 'Patreon', currency: 'EUR', lastSyncedAt: '2026-11-02T09:00:00.000Z' }),
      platformConnection({ id: 7, platform: 'patreon', platformName: 'Patreon', currency: null, lastSyncedAt: null }),
    ]);
    renderPage();
    await screen.findByTestId('income-currency-note');
    expect(screen.queryByText(/Which currency does your Patreon campaign/)).toBeNull();
  });

  it('says in words when nothing is connected, and when the call failed', async () => {
    mockServer(() => ({ status: 200, body: { ...answer('month'), hasIncomeSources: false, periods: [], shares: [], rates: [] } }));
    renderPage();
    expect(await screen.findByText('No income sources connected')).toBeTruthy();
    cleanup();
    mockServer(() => ({ status: 500, body: { message: 'The server had a problem.', code: 'internal' } }));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Your income could not be loaded.');
  });
});
