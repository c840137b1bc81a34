import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error';

afterEach(cleanup);

function Broken(): never {
  throw new Error('a screen that cannot render');
}

it('shows a way out instead of a blank page when a screen throws (or its code fails to download)', () => {
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <RouteErrorBoundary>
      <Broken />
    </RouteErrorBoundary>,
  );
  expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  expect(consoleError).toHaveBeenCalled();
  consoleError.mockRestore();
});
