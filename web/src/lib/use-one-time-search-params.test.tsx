import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useOneTimeSearchParams } from './use-one-time-search-params';

function SecretPage() {
  const params = useOneTimeSearchParams();
  const location = useLocation();
  return (
    <>
      <p data-testid="captured">{params.get('token') ?? 'none'}</p>
      <p data-testid="address">{`${location.pathname}${location.search}${location.hash}`}</p>
      <p data-testid="state">{JSON.stringify(location.state)}</p>
    </>
  );
}

function renderAt(entry: { pathname: string; search: string; hash?: string; state?: unknown }) {
  render(
    <StrictMode>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/confirm" element={<SecretPage />} />
        </Routes>
      </MemoryRouter>
    </StrictMode>,
  );
}

afterEach(cleanup);

describe('useOneTimeSearchParams', () => {
  it('keeps the parameters the page opened with and drops them from the address, keeping path, hash and state', async () => {
    renderAt({ pathname: '/confirm', search: '?token=s3cret&userId=7', hash: '#top', state: { from: '/billing' } });
    expect(await screen.findByText('/confirm#top')).toBeTruthy();
    expect(screen.getByTestId('captured').textContent).toBe('s3cret');
    expect(screen.getByTestId('state').textContent).toBe('{"from":"/billing"}');
  });

  it('leaves an address without parameters alone', () => {
    renderAt({ pathname: '/confirm', search: '' });
    expect(screen.getByTestId('address').textContent).toBe('/confirm');
    expect(screen.getByTestId('captured').textContent).toBe('none');
  });
});
