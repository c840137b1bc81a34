import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { getAuthToken, setAuthToken } from '../../../lib/auth-token';
import { AccountDeletedPage } from './account-deleted-page';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

function renderPage(state?: unknown) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[{ pathname: '/account-deleted', state }]}>
        <AccountDeletedPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('AccountDeletedPage', () => {
  it('confirms the deletion and links to where the app is removed at LinkedIn, Patreon and Instagram', () => {
    setAuthToken('dead-session');
    renderPage({ accountDeleted: true });
    expect(getAuthToken()).toBeNull();
    expect(screen.getByRole('heading', { name: 'Your account is deleted', level: 1 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Your account and all of its data were deleted');
    expect(screen.getByRole('heading', { name: 'One more step at LinkedIn, Patreon and Instagram' })).toBeTruthy();
    const links = [
      ['LinkedIn: Permitted services (opens in a new tab)', 'https://www.linkedin.com/mypreferences/d/permitted-services'],
      ['Patreon: Settings, Apps (opens in a new tab)', 'https://www.patreon.com/settings/apps'],
      ['Instagram: Apps and websites (opens in a new tab)', 'https://www.instagram.com/accounts/manage_access/'],
    ];
    for (const [name, href] of links) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });

  it('signs nobody out when opened by itself', () => {
    setAuthToken('a live session');
    renderPage();
    expect(getAuthToken()).toBe('a live session');
  });
});
