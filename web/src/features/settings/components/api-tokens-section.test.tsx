import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken } from '#contract/api-tokens.ts';
import { copyText } from '../../../lib/browser';
import { apiToken } from '../../../test/factories';
import { ApiTokensSection } from './api-tokens-section';

vi.mock('../../../lib/browser', () => ({ assignLocation: vi.fn(), openInNewTab: vi.fn(), saveFile: vi.fn(), copyText: vi.fn(async () => undefined) }));

type Reply = { status: number; body: unknown };

/** The API as the section sees it: a token list the calls change, and every call recorded. */
function stubServer(initial: ApiToken[], overrides: Record<string, (body: unknown) => Reply> = {}) {
  let tokens = [...initial];
  const calls: { key: string; body: unknown }[] = [];
  const replies: Record<string, (body: unknown) => Reply> = {
    'GET /api/settings/api-tokens': () => ({ status: 200, body: { tokens } }),
    'POST /api/settings/api-tokens': (body) => {
      const created = apiToken({ id: 99, name: (body as { name: string }).name, prefix: 'ahp_NewT0ken' });
      tokens = [created, ...tokens];
      return { status: 201, body: { apiToken: created, token: `ahp_NewT0ken${'x'.repeat(35)}`, message: 'Copy your token now: it will not be shown again.' } };
    },
    ...overrides,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const deleted = /^DELETE \/api\/settings\/api-tokens\/(\d+)$/.exec(key);
      let reply: Reply;
      if (replies[key]) reply = replies[key](body);
      else if (deleted) {
        tokens = tokens.filter((token) => token.id !== Number(deleted[1]));
        reply = { status: 200, body: { message: 'The token is revoked: it no longer works.' } };
      } else reply = { status: 404, body: { message: 'not found', code: 'not_found' } };
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ApiTokensSection />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(copyText).mockClear();
});

describe('the API tokens section of Settings', () => {
  it('says it is loading, then that there are no tokens yet, and links to the API docs', async () => {
    stubServer([]);
    renderSection();
    expect(screen.getByRole('status').textContent).toContain('Loading your API tokens…');
    expect(await screen.findByText('No API tokens yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: /^API documentation ?\(opens in a new tab\)$/ }).getAttribute('href')).toBe('/api/docs');
  });

  it('lists each token by name and prefix with when it was created and last used ("Never used"), never the token', async () => {
    stubServer([apiToken(), apiToken({ id: 2, name: 'Dashboard sync', prefix: 'ahp_ZyXw9876', lastUsedAt: '2026-10-30T12:00:00.000Z' })]);
    renderSection();
    const list = await screen.findByRole('list', { name: 'API tokens' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Weekly report script');
    expect(items[0]!.textContent).toContain('ahp_AbCd1234…');
    expect(items[0]!.textContent).toContain('Never used');
    expect(items[1]!.textContent).toContain('Dashboard sync');
    expect(items[1]!.textContent).not.toContain('Never used');
    expect((within(items[1]!).getByRole('button', { name: /^Revoke Dashboard sync, created / }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('creates a token with a name, shows it once with a copy button and the warning, and forgets it on Done', async () => {
    const calls = stubServer([]);
    renderSection();
    await screen.findByText('No API tokens yet');
    const form = screen.getByRole('form', { name: 'Create an API token' });
    expect((within(form).getByRole('button', { name: 'Create token' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Token name'), { target: { value: 'Nightly export' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create token' }));

    const field = await screen.findByLabelText('Your new token');
    const token = `ahp_NewT0ken${'x'.repeat(35)}`;
    expect((field as HTMLInputElement).value).toBe(token);
    expect(document.activeElement).toBe(field);
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain('it will not be shown again');
    expect(calls.find((call) => call.key === 'POST /api/settings/api-tokens')?.body).toEqual({ name: 'Nightly export' });
    expect((within(form).getByLabelText('Token name') as HTMLInputElement).value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(copyText).toHaveBeenCalledWith(token);
    expect(await screen.findByText('The token is on your clipboard.')).toBeTruthy();

    // The list (refetched) names it by its prefix only.
    const list = await screen.findByRole('list', { name: 'API tokens' });
    await waitFor(() => expect(screen.getByRole('list', { name: 'API tokens' }).textContent).toContain('Nightly export'));
    expect(list.textContent).not.toContain(token);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByLabelText('Your new token')).toBeNull());
    expect(document.body.innerHTML).not.toContain(token);
  });

  it("shows the server's refusal in words (the 20-token limit)", async () => {
    stubServer([], {
      'POST /api/settings/api-tokens': () => ({ status: 409, body: { message: 'You already have 20 API tokens, the most an account can hold. Revoke one you no longer use first.', code: 'conflict' } }),
    });
    renderSection();
    await screen.findByText('No API tokens yet');
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'One more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByRole('alert')).textContent).toContain('You already have 20 API tokens');
    expect(screen.queryByLabelText('Your new token')).toBeNull();
  });

  it('revokes only after confirming; Cancel changes nothing', async () => {
    const calls = stubServer([apiToken()]);
    renderSection();
    const revoke = await screen.findByRole('button', { name: /^Revoke Weekly report script/ });
    fireEvent.click(revoke);
    const dialog = screen.getByRole('alertdialog', { hidden: true, name: 'Revoke “Weekly report script”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel', hidden: true }));
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: /^Revoke Weekly report script/ }));
    fireEvent.click(within(screen.getByRole('alertdialog', { hidden: true, name: 'Revoke “Weekly report script”?' })).getByRole('button', { name: 'Revoke token', hidden: true }));
    expect(await screen.findByText('The token is revoked: it no longer works.')).toBeTruthy();
    expect(calls.filter((call) => call.key.startsWith('DELETE')).map((call) => call.key)).toEqual(['DELETE /api/settings/api-tokens/1']);
    expect(await screen.findByText('No API tokens yet')).toBeTruthy();
  });

  it('says the list could not be loaded, and loads it again on Try again', async () => {
    let fail = true;
    stubServer([apiToken()], { 'GET /api/settings/api-tokens': () => (fail ? { status: 500, body: { message: 'Something went wrong on our side.', code: 'internal' } } : { status: 200, body: { tokens: [apiToken()] } }) });
    renderSection();
    expect(await screen.findByText('Your API tokens could not be loaded.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('list', { name: 'API tokens' })).textContent).toContain('Weekly report script');
  });
});
