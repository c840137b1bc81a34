import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformConnection } from '#contract/platforms.ts';
import { connectionSyncStatus, platformConnection } from '../../../test/factories';
import { YourDataCard } from './your-data-card';

const instagram = platformConnection({ id: 7, platformName: 'Instagram', platform: 'instagram', platformUsername: 'ivy', displayName: 'Ivy Chen' });

/** A tiny server holding the user's connections; DELETE answers `deleteStatus` (and removes the connection on 200). */
function stubServer({ connections, listStatus = 200, deleteStatus = 200 }: { connections: PlatformConnection[]; listStatus?: number; deleteStatus?: number }) {
  let held = [...connections];
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      calls.push(key);
      const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (key === 'GET /api/platformconnections') return listStatus === 200 ? reply(200, held) : reply(listStatus, { message: 'Server error' });
      if (key === 'GET /api/sync/status') {
        return reply(
          200,
          held.map((connection) =>
            connectionSyncStatus({ connectionId: connection.id, platformName: connection.platformName, status: 'paused', pausedReason: 'subscription_ended', message: 'Syncing is paused: subscribe again to resume.' }),
          ),
        );
      }
      const deleted = /^DELETE \/api\/platformconnections\/(\d+)$/.exec(key);
      if (deleted) {
        if (deleteStatus !== 200) return reply(deleteStatus, { message: 'The platform did not answer.' });
        held = held.filter((connection) => connection.id !== Number(deleted[1]));
        return reply(200, { message: 'Disconnected' });
      }
      return reply(404, { message: 'not found' });
    }),
  );
  return calls;
}

function renderCard() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <YourDataCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('YourDataCard', () => {
  it('lists each connection with its paused line, and disconnects one after the Platforms confirmation', async () => {
    const calls = stubServer({ connections: [instagram] });
    renderCard();
    const list = await screen.findByRole('list', { name: 'Connected platforms' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(await within(list).findByText('Syncing is paused: subscribe again to resume.')).toBeTruthy();

    fireEvent.click(within(list).getByRole('button', { name: /^Disconnect Instagram/ }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Instagram?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep connected' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);

    fireEvent.click(within(list).getByRole('button', { name: /^Disconnect Instagram/ }));
    dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Instagram?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('No platforms connected.')).toBeTruthy();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/platformconnections/7']);
    // A guard against a hang only: two dialogs and three renders took over 5 s on a loaded two-core machine.
  }, 60_000);

  it('says why a disconnect failed and keeps the connection listed', async () => {
    stubServer({ connections: [instagram], deleteStatus: 502 });
    renderCard();
    const list = await screen.findByRole('list', { name: 'Connected platforms' });
    fireEvent.click(within(list).getByRole('button', { name: /^Disconnect Instagram/ }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The platform did not answer.');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('offers another try when the connections cannot be loaded, and says when there are none', async () => {
    stubServer({ connections: [], listStatus: 500 });
    renderCard();
    expect(await screen.findByText("Couldn't load your connected platforms.")).toBeTruthy();
    vi.unstubAllGlobals();
    stubServer({ connections: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No platforms connected.')).toBeTruthy();
  });

  it('offers both downloads and account deletion', async () => {
    stubServer({ connections: [] });
    renderCard();
    expect(screen.getByRole('group', { name: 'Your analytics' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Your posts' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Delete/ })).toBeTruthy();
  });
});
