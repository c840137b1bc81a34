import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from '../../../lib/browser';
import { OAuthCallbackPage } from './oauth-callback-page';
import { platformConnection } from '../../../test/factories';

vi.mock('../../../lib/browser', () => ({ assignLocation: vi.fn(), openInNewTab: vi.fn() }));
vi.spyOn(console, 'error').mockImplementation(() => {});

const connection = platformConnection();

/** One reply for POST /api/oauth/{platform}/callback; records the calls. */
function stubCallback(status: number, body?: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Stands in for the Platforms page: shows the router state the callback handed over. */
function PlatformsStateProbe() {
  const location = useLocation();
  return <pre data-testid="platforms-state">{JSON.stringify(location.state)}</pre>;
}

function renderAt(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/auth/:platform/callback" element={<OAuthCallbackPage />} />
            <Route path="/platforms" element={<PlatformsStateProbe />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

async function failureMessage(): Promise<string> {
  expect(await screen.findByRole('heading', { name: 'Connection failed' })).toBeTruthy();
  return screen.getByRole('alert').textContent ?? '';
}

beforeEach(() => {
  window.localStorage.setItem('auth_token', 'token-123');
  window.sessionStorage.setItem('oauth_platform', 'youtube');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(assignLocation).mockClear();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('OAuthCallbackPage', () => {
  it('shows Connecting, posts the code and state exactly once (even under StrictMode), then returns to Platforms with the account named', async () => {
    const fetchMock = stubCallback(200, connection);
    renderAt('/auth/youtube/callback?code=abc&state=xyz');
    expect(screen.getByRole('heading', { name: 'Connecting...' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('YouTube');

    const state = JSON.parse((await screen.findByTestId('platforms-state')).textContent ?? 'null');
    expect(state).toEqual({ connected: { connectionId: connection.id, name: 'YouTube', handle: '@maya' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/oauth/youtube/callback');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ code: 'abc', state: 'xyz' });
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-123');
    expect(window.sessionStorage.getItem('oauth_platform')).toBeNull();
  });

  it('sends a null state when the platform sent none', async () => {
    const fetchMock = stubCallback(200, connection);
    renderAt('/auth/youtube/callback?code=abc');
    await screen.findByTestId('platforms-state');
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({ code: 'abc', state: null });
  });

  it("without a code: 'Authorization code not found', and no call", async () => {
    const fetchMock = stubCallback(200, connection);
    renderAt('/auth/youtube/callback?state=xyz');
    expect(await failureMessage()).toBe('Authorization code not found');
    expect(screen.getByRole('link', { name: 'Back to Platforms' }).getAttribute('href')).toBe('/platforms');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("after a Deny: the platform's reason, and the refusal is posted once so the state is used up", async () => {
    const fetchMock = stubCallback(400, { message: 'The authorization was refused', code: 'bad_request' });
    renderAt('/auth/youtube/callback?error=access_denied&error_description=The+user+denied+access&state=xyz');
    expect(await failureMessage()).toBe('YouTube: access_denied — The user denied access');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({
      code: null,
      state: 'xyz',
      error: 'access_denied',
      error_description: 'The user denied access',
    });
    // The server's answer to a refusal does not replace the platform's reason.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole('alert').textContent).toBe('YouTube: access_denied — The user denied access');
  });

  it("without a stored login: 'Authentication required. Please login first.', a way to sign in, and no call", async () => {
    window.localStorage.removeItem('auth_token');
    const fetchMock = stubCallback(200, connection);
    renderAt('/auth/youtube/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('Authentication required. Please login first.');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("for an empty answer: 'Failed to complete authorization'", async () => {
    stubCallback(200);
    renderAt('/auth/youtube/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('Failed to complete authorization');
  });

  it('for a 401: explains the expired session here instead of jumping to /login', async () => {
    stubCallback(401, { message: 'Session expired', code: 'unauthorized' });
    renderAt('/auth/youtube/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('Authentication expired. Please login again and retry the connection.');
    expect(assignLocation).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('auth_token')).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it("shows the server's message", async () => {
    stubCallback(400, { message: 'This authorization has expired. Please connect again.', code: 'bad_request' });
    renderAt('/auth/linkedin/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('This authorization has expired. Please connect again.');
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it("without a server message: 'An error occurred while connecting your account'", async () => {
    stubCallback(502);
    renderAt('/auth/tiktok/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('An error occurred while connecting your account');
  });

  it('when the network fails: the generic message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderAt('/auth/patreon/callback?code=abc&state=xyz');
    expect(await failureMessage()).toBe('An error occurred while connecting your account');
  });
});
