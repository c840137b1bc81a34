import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, useSearchParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { benchmarkAges, benchmarkFigure, contentPage, contentPost } from '../../../test/factories';
import { postsStateFromSearchParams, searchParamsWithPosts } from '../utils/posts-table-state';
import { PostsPanel } from './posts-panel';

type Reply = { status: number; body?: unknown };

/** GET /api/content answered by `reply`; every request's path and query is kept. */
function mockServer(reply: (url: URL) => Reply | Promise<Reply>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      calls.push(`${url.pathname}${url.search}`);
      if (url.pathname === '/api/content/export') {
        return new Response('\uFEFFPost ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="analytics-hub-posts-2026-11-22.csv"' } });
      }
      const answer = await reply(url);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** The panel as the Analytics page holds it: its state in the URL. */
function Harness() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  return (
    <>
      <PostsPanel
        state={postsStateFromSearchParams(searchParams)}
        onChange={(change) => {
          const next = searchParamsWithPosts(searchParams, change);
          if (next) setSearchParams(next);
        }}
      />
      <output data-testid="location">{location.search}</output>
    </>
  );
}

function renderPanel(path = '/analytics') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Harness />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const search = () => screen.getByTestId('location').textContent;
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

const posts = [
  contentPost(),
  contentPost({
    id: 502,
    platform: 'youtube',
    account: { connectionId: 8, name: 'Maya on YouTube', username: null },
    title: null,
    url: null,
    views: null,
    engagements: 12,
    benchmarks: benchmarkAges({ '24h': { views: benchmarkFigure({ status: 'notEnough', value: 40, n: 6 }), engagements: benchmarkFigure({ status: 'notEnough', value: 3, n: 6 }) }, '7d': { views: benchmarkFigure(), engagements: benchmarkFigure() } }),
  }),
];

beforeEach(() => {
  window.localStorage.setItem('auth_token', 'token-123');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('PostsPanel', () => {
  it('holds the table’s place while loading, then shows each post with its counts and how it compares', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockServer(async () => {
      await gate;
      return { status: 200, body: contentPage(posts) };
    });
    renderPanel();
    expect(screen.getByText('Loading posts...').getAttribute('role')).toBe('status');
    release();

    const table = await screen.findByRole('table', { name: 'Posts, sorted by published date, descending, page 1 of 1' });
    expect(calls).toEqual(['/api/content?sort=publishedAt&order=desc&page=1&pageSize=10']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(header('Post').getAttribute('aria-sort')).toBe('descending');
    expect(header('Views').getAttribute('aria-sort')).toBeNull();

    const first = rows[1]!;
    const link = within(first).getByRole('link', { name: /^Street food in Porto,\s?opens on TikTok$/ });
    expect(link.getAttribute('href')).toBe('https://www.tiktok.com/@maya/video/501');
    expect(first.textContent).toContain('TikTok · @maya · Nov 12, 2026');
    expect(within(first).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '48.2K',
      '3.5K',
      '2.1× your typical at 7 days (n = 50)Views; higher than 92% of the posts compared',
    ]);
    // No title, no link, no views: said in words; no number anywhere, so why not.
    const second = rows[2]!;
    expect(within(second).getByRole('rowheader').textContent).toContain('Untitled post');
    expect(within(second).queryByRole('link')).toBeNull();
    expect(within(second).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['—Not reported', '12', 'Not enough posts to compare at 24 hours (6 of 10 needed)']);
    expect(screen.getByText('Showing 1–2 of 2 posts', { exact: false })).toBeTruthy();
  });

  it('sorts by a column header on the server, flipping the order on a second click, and keeps it in the URL', async () => {
    const calls = mockServer(() => ({ status: 200, body: contentPage(posts, { total: 25 }) }));
    renderPanel('/analytics?days=30&postsPage=2');
    await screen.findByRole('table');
    fireEvent.click(within(header('Views')).getByRole('button'));
    await screen.findByRole('table', { name: /sorted by views, descending, page 1 of 3/ });
    expect(search()).toBe('?days=30&postsSort=views');
    expect(header('Views').getAttribute('aria-sort')).toBe('descending');
    expect(header('Post').getAttribute('aria-sort')).toBeNull();
    fireEvent.click(within(header('Views')).getByRole('button'));
    await screen.findByRole('table', { name: /sorted by views, ascending/ });
    expect(header('Views').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header('vs your typical')).getByRole('button'));
    await screen.findByRole('table', { name: /sorted by comparison with your typical post, descending/ });
    expect(calls).toEqual([
      '/api/content?sort=publishedAt&order=desc&page=2&pageSize=10',
      '/api/content?sort=views&order=desc&page=1&pageSize=10',
      '/api/content?sort=views&order=asc&page=1&pageSize=10',
      '/api/content?sort=typical&order=desc&page=1&pageSize=10',
    ]);
    expect(search()).toBe('?days=30&postsSort=typical');
  });

  it('filters by one of the user’s platforms and exports what the table shows as CSV', async () => {
    const calls = mockServer(() => ({ status: 200, body: contentPage(posts) }));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:posts', revokeObjectURL: () => {} }));
    renderPanel();
    await screen.findByRole('table');
    const select = screen.getByRole('combobox', { name: 'Show posts from' });
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['All platforms', 'YouTube', 'TikTok']);
    fireEvent.change(select, { target: { value: 'tiktok' } });
    expect(search()).toBe('?postsPlatform=tiktok');
    await waitFor(() => expect(calls.at(-1)).toBe('/api/content?sort=publishedAt&order=desc&platform=tiktok&page=1&pageSize=10'));

    fireEvent.click(within(screen.getByRole('group', { name: 'Export posts' })).getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Downloaded analytics-hub-posts-2026-11-22.csv')).toBeTruthy();
    expect(calls.at(-1)).toBe('/api/content/export?sort=publishedAt&order=desc&platform=tiktok&format=csv');
  });

  it('says there are no posts yet and where to connect a platform', async () => {
    mockServer(() => ({ status: 200, body: contentPage([], { platforms: [] }) }));
    renderPanel();
    expect(await screen.findByText('No posts yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect a platform' }).getAttribute('href')).toBe('/platforms');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says what LinkedIn and Patreon do not give, not "sync it", when they are all the user has (issue 24)', async () => {
    mockServer(() => ({ status: 200, body: contentPage([], { platforms: ['linkedin', 'patreon'] }) }));
    renderPanel();
    expect(await screen.findByText('No posts to show')).toBeTruthy();
    expect(screen.getByText(/^LinkedIn does not let apps read a member's posts one by one.*Members and pledges are on the Income page\.$/)).toBeTruthy();
    expect(screen.queryByText(/Sync it/)).toBeNull();
  });

  it('says what LinkedIn does not give when its filter is empty', async () => {
    mockServer((url) => ({ status: 200, body: contentPage(url.searchParams.has('platform') ? [] : posts, { platforms: ['youtube', 'linkedin'] }) }));
    renderPanel('/analytics?postsPlatform=linkedin');
    expect(await screen.findByText(/^LinkedIn does not let apps read a member's posts one by one/)).toBeTruthy();
  });

  it('says when a platform has no posts, and goes back to every platform', async () => {
    mockServer((url) => ({ status: 200, body: contentPage(url.searchParams.has('platform') ? [] : posts) }));
    renderPanel('/analytics?postsPlatform=youtube');
    expect(await screen.findByText('No posts from YouTube yet. Sync it on the Platforms page.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show every platform' }));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(search()).toBe('');
  });

  it('says in words when the posts could not be loaded, and tries again', async () => {
    let failing = true;
    mockServer(() => (failing ? { status: 500, body: { message: 'Internal error', code: 'internal' } } : { status: 200, body: contentPage(posts) }));
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toContain("Couldn't load your posts. Check your connection and try again.");
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });
});
