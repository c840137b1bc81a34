import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmEmailPage } from './confirm-email-page';

function renderAt(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/confirm-email" element={<ConfirmEmailPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

function stubFetch(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ConfirmEmailPage', () => {
  it('posts the single-use token exactly once, even under StrictMode', async () => {
    const fetchMock = stubFetch(200, { message: 'Email confirmed. You can now sign in.', alreadyConfirmed: false });
    renderAt('/confirm-email?userId=7&token=abc');
    expect(await screen.findByRole('heading', { name: 'Email Confirmed Successfully!' })).toBeTruthy();
    expect(screen.getByText('Email confirmed. You can now sign in.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Sign In' }).getAttribute('href')).toBe('/login');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/confirm-email');
    expect(JSON.parse(String(init.body))).toEqual({ userId: 7, token: 'abc' });
  });

  it('says a link opened again is already confirmed, and offers sign-in rather than a new link', async () => {
    stubFetch(200, { message: 'Your email is already confirmed: this link was used before. You can sign in.', alreadyConfirmed: true });
    renderAt('/confirm-email?userId=7&token=abc');
    expect(await screen.findByRole('heading', { name: 'Email Already Confirmed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your email is already confirmed: this link was used before. You can sign in.');
    expect(screen.getByRole('link', { name: 'Go to Sign In' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('link', { name: 'Resend confirmation email' })).toBeNull();
    expect(screen.queryByText(/invalid or has expired/)).toBeNull();
  });

  it('shows Confirmation Failed with the server message and ways forward', async () => {
    stubFetch(400, { message: 'This confirmation link has expired.', code: 'bad_request' });
    renderAt('/confirm-email?userId=7&token=abc');
    expect(await screen.findByRole('heading', { name: 'Confirmation Failed' })).toBeTruthy();
    expect(screen.getByText('This confirmation link has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Resend confirmation email' }).getAttribute('href')).toBe('/resend-confirmation');
    expect(screen.getByRole('link', { name: 'Back to Sign In' }).getAttribute('href')).toBe('/login');
  });

  it('does not call the server for a link missing its parameters', () => {
    const fetchMock = stubFetch(200, {});
    renderAt('/confirm-email?userId=7');
    expect(screen.getByText('Invalid confirmation link. Missing required parameters.')).toBeTruthy();
    expect(screen.getByText('This confirmation link appears to be invalid or expired.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
