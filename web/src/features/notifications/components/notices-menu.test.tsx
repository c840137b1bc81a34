import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#contract/notifications.ts';
import { setAuthToken } from '../../../lib/auth-token';
import { NoticesMenu } from './notices-menu';

const reconnectNotice: Notification = {
  id: 11,
  kind: 'reconnect',
  title: 'Reconnect Twitter @maya_x',
  body: 'Twitter no longer accepts this connection. Connect it again. Syncing is stopped until you reconnect.',
  connectionId: 4,
  platform: 'twitter',
  url: null,
  createdAt: '2026-11-02T10:00:00.000Z',
  readAt: null,
};
const oldNotice: Notification = { ...reconnectNotice, id: 9, title: 'Reconnect TikTok @maya', platform: 'tiktok', readAt: '2026-11-01T10:00:00.000Z' };

function stubServer() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      calls.push(key);
      const body =
        key === 'GET /api/notifications'
          ? { notifications: [reconnectNotice, oldNotice], unreadCount: 1 }
          : key === 'POST /api/notifications/11/read'
            ? { notification: { ...reconnectNotice, readAt: '2026-11-02T11:00:00.000Z' }, unreadCount: 0 }
            : { message: 'not found', code: 'not_found' };
      return new Response(JSON.stringify(body), { status: key.startsWith('GET /api/notifications') || key.endsWith('/read') ? 200 : 404, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderMenu(onReconnect = vi.fn(async () => {})) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <NoticesMenu onReconnect={onReconnect} />
      <p>Elsewhere</p>
    </QueryClientProvider>,
  );
  return onReconnect;
}

beforeEach(() => setAuthToken('session-token'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('NoticesMenu', () => {
  it('names the unread count on its button and lists the notices when opened; Escape closes it and returns focus', async () => {
    stubServer();
    renderMenu();
    const button = await screen.findByRole('button', { name: 'Notices, 1 unread' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Notices' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('(unread)');
    expect(items[1]!.textContent).not.toContain('(unread)');
    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Notices' })).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('marks a notice read and counts it down', async () => {
    const calls = stubServer();
    renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Notices, 1 unread' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mark read: Reconnect Twitter @maya_x' }));
    expect(await screen.findByRole('button', { name: 'Notices, none unread' })).toBeTruthy();
    expect(calls).toContain('POST /api/notifications/11/read');
    expect(screen.queryByRole('button', { name: /Mark read/ })).toBeNull();
  });

  it("the reconnect button starts that platform's reconnect", async () => {
    stubServer();
    const onReconnect = renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Notices, 1 unread' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reconnect TikTok @maya' }));
    await waitFor(() => expect(onReconnect).toHaveBeenCalledWith('tiktok'));
    expect(await screen.findByText('Connecting...')).toBeTruthy();
  });

  it('a top post notice links to the post on its platform, in a new tab', async () => {
    const topPost: Notification = {
      ...reconnectNotice,
      id: 12,
      kind: 'topPost',
      title: '“My best take” is in your top 10 %',
      body: '“My best take” is in your top 10 % of TikTok videos at 24 hours: 2.4× your typical (n = 50).',
      platform: 'tiktok',
      url: 'https://www.tiktok.com/@maya/video/7380080137682881835',
    };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ notifications: [topPost], unreadCount: 1 }), { status: 200, headers: { 'Content-Type': 'application/json' } })));
    renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Notices, 1 unread' }));
    const link = screen.getByRole('link', { name: 'Open the post: “My best take” is in your top 10 % (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe(topPost.url);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('button', { name: /Reconnect/ })).toBeNull();
  });
});
