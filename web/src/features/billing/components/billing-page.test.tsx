import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscriptionStatus } from '../../../test/factories';
import { BillingPage } from './billing-page';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const none = subscriptionStatus();
const trialing = subscriptionStatus({
  status: 'trialing',
  planName: 'Pro',
  trialEnd: inDays(7),
  currentPeriodEnd: inDays(7),
  trialUsed: true,
  hasValidAccess: true,
});

/** A tiny server: the status changes once /stripe/sync has been called. */
function stubServer() {
  let synced = false;
  const calls: string[] = [];
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      calls.push(key);
      bodies.push(init.body ? JSON.parse(String(init.body)) : undefined);
      const replies: Record<string, unknown> = {
        'GET /api/stripe/subscription-status': synced ? trialing : none,
        'POST /api/stripe/sync': {},
        'GET /api/stripe/payment-methods': { paymentMethods: [] },
        'GET /api/stripe/invoices': { invoices: [] },
      };
      const body = replies[key];
      if (key === 'POST /api/stripe/sync') synced = true;
      // The status request sent on page load is slower than the sync: its answer is stale when it lands.
      if (key === 'GET /api/stripe/subscription-status' && body === none) await new Promise((r) => setTimeout(r, 50));
      return new Response(JSON.stringify(body ?? { message: 'not found' }), {
        status: key in replies ? 200 : 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return Object.assign(calls, { bodies });
}

/** The router's current address, for tests that watch the page change it. */
function Address() {
  const location = useLocation();
  return <output aria-label="Address">{`${location.pathname}${location.search}`}</output>;
}

function renderBilling(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/billing" element={<BillingPage />} />
        </Routes>
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('BillingPage', () => {
  it('clears the return notice after 5 s, but never pulls back a user whose browser has moved on meanwhile', async () => {
    stubServer();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderBilling('/billing?canceled=true');
      expect(await screen.findByText('Payment Canceled')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(screen.getByRole('status', { name: 'Address' }).textContent).toBe('/billing');
      cleanup();

      // The user clicked away: the browser is at the next page while the router still draws this one (a transition).
      renderBilling('/billing?canceled=true');
      expect(await screen.findByText('Payment Canceled')).toBeTruthy();
      const before = window.location.href;
      window.history.pushState(null, '', '/settings');
      try {
        await act(() => vi.advanceTimersByTimeAsync(5_000));
        expect(screen.getByRole('status', { name: 'Address' }).textContent).toBe('/billing?canceled=true');
      } finally {
        window.history.replaceState(null, '', before);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers Upgrade to Pro and explains why when sent here for an upgrade', async () => {
    stubServer();
    renderBilling('/billing?upgrade=true');
    expect(await screen.findByRole('button', { name: 'Upgrade to Pro' })).toBeTruthy();
    expect(screen.getByText('Subscription Required')).toBeTruthy();
    expect(screen.getByText('Inactive')).toBeTruthy();
    expect(screen.getByText('$20.00')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
    // Without access, Billing is where the user's data is (every other screen needs access).
    expect(screen.getByRole('heading', { name: 'Your data' })).toBeTruthy();
  });

  it('after Checkout, syncs once and shows the refreshed status, never the stale one', async () => {
    const calls = stubServer();
    renderBilling('/billing?success=true');
    expect(screen.getByText('Payment Successful!')).toBeTruthy();
    expect(screen.getByText('Welcome to Analytics Hub Pro! Your subscription is now active.')).toBeTruthy();

    expect(await screen.findByText('Trial')).toBeTruthy();
    expect(screen.queryByText('Inactive')).toBeNull();
    expect(screen.getByText(/7 days remaining in your free trial/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
    // With access the data is on its own screens.
    expect(screen.queryByRole('heading', { name: 'Your data' })).toBeNull();

    expect(calls.filter((call) => call === 'POST /api/stripe/sync')).toHaveLength(1);
    const syncIndex = calls.indexOf('POST /api/stripe/sync');
    expect(calls.slice(syncIndex).includes('GET /api/stripe/subscription-status')).toBe(true);
  });

  it('passes the checkout session of a payment link to the sync', async () => {
    const calls = stubServer();
    renderBilling('/billing?success=true&session_id=cs_test_123');
    expect(await screen.findByText('Trial')).toBeTruthy();
    expect(calls.bodies[calls.indexOf('POST /api/stripe/sync')]).toEqual({ sessionId: 'cs_test_123' });
  });

  it('shows the canceled notice', async () => {
    stubServer();
    renderBilling('/billing?canceled=true');
    expect(screen.getByText('Payment Canceled')).toBeTruthy();
    expect(screen.getByText('No charges were made. You can try again anytime.')).toBeTruthy();
  });
});
