import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { eventually } from '../../../test/eventually';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Platform } from '#contract/platforms.ts';
import { assignLocation } from '../../../lib/browser';
import { PlatformsPage } from './platforms-page';
import { connectionSyncStatus, platformConnection } from '../../../test/factories';
import { formatTimeOfDay } from '../utils/connection-display';

vi.mock('../../../lib/browser', () => ({ assignLocation: vi.fn(), openInNewTab: vi.fn() }));

const platforms: Platform[] = [
  { id: 1, key: 'youtube', name: 'YouTube', description: 'Channel subscribers and views', available: true, supportsManualConnect: true },
  { id: 2, key: 'instagram', name: 'Instagram', description: 'Followers and insights', available: false, supportsManualConnect: false },
  { id: 4, key: 'twitter', name: 'Twitter', description: 'Followers on X', available: true, supportsManualConnect: true },
  { id: 6, key: 'patreon', name: 'Patreon', description: 'Patrons and revenue', available: true, supportsManualConnect: false },
];

const connection = platformConnection;

type Reply = { status: number; body?: unknown };
type Handler = Reply | (() => Reply | Promise<Reply>);

/** Answers by "METHOD /path"; records every request. */
function mockServer(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const key = `${init.method ?? 'GET'} ${input}`;
      calls.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const handler = handlers[key];
      if (!handler) return new Response(JSON.stringify({ message: `No route ${key}` }), { status: 404 });
      const reply = typeof handler === 'function' ? await handler() : handler;
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return {
    calls,
    count: (key: string) => calls.filter((call) => call.key === key).length,
  };
}

function deferred() {
  let resolve!: (reply: Reply) => void;
  const promise = new Promise<Reply>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function renderPage(state?: unknown) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname: '/platforms', state }]}>
        <PlatformsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The card of one platform in the Available Platforms grid, once the grid has loaded. */
async function platformCard(name: string): Promise<HTMLElement> {
  const grid = (await screen.findByRole('heading', { name: 'Available Platforms' })).closest('section')!;
  return (await within(grid).findByRole('heading', { name, level: 3 })).closest('li')!;
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
  vi.mocked(assignLocation).mockClear();
  consoleError.mockRestore();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

const base = {
  'GET /api/platforms': { status: 200, body: platforms },
  'GET /api/sync/status': { status: 200, body: [] },
};

describe('PlatformsPage', () => {
  it("shows the empty state 'No platforms connected' and every platform to connect", async () => {
    mockServer({ ...base, 'GET /api/platformconnections': { status: 200, body: [] } });
    renderPage();
    expect(await screen.findByText('No platforms connected')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Available Platforms' })).toBeTruthy();
    for (const name of ['YouTube', 'Twitter', 'Patreon']) {
      expect(within(await platformCard(name)).getByRole('button', { name: `Connect ${name}` })).toHaveProperty('disabled', false);
    }
    const instagram = within(await platformCard('Instagram')).getByRole('button', { name: 'Connect Instagram' });
    expect(instagram).toHaveProperty('disabled', true);
    expect(within(await platformCard('Instagram')).getByText(/Not available/)).toBeTruthy();
  });

  it('connects: asks for the authorization address, remembers the platform and sends the browser there', async () => {
    const authUrl = deferred();
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [] },
      'GET /api/oauth/youtube/auth-url': () => authUrl.promise,
    });
    renderPage();
    await screen.findByText('No platforms connected');
    fireEvent.click(within(await platformCard('YouTube')).getByRole('button', { name: 'Connect YouTube' }));
    expect(await within(await platformCard('YouTube')).findByRole('button', { name: 'Connecting...' })).toHaveProperty('disabled', true);
    expect(server.count('GET /api/oauth/youtube/auth-url')).toBe(1);
    expect(assignLocation).not.toHaveBeenCalled();

    authUrl.resolve({ status: 200, body: { authUrl: 'https://accounts.google.com/o/oauth2/v2/auth?state=s' } });
    await eventually(() => expect(assignLocation).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=s'));
    expect(window.sessionStorage.getItem('oauth_platform')).toBe('youtube');
    // The browser is leaving: the button keeps saying so.
    expect(within(await platformCard('YouTube')).getByRole('button', { name: 'Connecting...' })).toBeTruthy();
  });

  it('shows and logs a failed connect without leaving the page', async () => {
    mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [] },
      'GET /api/oauth/patreon/auth-url': { status: 503, body: { message: 'Patreon is not answering.' } },
    });
    renderPage();
    await screen.findByText('No platforms connected');
    fireEvent.click(within(await platformCard('Patreon')).getByRole('button', { name: 'Connect Patreon' }));
    expect((await within(await platformCard('Patreon')).findByRole('alert')).textContent).toBe(
      "Couldn't start connecting Patreon. Patreon is not answering.",
    );
    expect(consoleError).toHaveBeenCalled();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("lists connected accounts with handle, date and the platform's follower label", async () => {
    mockServer({
      ...base,
      'GET /api/platformconnections': {
        status: 200,
        body: [
          connection({}),
          connection({
            id: 5,
            platformId: 6,
            platformName: 'Patreon',
            platform: 'patreon',
            platformUsername: null,
            platformUserId: 'patreon-991',
            displayName: null,
            followers: 87,
            lastSyncedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
          }),
          connection({
            id: 6,
            platformId: 4,
            platformName: 'Twitter',
            platform: 'twitter',
            platformUsername: 'maya_x',
            followers: 2_480,
            needsReconnect: true,
          }),
        ],
      },
    });
    renderPage();
    // The screen is drawn whole once its calls have answered (no layout shift): the section to read is the final one.
    await eventually(() => expect(screen.queryByText('Loading connected accounts...')).toBeNull());
    const accounts = screen.getByRole('heading', { name: 'Connected Accounts' }).closest('section')!;
    const rows = await within(accounts).findAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Maya Creates · @maya');
    expect(rows[0]!.textContent).toContain('Connected Mar 1, 2026 · 12.3K subscribers');
    expect(rows[0]!.textContent).toContain('Not synced yet');
    expect(rows[1]!.textContent).toContain('patreon-991');
    expect(rows[1]!.textContent).toContain('87 patrons');
    expect(rows[1]!.textContent).toContain('Last synced 5 minutes ago');
    expect(rows[2]!.textContent).toContain('2.5K followers');
    expect(within(rows[2]!).getByText('Needs reconnection')).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Reconnect Twitter @maya_x' })).toBeTruthy();
    expect(within(rows[0]!).queryByRole('button', { name: /Reconnect/ })).toBeNull();

    // "Connected" is a status, never a button; disconnecting is its own button.
    for (const name of ['YouTube', 'Patreon']) {
      const card = await platformCard(name);
      expect(within(card).getByText('Connected')).toBeTruthy();
      expect(within(card).queryByRole('button', { name: /^Connected/ })).toBeNull();
      expect(within(card).getByRole('button', { name: `Disconnect ${name}` })).toBeTruthy();
    }
  });

  it('says which numbers a declined TikTok permission leaves out, and offers to ask again without forcing it', async () => {
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': {
        status: 200,
        body: [
          connection({
            id: 7,
            platformId: 3,
            platformName: 'TikTok',
            platform: 'tiktok',
            platformUsername: 'maya_tt',
            followers: null,
            missingPermissions: [
              { permission: 'user.info.stats', label: 'Read your profile statistics', provides: ['followers'] },
              { permission: 'video.list', label: 'Read your public videos', provides: ['videos', 'views'] },
            ],
          }),
        ],
      },
      'GET /api/oauth/tiktok/auth-url': { status: 200, body: { authUrl: 'https://www.tiktok.com/v2/auth/authorize/?state=t' } },
    });
    renderPage();
    // The screen is drawn whole once its calls have answered (no layout shift): the section to read is the final one.
    await eventually(() => expect(screen.queryByText('Loading connected accounts...')).toBeNull());
    const accounts = screen.getByRole('heading', { name: 'Connected Accounts' }).closest('section')!;
    const [row] = await within(accounts).findAllByRole('listitem');
    expect(row!.textContent).toContain('Followers not available');
    expect(row!.textContent).toContain('Not shared by TikTok: followers, videos and views.');
    expect(row!.textContent).toContain('followers: allow “Read your profile statistics” (user.info.stats)');
    expect(row!.textContent).toContain('videos and views: allow “Read your public videos” (video.list)');
    expect(within(row!).queryByText('Needs reconnection')).toBeNull();
    fireEvent.click(within(row!).getByRole('button', { name: 'Allow more permissions for TikTok @maya_tt' }));
    await eventually(() => expect(assignLocation).toHaveBeenCalledWith('https://www.tiktok.com/v2/auth/authorize/?state=t'));
    expect(server.count('GET /api/oauth/tiktok/auth-url')).toBe(1);
  });

  it("lets the creator choose a Patreon campaign's currency when its pledges on Patreon named none", async () => {
    let currency: string | null = null;
    const patreon = () => connection({ id: 5, platformId: 6, platformName: 'Patreon', platform: 'patreon', platformUsername: null, platformUserId: 'patreon-991', followers: 87, currency, lastSyncedAt: '2026-11-02T09:00:00.000Z' });
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({ status: 200, body: [patreon()] }),
      'PATCH /api/platformconnections/5': () => {
        currency = 'EUR';
        return { status: 200, body: patreon() };
      },
    });
    renderPage();
    const select = (await screen.findByLabelText(/Campaign currency/)) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(screen.getByText(/did not say which currency your campaign charges in\. Choose it and your pledges are counted in your totals\./)).toBeTruthy();
    fireEvent.change(select, { target: { value: 'EUR' } });
    await eventually(() => expect(screen.getByText(/Pledges are counted in EUR\. If your campaign charges in another currency, choose it here\./)).toBeTruthy());
    expect(server.calls.find((call) => call.key === 'PATCH /api/platformconnections/5')?.body).toEqual({ currency: 'EUR' });
    expect(((await screen.findByLabelText(/Campaign currency/)) as HTMLSelectElement).value).toBe('EUR');
  });

  it("disconnects a platform only after a confirmation naming the account and what is deleted, saying 'Disconnecting...' meanwhile", async () => {
    const disconnect = deferred();
    let connected = true;
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({ status: 200, body: connected ? [connection({})] : [] }),
      'DELETE /api/oauth/youtube/disconnect': () => disconnect.promise,
    });
    renderPage();
    fireEvent.click(await within(await platformCard('YouTube')).findByRole('button', { name: 'Disconnect YouTube' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect YouTube?' });
    expect(dialog.textContent).toContain('This disconnects Maya Creates (@maya) from Analytics Hub and deletes what we stored for it right away');
    expect(dialog.textContent).toContain('It cannot be undone.');
    // Keeping it sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep connected' }));
    expect(server.count('DELETE /api/oauth/youtube/disconnect')).toBe(0);

    fireEvent.click(within(await platformCard('YouTube')).getByRole('button', { name: 'Disconnect YouTube' }));
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Disconnect YouTube?' })).getByRole('button', { name: 'Disconnect' }));
    // The dialog stays while the call runs, saying so; the card's Disconnect waits too.
    expect(await screen.findByRole('button', { name: 'Disconnecting...' })).toHaveProperty('disabled', true);
    expect(within(await platformCard('YouTube')).getByRole('button', { name: 'Disconnect YouTube' })).toHaveProperty('disabled', true);
    connected = false;
    disconnect.resolve({ status: 200, body: { message: 'Disconnected', disconnected: 1 } });
    expect(await screen.findByText('No platforms connected')).toBeTruthy();
    expect(within(await platformCard('YouTube')).getByRole('button', { name: 'Connect YouTube' })).toBeTruthy();
    expect(server.count('DELETE /api/oauth/youtube/disconnect')).toBe(1);
    expect(server.count('GET /api/platformconnections')).toBe(2);
  });

  it('disconnects one account from its row after a confirmation, and reports a failure inline', async () => {
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [connection({})] },
      'DELETE /api/platformconnections/4': { status: 500, body: { message: 'Something went wrong on our side.' } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect YouTube @maya' }));
    expect(server.count('DELETE /api/platformconnections/4')).toBe(0);
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect YouTube?' });
    expect(dialog.textContent).toContain('This disconnects Maya Creates (@maya)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect((await screen.findByRole('alert')).textContent).toBe("Couldn't disconnect @maya. Something went wrong on our side.");
    expect(server.count('DELETE /api/platformconnections/4')).toBe(1);
    expect(consoleError).toHaveBeenCalled();
  });

  it('syncs one account: spinner while it runs, connections reloaded 2 seconds later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [connection({})] },
      'POST /api/sync/platform/4': { status: 202, body: { connectionId: 4, status: 'idle', lastSyncedAt: null, message: null } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Sync YouTube @maya' }));
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toHaveProperty('disabled', true);
    await eventually(() => expect(server.count('POST /api/sync/platform/4')).toBe(1));
    expect(server.count('GET /api/platformconnections')).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(server.count('GET /api/platformconnections')).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await eventually(() => expect(server.count('GET /api/platformconnections')).toBe(2));
    expect(server.count('GET /api/sync/status')).toBe(2);
    expect(await screen.findByRole('button', { name: 'Sync YouTube @maya' })).toHaveProperty('disabled', false);
  });

  it('says when a failing sync last failed, why, and when it tries next, and that a stopped one waits for Sync', async () => {
    const now = Date.now();
    const lastFailedAt = new Date(now - 10 * 60_000).toISOString();
    const nextRunAt = new Date(now + 30 * 60_000).toISOString();
    mockServer({
      ...base,
      'GET /api/platformconnections': {
        status: 200,
        body: [connection({ syncStatus: 'queued' }), connection({ id: 5, platformId: 4, platform: 'twitter', platformName: 'X', platformUsername: 'theo', syncStatus: 'failed' })],
      },
      'GET /api/sync/status': {
        status: 200,
        body: [
          connectionSyncStatus({ status: 'queued', message: 'YouTube: The platform could not answer (HTTP 503).', attempts: 2, lastFailedAt, nextRunAt }),
          connectionSyncStatus({ connectionId: 5, platformName: 'X', status: 'failed', message: 'X sent a response we could not read (HTTP 200). Nothing was stored.', attempts: 1, lastFailedAt }),
        ],
      },
    });
    renderPage();
    const at = (iso: string) => formatTimeOfDay(iso, new Date());
    expect(
      await screen.findByText(`Last failed ${at(lastFailedAt)}: The platform could not answer (HTTP 503). Next try at ${at(nextRunAt)}.`),
    ).toBeTruthy();
    expect(screen.getByText('Stopped: X sent a response we could not read (HTTP 200). Nothing was stored. Press Sync to try again.')).toBeTruthy();
    // The buttons stay as they were.
    expect(screen.getByRole('button', { name: 'Sync X @theo' })).toHaveProperty('disabled', false);
  });

  it('says of a partial sync what is missing and when it is read again', async () => {
    const nextRunAt = new Date(Date.now() + 15 * 60_000).toISOString();
    mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [connection({ syncStatus: 'idle' })] },
      'GET /api/sync/status': {
        status: 200,
        body: [connectionSyncStatus({ status: 'idle', state: 'partial', missingParts: ['the posts list: The platform could not answer (HTTP 503)'], nextRunAt, lastSyncedAt: new Date().toISOString() })],
      },
    });
    renderPage();
    expect(await screen.findByText(`Partial: the posts list is missing, retrying at ${formatTimeOfDay(nextRunAt, new Date())}. The platform could not answer (HTTP 503).`)).toBeTruthy();
  });

  it('says in words what a sync stopped for the creator needs, and Retry runs the sync again', async () => {
    const action = 'Instagram needs a Business or Creator account for insights: switch it in the Instagram app (Settings › Account type and tools), then press Retry.';
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let retried = false;
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({ status: 200, body: [connection({ platform: 'instagram', platformName: 'Instagram', syncStatus: retried ? 'queued' : 'failed' })] }),
      'GET /api/sync/status': () => ({
        status: 200,
        body: [
          retried
            ? connectionSyncStatus({ platformName: 'Instagram', status: 'queued' })
            : connectionSyncStatus({ platformName: 'Instagram', status: 'failed', message: action, attempts: 1, lastFailedAt: new Date().toISOString(), action: { kind: 'needs_creator', message: action } }),
        ],
      }),
      'POST /api/sync/platform/4': () => {
        retried = true;
        return { status: 202, body: { connectionId: 4, jobId: '1', status: 'queued' } };
      },
    });
    renderPage();
    expect(await screen.findByText(action)).toBeTruthy();
    // Said once, not again as the row's trouble line.
    expect(screen.queryByText(/^Stopped:/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry Instagram @maya' }));
    await eventually(() => expect(server.count('POST /api/sync/platform/4')).toBe(1));
    await act(() => vi.advanceTimersByTimeAsync(2_100));
    await eventually(() => expect(screen.queryByText(action)).toBeNull());
  });

  it("after the OAuth callback: 'Successfully connected!', the first sync's progress, then the synced account", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let synced = false;
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({ status: 200, body: [connection(synced ? { lastSyncedAt: new Date().toISOString() } : { lastSyncedAt: null })] }),
      'GET /api/sync/status': () => ({
        status: 200,
        body: [connectionSyncStatus(synced ? { status: 'idle', lastSyncedAt: new Date().toISOString() } : { status: 'running', lastSyncedAt: null })],
      }),
    });
    renderPage({ connected: { connectionId: 4, name: 'YouTube', handle: '@maya' } });
    const banner = (await screen.findByText('Successfully connected!')).closest('[role="status"]') as HTMLElement;
    expect(banner.textContent).toContain('Your YouTube account @maya is connected. Its first sync is running now');
    expect(await screen.findByText('First sync in progress...')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Syncing...' })).toHaveProperty('disabled', true);
    // Disconnecting stays possible while the sync runs.
    expect(screen.getByRole('button', { name: 'Disconnect YouTube @maya' })).toHaveProperty('disabled', false);

    // Polled every second while it runs; once it is over, the accounts are read again.
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    expect(server.count('GET /api/sync/status')).toBe(2);
    synced = true;
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await eventually(() => expect(banner.textContent).toContain('Its first sync is done: its numbers are on the Dashboard.'));
    await eventually(() => expect(server.count('GET /api/platformconnections')).toBe(2));
    expect(await screen.findByText('Last synced just now')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sync YouTube @maya' })).toHaveProperty('disabled', false);
    const polls = server.count('GET /api/sync/status');
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(server.count('GET /api/sync/status')).toBe(polls);

    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await eventually(() => expect(screen.queryByText('Successfully connected!')).toBeNull());
  });

  it("after connecting Patreon: the first sync reads the campaign's currency; when Patreon named none, the connect result asks it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let phase: 'syncing' | 'named' | 'unnamed' = 'syncing';
    let chosen: string | null = null;
    const patreon = () =>
      connection({
        id: 5,
        platformId: 6,
        platformName: 'Patreon',
        platform: 'patreon',
        platformUsername: 'theo',
        lastSyncedAt: phase === 'syncing' ? null : '2026-11-02T09:00:00.000Z',
        currency: chosen ?? (phase === 'named' ? 'EUR' : null),
      });
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({ status: 200, body: [patreon()] }),
      'GET /api/sync/status': () => ({
        status: 200,
        body: [connectionSyncStatus({ connectionId: 5, platformName: 'Patreon', ...(phase === 'syncing' ? { status: 'running', lastSyncedAt: null } : { status: 'idle', lastSyncedAt: '2026-11-02T09:00:00.000Z' }) })],
      }),
      'PATCH /api/platformconnections/5': () => {
        chosen = 'GBP';
        return { status: 200, body: patreon() };
      },
    });
    const view = renderPage({ connected: { connectionId: 5, name: 'Patreon', handle: '@theo' } });
    const banner = async () => (await screen.findByText('Successfully connected!')).closest('[role="status"]') as HTMLElement;
    await eventually(async () => expect((await banner()).textContent).toContain('Its campaign currency is read from your pledges on Patreon during that sync.'));

    phase = 'named';
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await eventually(async () => expect((await banner()).textContent).toContain('Its pledges are counted in EUR, the currency your campaign charges in.'));
    expect(within(await banner()).queryByLabelText(/Campaign currency/)).toBeNull();
    view.unmount();

    // Patreon's pledge events named no currency: the result asks, and the answer is sent.
    phase = 'unnamed';
    renderPage({ connected: { connectionId: 5, name: 'Patreon', handle: '@theo' } });
    const select = (await within(await banner()).findByLabelText(/Campaign currency/)) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect((await banner()).textContent).toContain("Patreon's records did not say which currency your campaign charges in.");
    fireEvent.change(select, { target: { value: 'GBP' } });
    await eventually(() => expect(server.calls.find((call) => call.key === 'PATCH /api/platformconnections/5')?.body).toEqual({ currency: 'GBP' }));
    await eventually(async () => expect((await banner()).textContent).toContain('Its pledges are counted in GBP'));
  });

  describe('the daily report offer once the first sync is done', () => {
    const preferences = { frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC', nextReportAt: null, saved: false };
    const synced = (overrides: Record<string, Handler>) =>
      mockServer({
        ...base,
        'GET /api/platformconnections': { status: 200, body: [connection({ lastSyncedAt: new Date().toISOString() })] },
        'GET /api/sync/status': { status: 200, body: [connectionSyncStatus({ status: 'idle', lastSyncedAt: new Date().toISOString() })] },
        'GET /api/settings/account': { status: 200, body: { user: {}, pendingEmail: null, timeZone: null, displayCurrency: 'USD' } },
        ...overrides,
      });

    it('once the first sync is done, turns the daily report on in one click, in this device’s time zone while the account has none, and says when the first one arrives', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const saved = deferred();
      let done = false;
      const server = synced({
        'GET /api/reports/preferences': { status: 200, body: preferences },
        'PUT /api/reports/preferences': () => saved.promise,
        'GET /api/sync/status': () => ({ status: 200, body: [connectionSyncStatus(done ? { status: 'idle', lastSyncedAt: new Date().toISOString() } : { status: 'running' })] }),
      });
      renderPage({ connected: { connectionId: 4, name: 'YouTube', handle: '@maya' } });
      // While the first sync runs there is nothing to report yet: not even the preferences are asked for.
      expect(await screen.findByText(/Its first sync is running now/)).toBeTruthy();
      expect(server.count('GET /api/reports/preferences')).toBe(0);
      done = true;
      await act(() => vi.advanceTimersByTimeAsync(1_100));
      const button = await screen.findByRole('button', { name: 'Send me a daily report' });
      fireEvent.click(button);
      await eventually(() =>
        expect(server.calls.filter((call) => call.key === 'PUT /api/reports/preferences')).toEqual([
          { key: 'PUT /api/reports/preferences', body: { frequency: 'daily', weekday: 1, hour: 8, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone } },
        ]),
      );
      expect(button.getAttribute('aria-busy')).toBe('true');
      await act(async () => saved.resolve({ status: 200, body: { ...preferences, frequency: 'daily', saved: true, nextReportAt: '2026-11-23T08:00:00.000Z' } }));
      const banner = screen.getByText('Successfully connected!').closest('[role="status"]') as HTMLElement;
      await eventually(() => expect(banner.textContent).toContain('Daily report on. The first one arrives Mon, Nov 23, 08:00.'));
      expect(within(banner).getByRole('link', { name: 'Change it in Settings' }).getAttribute('href')).toBe('/settings');
      expect(within(banner).queryByRole('button', { name: 'Send me a daily report' })).toBeNull();
    });
  });

  it('does not reload after leaving the screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': { status: 200, body: [connection({})] },
      'POST /api/sync/platform/4': { status: 202, body: { connectionId: 4, status: 'idle', lastSyncedAt: null, message: null } },
    });
    const view = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Sync YouTube @maya' }));
    await eventually(() => expect(server.count('POST /api/sync/platform/4')).toBe(1));
    view.unmount();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.count('GET /api/platformconnections')).toBe(1);
  });

  it('tracks a public profile: validates the handle, then posts it and shows the server message on failure', async () => {
    let tracked = false;
    const server = mockServer({
      ...base,
      'GET /api/platformconnections': () => ({
        status: 200,
        body: tracked ? [connection({ id: 9, manual: true, platformUsername: 'maya', followers: 500 })] : [],
      }),
      'POST /api/platformconnections/connect': () => {
        if (server.calls.at(-1)?.body && (server.calls.at(-1)!.body as { handle: string }).handle === '@nobody') {
          return { status: 400, body: { message: 'No YouTube channel is called @nobody.' } };
        }
        tracked = true;
        return { status: 201, body: connection({ id: 9, manual: true }) };
      },
    });
    renderPage();
    const form = (await screen.findByRole('heading', { name: 'Track a public profile' })).closest('section')!;
    const input = within(form).getByLabelText('Handle or profile address');
    const options = within(form).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['YouTube', 'X (Twitter)']);

    fireEvent.click(within(form).getByRole('button', { name: 'Track profile' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter a handle (like @creator) or a profile address.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(server.count('POST /api/platformconnections/connect')).toBe(0);

    fireEvent.change(input, { target: { value: '@nobody' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Track profile' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('No YouTube channel is called @nobody.');

    fireEvent.change(within(form).getByRole('combobox'), { target: { value: 'twitter' } });
    fireEvent.change(input, { target: { value: ' @maya ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Track profile' }));
    expect(await within(form).findByText('Now tracking @maya on YouTube.')).toBeTruthy();
    expect(server.calls.filter((call) => call.key === 'POST /api/platformconnections/connect').map((call) => call.body)).toEqual([
      { platform: 'youtube', handle: '@nobody' },
      { platform: 'twitter', handle: '@maya' },
    ]);
    expect(await screen.findByText('Public profile')).toBeTruthy();
  });
});
