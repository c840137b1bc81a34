import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bestTimesAnswer, platformConnection } from '../../../test/factories';
import { BestTimesPanel } from './best-times-panel';

type Reply = { status: number; body?: unknown };

/** Answers by path; every request's path and query are kept. */
function mockServer(handlers: Record<string, Reply | ((url: URL) => Reply | Promise<Reply>)>) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      calls.push(url);
      const handler = handlers[url.pathname];
      const reply = !handler ? { status: 404, body: { message: 'No route' } } : typeof handler === 'function' ? await handler(url) : handler;
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderPanel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <BestTimesPanel />
    </QueryClientProvider>,
  );
}

beforeEach(() => window.localStorage.setItem('auth_token', 'token-123'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('BestTimesPanel', () => {
  it("loads, then draws the grid in the browser's zone, navigable by arrow keys with each hour named", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockServer({
      '/api/platformconnections': { status: 200, body: [platformConnection({ id: 4 }), platformConnection({ id: 9, platform: 'tiktok', platformName: 'TikTok', displayName: 'Maya on TikTok' })] },
      '/api/analytics/best-times': async () => {
        await gate;
        return { status: 200, body: bestTimesAnswer() };
      },
    });
    renderPanel();
    expect((await screen.findByRole('status')).textContent).toBe('Loading the best time to post...');
    release();

    const grid = await screen.findByRole('grid', { name: /Views against your typical post by weekday and hour, Europe\/Paris/ });
    const request = calls.find((url) => url.pathname === '/api/analytics/best-times')!;
    expect(request.searchParams.get('connectionId')).toBe('4');
    expect(request.searchParams.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    // One hour is in the tab order: the best slot.
    const focusable = within(grid).getAllByRole('gridcell').filter((cell) => cell.tabIndex === 0);
    expect(focusable.map((cell) => cell.getAttribute('aria-label'))).toEqual(['Tuesday 18:00–19:00: 1.4× typical, 6 posts']);
    focusable[0]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Tuesday 19:00–20:00: no posts');
    expect(document.activeElement?.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Sunday 18:00–19:00: no posts');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Sunday 23:00–00:00: no posts');
    expect(within(grid).getByRole('gridcell', { name: 'Sunday 20:00–21:00: too few posts to say (2 posts)' })).toBeTruthy();

    expect(
      screen.getByText(
        /Posts over 28 days old: their lifetime views against the 30 posts published nearest to them \(36 posts\)\. Other posts: views at 7 days against your typical post at 7 days \(4\), or at 24 hours where they are younger \(2\)\./,
      ),
    ).toBeTruthy();
    expect(screen.getByText('Tuesday 18:00–19:00: 1.4× typical (likely 1.1× to 2.0×, 6 posts)')).toBeTruthy();
    expect(screen.getByText('Friday 09:00–10:00: 0.6× typical (likely 0.3× to 0.9×, 5 posts)')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Colour key' })).getByText('2× or more')).toBeTruthy();

    // The same figures as a table.
    fireEvent.click(screen.getByRole('button', { name: 'Show as a table' }));
    const table = screen.getByRole('table', { name: 'Hours with posts, Europe/Paris' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'HourMedian against typicalPosts',
      'Tuesday 18:00–19:00' + '1.4×6',
      'Friday 09:00–10:00' + '0.6×5',
      'Sunday 20:00–21:00' + 'Too few posts2',
    ]);
    expect(screen.getByRole('button', { name: 'Hide the table' }).getAttribute('aria-expanded')).toBe('true');

    // Another account.
    fireEvent.change(screen.getByRole('combobox', { name: 'Account' }), { target: { value: '9' } });
    await screen.findByRole('grid');
    expect(calls.filter((url) => url.pathname === '/api/analytics/best-times').map((url) => url.searchParams.get('connectionId'))).toEqual(['4', '9']);
  });

  it('says how many posts are missing, and explains an error in words with a retry', async () => {
    mockServer({
      '/api/platformconnections': { status: 200, body: [platformConnection({ id: 4 })] },
      '/api/analytics/best-times': { status: 200, body: bestTimesAnswer({ status: 'notEnoughPosts', posts: 12, cells: [], top: [] }) },
    });
    renderPanel();
    expect(await screen.findByText('Not enough posts yet (12 of 30)')).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
    cleanup();

    let fail = true;
    mockServer({
      '/api/platformconnections': { status: 200, body: [platformConnection({ id: 4 })] },
      '/api/analytics/best-times': () => (fail ? { status: 500, body: { message: 'Something went wrong' } } : { status: 200, body: bestTimesAnswer() }),
    });
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toContain('The best time to post could not be loaded.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('grid')).toBeTruthy();
  });

  it('asks for a connection when there is none', async () => {
    mockServer({ '/api/platformconnections': { status: 200, body: [] } });
    renderPanel();
    expect(await screen.findByText('Connect a platform to see when your posts do best.')).toBeTruthy();
  });
});
