import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { addressCorrection, type AddressCorrection } from './address-corrections';
import { AddressCorrectionNotice, useAddressCorrections } from './use-address-corrections';

/** A page that reads ?size= (small or large, small by default) and keeps the rest. */
function SizePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const size = searchParams.get('size');
  const corrections: AddressCorrection[] = size !== null && size !== 'small' && size !== 'large' ? [addressCorrection('size', `the size “${size}”`, 'the small size')] : [];
  const notice = useAddressCorrections(corrections);
  const location = useLocation();
  return (
    <>
      <AddressCorrectionNotice message={notice} />
      <p data-testid="address">{location.search}</p>
      <p data-testid="navigation">{useNavigationType()}</p>
      <p data-testid="state">{JSON.stringify(location.state)}</p>
      <button type="button" onClick={() => setSearchParams({ size: 'large' })}>
        Large
      </button>
    </>
  );
}

function renderAt(entries: (string | { pathname: string; search: string; state?: unknown })[]) {
  const router = createMemoryRouter([{ path: '/page', element: <SizePage /> }, { path: '/before', element: <p>Before</p> }], { initialEntries: entries, initialIndex: entries.length - 1 });
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

afterEach(cleanup);

describe('useAddressCorrections', () => {
  it('replaces the bad value in the address (no new history entry) and says so in one polite line, keeping the rest', async () => {
    const router = renderAt(['/before', { pathname: '/page', search: '?size=huge&keep=1', state: { from: 'link' } }]);
    expect((await screen.findByRole('status')).textContent).toBe('The address asked for the size “huge”; showing the small size.');
    expect(screen.getByTestId('address').textContent).toBe('?keep=1');
    expect(screen.getByTestId('navigation').textContent).toBe('REPLACE');
    expect(screen.getByTestId('state').textContent).toBe('{"from":"link"}');
    // Back leaves the page: the bad address is no longer in the history.
    await router.navigate(-1);
    expect(await screen.findByText('Before')).toBeTruthy();
  });

  it('takes the line away once the creator changes the page', async () => {
    renderAt(['/page?size=huge']);
    await screen.findByRole('status');
    fireEvent.click(screen.getByRole('button', { name: 'Large' }));
    expect(screen.getByTestId('address').textContent).toBe('?size=large');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing and leaves the address alone when every value is readable', () => {
    renderAt(['/page?size=large']);
    expect(screen.getByTestId('address').textContent).toBe('?size=large');
    expect(screen.getByTestId('navigation').textContent).toBe('POP');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
