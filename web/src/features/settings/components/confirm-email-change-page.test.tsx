import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmEmailChangePage } from './confirm-email-change-page';

function renderAt(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/confirm-email-change" element={<ConfirmEmailChangePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('ConfirmEmailChangePage', () => {
  it('confirms on a click, then forgets this browser’s session (the change ended them all) and offers to sign in', async () => {
    window.localStorage.setItem('auth_token', 'token-123');
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ message: 'Your new email address is confirmed. Every device was signed out: sign in again.', email: 'new@example.com' }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/confirm-email-change?userId=7&token=${'A'.repeat(43)}`);
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm new email' }));
    expect(await screen.findByText(/Every device was signed out: sign in again with your new address\./)).toBeTruthy();
    expect(screen.getByText('new@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(window.localStorage.getItem('auth_token')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
