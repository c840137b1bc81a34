import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForgotPasswordPage } from './forgot-password-page';
import { BROKEN_RESET_LINK, ResetPasswordPage } from './reset-password-page';

function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
        </Routes>
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function stubFetch(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const posted = (fetchMock: ReturnType<typeof stubFetch>) => {
  const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
  return { url, body: JSON.parse(String(init.body)) as unknown };
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ForgotPasswordPage', () => {
  it('posts the address and shows the server’s answer', async () => {
    const fetchMock = stubFetch(202, { message: 'If an account has that email address, a link is on its way.' });
    renderAt('/forgot-password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: '  maya@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(await screen.findByText('If an account has that email address, a link is on its way.')).toBeTruthy();
    expect(posted(fetchMock)).toEqual({ url: '/api/auth/password-reset', body: { email: 'maya@example.com' } });
    expect(screen.getByRole('link', { name: 'Back to Sign In' }).getAttribute('href')).toBe('/login');
  });

  it('links to the sandbox mailbox while the sandbox runs', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const body = input === '/api/config/public' ? { sandbox: true, paymentLinkUrl: null, mailboxUrl: '/sandbox/mail' } : { message: 'A link is on its way.' };
        return new Response(JSON.stringify(body), { status: input === '/api/config/public' ? 200 : 202, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    renderAt('/forgot-password');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'maya@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(await screen.findByText('A link is on its way.')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Open the sandbox mailbox' })).getAttribute('href')).toBe('/sandbox/mail');
  });

  it('says why when the server refuses (too many requests)', async () => {
    stubFetch(429, { message: 'Too many emails requested for this address. Try again later.', code: 'rate_limited' });
    renderAt('/forgot-password');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'maya@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(await screen.findByText('Too many emails requested for this address. Try again later.')).toBeTruthy();
  });
});

describe('ResetPasswordPage', () => {
  it('takes the token out of the address bar, posts it once with the new password, and offers sign-in', async () => {
    const fetchMock = stubFetch(200, { message: 'Your password is changed and every device was signed out. Sign in with the new password.' });
    renderAt('/reset-password?userId=7&token=abc');
    expect(screen.getByTestId('address').textContent).toBe('/reset-password');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(posted(fetchMock)).toEqual({ url: '/api/auth/password-reset/confirm', body: { userId: 7, token: 'abc', password: 'a brand new passphrase' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('says when the two passwords differ, and posts nothing', () => {
    const fetchMock = stubFetch(200, {});
    renderAt('/reset-password?userId=7&token=abc');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: 'a brand new passphrasE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByText('The two passwords differ.')).toBeTruthy();
    expect(screen.getByLabelText('Repeat the new password').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal with a way to a new link', async () => {
    stubFetch(400, { message: 'This password reset link is invalid, used or expired. Ask for a new one.', code: 'bad_request' });
    renderAt('/reset-password?userId=7&token=abc');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('This password reset link is invalid, used or expired. Ask for a new one.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('explains an incomplete link instead of showing a form', () => {
    const fetchMock = stubFetch(200, {});
    renderAt('/reset-password?userId=7');
    expect(screen.getByText(BROKEN_RESET_LINK)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
