import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONVERSION_NOTE, type PatronConversionResponse, type UploadConversion } from '#contract/patron-conversion.ts';
import { CONVERSION_PAGE_SIZE, PatronConversionPanel } from './patron-conversion-panel';

type Reply = { status: number; body?: unknown };

function mockServer(reply: () => Reply | Promise<Reply>) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      calls.push(url);
      const answer = url.pathname === '/api/income/patron-conversion' ? await reply() : { status: 404, body: { message: 'No route' } };
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const row = (overrides: Partial<UploadConversion>): UploadConversion => ({
  contentItemId: 1,
  platform: 'youtube',
  title: 'Ten-minute ramen',
  url: 'https://www.youtube.com/watch?v=abc',
  publishedAt: '2026-06-10T18:00:00.000Z',
  windowStart: '2026-06-10',
  windowEnd: '2026-06-16',
  daysCounted: 7,
  newPatrons: 12,
  status: 'estimated',
  estimate: { expected: 5.6, extra: 6.4, extraLow: 0.6, extraHigh: 15.4, baselineRate: 0.8, baselineDays: 61, baselineJoins: 49, baselineKind: 'quiet_days' },
  ...overrides,
});

const answer = (overrides: Partial<PatronConversionResponse> = {}): PatronConversionResponse => ({
  startDate: '2026-06-01',
  endDate: '2026-06-30',
  patreonConnected: true,
  note: CONVERSION_NOTE,
  uploads: [
    row({}),
    row({ contentItemId: 2, title: 'Quiet soup', windowStart: '2026-06-03', newPatrons: 1, status: 'not_enough_joins', estimate: null }),
    row({ contentItemId: 3, title: 'Same-day short', url: null, windowStart: '2026-06-10', daysCounted: 0, newPatrons: 0, status: 'overlapped', estimate: null }),
  ],
  ...overrides,
});

function renderPanel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <PatronConversionPanel startDate="2026-06-01" endDate="2026-06-30" />
    </QueryClientProvider>,
  );
}

beforeEach(() => window.localStorage.setItem('auth_token', 'token-123'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('PatronConversionPanel', () => {
  it('loads, then shows each upload with its joins, expected joins and the extra with its interval, marked estimated and correlational', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockServer(async () => {
      await gate;
      return { status: 200, body: answer() };
    });
    renderPanel();
    expect((await screen.findByRole('status')).textContent).toBe('Loading the patron conversion...');
    release();

    const table = await screen.findByRole('table');
    expect(calls[0]!.searchParams.get('startDate')).toBe('2026-06-01');
    expect(calls[0]!.searchParams.get('endDate')).toBe('2026-06-30');
    expect(screen.getByText(/^Estimated, correlational: new patrons in the 7 days/)).toBeTruthy();
    expect(screen.getByText(/1 of 3 uploads have enough joins/)).toBeTruthy();
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Upload', 'Date', 'New patrons in 7 days', 'Expected', 'Extra (95 % interval)']);

    const estimated = within(table).getByRole('row', { name: /Ten-minute ramen/ });
    const cells = within(estimated).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(['Jun 10, 2026', '12', '5.6', '+6.4 (95 % CI +0.6 to +15.4)Estimated, correlational']);
    expect(within(estimated).getByRole('link', { name: 'Ten-minute ramen' }).getAttribute('href')).toBe('https://www.youtube.com/watch?v=abc');

    // Hidden estimates are words, never numbers.
    const hidden = within(table).getByRole('row', { name: /Quiet soup/ });
    expect(within(hidden).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Jun 3, 2026', '1', '—Not estimated', 'Not enough joins']);
    // The uploads followed by new patrons first; the others one tick away.
    expect(screen.getByText(/^2 of 3 uploads were followed by new patrons within 7 days; 1 brought more than your usual rate/)).toBeTruthy();
    expect(within(table).queryByRole('row', { name: /Same-day short/ })).toBeNull();
    expect(screen.getByText('Showing 1–2 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show every upload (3)' }));
    const overlapped = within(screen.getByRole('table')).getByRole('row', { name: /Same-day short/ });
    expect(within(overlapped).getAllByRole('cell').at(-1)!.textContent).toBe('Counted with an earlier upload');
    // The table scrolls sideways at 390 px, and the region can be reached by keyboard.
    expect(screen.getByRole('region', { name: /Estimated, correlational/ }).getAttribute('tabindex')).toBe('0');
  });

  it('pages a long period ten uploads at a time', async () => {
    const uploads = Array.from({ length: 23 }, (_, index) =>
      row({ contentItemId: index + 1, title: `Upload ${index + 1}`, newPatrons: index % 2 === 0 ? 3 : 0, status: 'not_enough_joins', estimate: null }),
    );
    mockServer(() => ({ status: 200, body: answer({ uploads }) }));
    renderPanel();
    const table = await screen.findByRole('table');
    // Twelve of the 23 were followed by a join: two pages of them.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + CONVERSION_PAGE_SIZE);
    expect(screen.getByText('Showing 1–10 of 12')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Patron conversion pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Showing 11–12 of 12')).toBeTruthy();
    expect(within(screen.getByRole('table')).getByRole('row', { name: /Upload 23/ })).toBeTruthy();
    expect(within(pages).getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    // Every upload: back to the first page, three pages now.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show every upload (23)' }));
    expect(screen.getByText('Showing 1–10 of 23')).toBeTruthy();
    expect(within(pages).getByText('Page 1 of 3')).toBeTruthy();
  });

  it('says when no Patreon is connected and when the period has no uploads', async () => {
    mockServer(() => ({ status: 200, body: answer({ patreonConnected: false, uploads: [] }) }));
    renderPanel();
    expect(await screen.findByText('No Patreon connected')).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    mockServer(() => ({ status: 200, body: answer({ uploads: [] }) }));
    renderPanel();
    expect(await screen.findByText('No uploads in this period')).toBeTruthy();
  });

  it('says when it could not load, and tries again', async () => {
    let fail = true;
    const calls = mockServer(() => (fail ? { status: 500, body: { message: 'Internal error' } } : { status: 200, body: answer() }));
    renderPanel();
    expect(await screen.findByText('The patron conversion could not be loaded.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });
});
