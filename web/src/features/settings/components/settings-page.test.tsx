import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/auth.ts';
import type { ReportPreferences } from '#contract/reports.ts';
import type { AccountSession } from '#contract/settings.ts';
import { getAuthToken, setAuthToken } from '../../../lib/auth-token';
import { AccountDeletedPage } from './account-deleted-page';
import { SettingsPage } from './settings-page';

vi.mock('../../../lib/browser', () => ({ assignLocation: vi.fn(), openInNewTab: vi.fn(), saveFile: vi.fn() }));

const user: User = {
  id: 7,
  username: 'maya',
  email: 'maya@example.com',
  firstName: 'Maya',
  lastName: 'Lin',
  emailConfirmed: true,
  timeZone: null,
  createdAt: '2026-10-01T10:00:00.000Z',
};

const thisDevice: AccountSession = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  createdAt: '2026-11-01T09:00:00.000Z',
  lastUsedAt: '2026-11-02T10:00:00.000Z',
  device: 'Chrome on macOS',
  current: true,
};
const laptop: AccountSession = {
  id: 'BBBBBBBBBBBBBBBBBBBBBB',
  createdAt: '2026-10-20T18:30:00.000Z',
  lastUsedAt: '2026-10-28T08:15:00.000Z',
  device: 'Firefox on Windows',
  current: false,
};
const phone: AccountSession = { ...laptop, id: 'CCCCCCCCCCCCCCCCCCCCCC', device: 'Safari on iPhone' };

const offPreferences: ReportPreferences = { frequency: 'off', weekday: 1, hour: 8, timeZone: 'UTC', nextReportAt: null, saved: false };

type Reply = { status: number; body: unknown };

/** A small stand-in for the API: fixed replies per call, overridable per test; every call is recorded. */
function stubServer(overrides: Record<string, Reply | ((body: unknown) => Reply)> = {}) {
  const calls: { key: string; body: unknown }[] = [];
  const replies: Record<string, Reply | ((body: unknown) => Reply)> = {
    'GET /api/settings/account': { status: 200, body: { user, pendingEmail: null, timeZone: null, displayCurrency: 'USD' } },
    'GET /api/reports/preferences': { status: 200, body: offPreferences },
    'GET /api/settings/sessions': { status: 200, body: { sessions: [thisDevice, laptop, phone] } },
    'GET /api/settings/alerts': { status: 200, body: { reconnect: true, topPost: true, followerMilestone: true } },
    'GET /api/settings/api-tokens': { status: 200, body: { tokens: [] } },
    ...overrides,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const reply = replies[key];
      const resolved = typeof reply === 'function' ? reply(body) : (reply ?? { status: 404, body: { message: 'not found', code: 'not_found' } });
      return new Response(JSON.stringify(resolved.body), { status: resolved.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderSettings() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/login" element={<p>Login screen</p>} />
          <Route path="/account-deleted" element={<AccountDeletedPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  setAuthToken('session-token');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  // The browser's zone, where a test pretended one.
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('SettingsPage', () => {
  it('says it is loading, then shows every section with the saved name', async () => {
    stubServer();
    renderSettings();
    expect(screen.getByRole('status').textContent).toContain('Loading your settings');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeTruthy();
    for (const name of ['Email reports', 'Email address', 'Password', 'Signed-in devices', 'Delete account']) expect(screen.getByRole('heading', { name })).toBeTruthy();
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Maya');
    expect(screen.getByText('maya@example.com')).toBeTruthy();
  });

  it('says so in words when the settings cannot be loaded', async () => {
    stubServer({ 'GET /api/settings/account': { status: 500, body: { message: 'Internal error', code: 'internal' } } });
    renderSettings();
    expect(await screen.findByText('Your settings could not be loaded')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('saves the name', async () => {
    let saved = user;
    const calls = stubServer({
      'GET /api/settings/account': () => ({ status: 200, body: { user: saved, pendingEmail: null, timeZone: null, displayCurrency: 'USD' } }),
      'PATCH /api/settings/profile': (body) => {
        saved = { ...user, ...(body as object) };
        return { status: 200, body: { user: saved, message: 'Your name is saved.' } };
      },
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Profile' });
    fireEvent.change(within(form).getByLabelText('First name'), { target: { value: 'Ada' } });
    fireEvent.change(within(form).getByLabelText('Last name'), { target: { value: 'Lovelace' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save name' }));
    expect(await within(form).findByText('Your name is saved.')).toBeTruthy();
    // The account is read again after the save; the confirmation stays.
    await waitFor(() => expect(calls.filter((call) => call.key === 'GET /api/settings/account')).toHaveLength(2));
    expect(within(screen.getByRole('form', { name: 'Profile' })).getByText('Your name is saved.')).toBeTruthy();
    expect(calls.find((call) => call.key === 'PATCH /api/settings/profile')?.body).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('finds a time zone by typing (current names, each with its offset) and saves it', async () => {
    let zone: string | null = null;
    const calls = stubServer({
      'GET /api/settings/account': () => ({ status: 200, body: { user, pendingEmail: null, timeZone: zone, displayCurrency: 'USD' } }),
      'PATCH /api/settings/profile': (body) => {
        zone = (body as { timeZone: string | null }).timeZone;
        return { status: 200, body: { user, message: 'Your time zone is saved.' } };
      },
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Time zone' });
    const combobox = within(form).getByRole('combobox', { name: 'Your time zone' }) as HTMLInputElement;
    expect(combobox.value).toBe('');
    expect(combobox.getAttribute('aria-expanded')).toBe('false');
    expect(within(form).getByText(/None chosen yet/)).toBeTruthy();

    // The retired name finds the current one; only matches are listed.
    fireEvent.change(combobox, { target: { value: 'calcutta' } });
    expect(combobox.getAttribute('aria-expanded')).toBe('true');
    const listbox = within(form).getByRole('listbox', { name: 'Your time zone' });
    expect(within(listbox).getAllByRole('option').map((option) => option.textContent)).toEqual([expect.stringMatching(/^Asia\/KolkataUTC\+05:30$/)]);

    fireEvent.change(combobox, { target: { value: 'new york' } });
    expect(within(within(form).getByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual([expect.stringMatching(/^America\/New YorkUTC−0[45]:00$/)]);
    fireEvent.change(combobox, { target: { value: 'Mars' } });
    expect(within(form).queryAllByRole('option')).toEqual([]);
    expect(within(form).getByText('No time zone matches “Mars”. Try a city, such as Berlin or Kolkata.')).toBeTruthy();

    // Keyboard: type, move with the arrows, pick with Enter (the form is not submitted), Escape puts the choice back.
    fireEvent.change(combobox, { target: { value: 'europe/k' } });
    const options = within(form).getAllByRole('option');
    expect(options.map((option) => option.textContent!.replace(/UTC.*$/, ''))).toEqual(['Europe/Kaliningrad', 'Europe/Kirov', 'Europe/Kyiv']);
    expect(combobox.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(combobox, { key: 'ArrowDown' });
    fireEvent.keyDown(combobox, { key: 'ArrowDown' });
    expect(combobox.getAttribute('aria-activedescendant')).toBe(options[2]!.id);
    fireEvent.keyDown(combobox, { key: 'Enter' });
    expect(combobox.value).toBe('Europe/Kyiv');
    expect(combobox.getAttribute('aria-expanded')).toBe('false');
    expect(calls.some((call) => call.key === 'PATCH /api/settings/profile')).toBe(false);
    fireEvent.change(combobox, { target: { value: 'tok' } });
    fireEvent.keyDown(combobox, { key: 'Escape' });
    expect(combobox.value).toBe('Europe/Kyiv');

    fireEvent.click(within(form).getByRole('button', { name: 'Save time zone' }));
    expect(await within(form).findByText('Your time zone is saved.')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PATCH /api/settings/profile').map((call) => call.body)).toEqual([{ timeZone: 'Europe/Kyiv' }]);
  });

  it("uses the browser's time zone, by its current name, when asked", async () => {
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...resolved.call(this), timeZone: 'Asia/Saigon' };
    });
    const calls = stubServer({
      'GET /api/settings/account': () => ({ status: 200, body: { user, pendingEmail: null, timeZone: 'Europe/Berlin', displayCurrency: 'USD' } }),
      'PATCH /api/settings/profile': () => ({ status: 200, body: { user, message: 'Your time zone is saved.' } }),
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Time zone' });
    const combobox = within(form).getByRole('combobox', { name: 'Your time zone' }) as HTMLInputElement;
    expect(combobox.value).toBe('Europe/Berlin');
    expect(within(form).getByText(/This device is in Asia\/Ho Chi Minh \(UTC\+07:00\)/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Use my time zone' }));
    expect(combobox.value).toBe('Asia/Ho Chi Minh');
    fireEvent.click(within(form).getByRole('button', { name: 'Save time zone' }));
    await waitFor(() => expect(calls.filter((call) => call.key === 'PATCH /api/settings/profile').map((call) => call.body)).toEqual([{ timeZone: 'Asia/Ho_Chi_Minh' }]));
  });

  it('saves the display currency of the Income screen', async () => {
    let currency = 'USD';
    const calls = stubServer({
      'GET /api/settings/account': () => ({ status: 200, body: { user, pendingEmail: null, timeZone: null, displayCurrency: currency } }),
      'PATCH /api/settings/profile': (body) => {
        currency = (body as { displayCurrency: string }).displayCurrency;
        return { status: 200, body: { user, message: 'Your display currency is saved.' } };
      },
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Display currency' });
    const select = within(form).getByLabelText('Show income in') as HTMLSelectElement;
    expect(select.value).toBe('USD');
    fireEvent.change(select, { target: { value: 'EUR' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save currency' }));
    expect(await within(form).findByText('Your display currency is saved.')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PATCH /api/settings/profile').map((call) => call.body)).toEqual([{ displayCurrency: 'EUR' }]);
  });

  it("turns on a daily report at the chosen hour, in the account's time zone", async () => {
    const calls = stubServer({
      'GET /api/settings/account': { status: 200, body: { user, pendingEmail: null, timeZone: 'Europe/Paris', displayCurrency: 'USD' } },
      'PUT /api/reports/preferences': (body) => ({ status: 200, body: { ...(body as object), timeZone: 'Europe/Paris', nextReportAt: '2026-11-03T08:00:00.000Z', saved: true } }),
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Email reports' });
    expect(within(form).getByText('Reports are off until you choose daily or weekly and save.')).toBeTruthy();
    expect(within(form).getByText('In your time zone, Europe/Paris (change it under Time zone).')).toBeTruthy();
    // One zone per account: the report has no zone field of its own.
    expect(within(form).queryByLabelText('Time zone')).toBeNull();
    fireEvent.click(within(form).getByRole('radio', { name: 'Daily' }));
    expect(within(form).queryByLabelText('Day')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Time of day'), { target: { value: '9' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save report settings' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'PUT /api/reports/preferences')).toBe(true));
    expect(calls.find((call) => call.key === 'PUT /api/reports/preferences')?.body).toEqual({ frequency: 'daily', weekday: 1, hour: 9 });
    expect(await within(form).findByText(/Saved: Daily at 09:00 \(Europe\/Paris\)\. Next report Tue, Nov 3, 09:00\./)).toBeTruthy();
    expect(within(form).getByText('Report settings saved.')).toBeTruthy();
  });

  it("makes the browser's zone the account's when a report is saved before any zone was chosen", async () => {
    const calls = stubServer({
      'PUT /api/reports/preferences': (body) => ({ status: 200, body: { ...(body as object), nextReportAt: '2026-11-03T08:00:00.000Z', saved: true } }),
    });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Email reports' });
    expect(within(form).getByText(/^In this device's time zone, .+: saving makes it your account's/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('radio', { name: 'Daily' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save report settings' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'PUT /api/reports/preferences')).toBe(true));
    expect(calls.find((call) => call.key === 'PUT /api/reports/preferences')?.body).toEqual({ frequency: 'daily', weekday: 1, hour: 8, timeZone: expect.any(String) });
    // The account is read again: its zone is now the one the report went out in.
    await waitFor(() => expect(calls.filter((call) => call.key === 'GET /api/settings/account')).toHaveLength(2));
  });

  it('shows every alert on by default and saves a switch at once', async () => {
    const calls = stubServer({
      'PATCH /api/settings/alerts': (body) => ({ status: 200, body: { reconnect: true, topPost: true, followerMilestone: true, ...(body as object) } }),
    });
    renderSettings();
    expect(await screen.findByRole('heading', { name: 'Alerts' })).toBeTruthy();
    const reconnect = (await screen.findByRole('checkbox', { name: /A connection needs reconnecting/ })) as HTMLInputElement;
    expect(reconnect.checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /top 10 %/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /follower milestone/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(reconnect);
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /A connection needs reconnecting/ }) as HTMLInputElement).checked).toBe(false));
    expect(calls.filter((call) => call.key === 'PATCH /api/settings/alerts').map((call) => call.body)).toEqual([{ reconnect: false }]);
    expect(await screen.findByText('Alert settings saved.')).toBeTruthy();
  });

  it('puts an alert switch back when the server refuses the change', async () => {
    stubServer({ 'PATCH /api/settings/alerts': { status: 500, body: { message: 'Internal error', code: 'internal' } } });
    renderSettings();
    const milestone = (await screen.findByRole('checkbox', { name: /follower milestone/ })) as HTMLInputElement;
    fireEvent.click(milestone);
    expect(await screen.findByText(/could not be saved|Internal error/)).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: /follower milestone/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('asks for the weekday only for weekly reports', async () => {
    stubServer();
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Email reports' });
    fireEvent.click(within(form).getByRole('radio', { name: 'Weekly' }));
    expect((within(form).getByLabelText('Day') as HTMLSelectElement).value).toBe('1');
  });

  it('offers the upgrade in place when reports are not in the plan, without leaving Settings', async () => {
    const { assignLocation } = await import('../../../lib/browser');
    stubServer({ 'GET /api/reports/preferences': { status: 402, body: { message: 'An active subscription or trial is required', code: 'payment_required' } } });
    renderSettings();
    expect(await screen.findByText('Email reports come with Analytics Hub Pro')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' }).getAttribute('href')).toBe('/billing?upgrade=true');
    expect(screen.getByRole('form', { name: 'Profile' })).toBeTruthy();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('shows the server’s words when the new email is taken', async () => {
    stubServer({ 'POST /api/settings/email': { status: 409, body: { message: 'An account with that email already exists', code: 'conflict' } } });
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Change email' });
    fireEvent.change(within(form).getByLabelText('New email'), { target: { value: 'taken@example.com' } });
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'my password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('An account with that email already exists');
  });

  it('does not send a password change when the two new passwords differ', async () => {
    const calls = stubServer();
    renderSettings();
    const form = await screen.findByRole('form', { name: 'Change password' });
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'old passphrase' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'a new passphrase' } });
    fireEvent.change(within(form).getByLabelText('Repeat new password'), { target: { value: 'another passphrase' } });
    fireEvent.submit(form);
    expect(await within(form).findByText('The two new passwords are different.')).toBeTruthy();
    expect(calls.some((call) => call.key === 'POST /api/settings/password')).toBe(false);
  });

  it('lists the signed-in devices with their times, this one marked and without a sign-out button', async () => {
    stubServer();
    renderSettings();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(['Chrome on macOSThis device', 'Firefox on Windows', 'Safari on iPhone']);
    expect(within(items[0]!).getByText('Last active').nextElementSibling?.textContent).toBe('Now');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(within(items[1]!).getByText('Signed in').nextElementSibling?.textContent).toMatch(/^Oct 20, 2026, /);
    // Each button says which device it signs out.
    expect(within(items[1]!).getByRole('button', { name: /^Sign out Firefox on Windows, signed in Oct 20, 2026, / }).textContent).toBe('Sign out');
  });

  it('signs out one device and lists the devices again', async () => {
    let sessions = [thisDevice, laptop, phone];
    const calls = stubServer({
      'GET /api/settings/sessions': () => ({ status: 200, body: { sessions } }),
      [`DELETE /api/settings/sessions/${laptop.id}`]: () => {
        sessions = [thisDevice, phone];
        return { status: 200, body: { message: 'That device is signed out.' } };
      },
    });
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: /^Sign out Firefox on Windows/ }));
    expect(await screen.findByText('That device is signed out.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Sign out Firefox on Windows/ })).toBeNull());
    expect(calls.filter((call) => call.key.startsWith('DELETE'))).toEqual([{ key: `DELETE /api/settings/sessions/${laptop.id}`, body: undefined }]);
  });

  it('signs out everywhere else, then has nothing left to sign out', async () => {
    let sessions = [thisDevice, laptop, phone];
    stubServer({
      'GET /api/settings/sessions': () => ({ status: 200, body: { sessions } }),
      'DELETE /api/settings/sessions': () => {
        sessions = [thisDevice];
        return { status: 200, body: { message: 'Signed out everywhere else: 2 sessions ended.', signedOutSessions: 2 } };
      },
    });
    renderSettings();
    const everywhere = (await screen.findByRole('button', { name: 'Sign out everywhere else' })) as HTMLButtonElement;
    await waitFor(() => expect(everywhere.disabled).toBe(false));
    fireEvent.click(everywhere);
    expect(await screen.findByText('Signed out everywhere else: 2 sessions ended.')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Signed-in devices' })).getAllByRole('listitem')).toHaveLength(1));
    expect((screen.getByRole('button', { name: 'Sign out everywhere else' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes the account only after the password and DELETE are given, then signs out and says where to remove the app', async () => {
    const calls = stubServer({ 'POST /api/settings/account/delete': { status: 200, body: { message: 'Your account and all of its data were deleted.', removeAppAccessAt: [] } } });
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account…' }));
    const dialog = screen.getByRole('alertdialog', { hidden: true, name: 'Delete your account?' });
    expect(within(dialog).getByRole('heading', { name: 'Delete your account?', hidden: true })).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete forever', hidden: true }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'my password' } });
    fireEvent.change(within(dialog).getByLabelText('Type DELETE to confirm'), { target: { value: 'delete' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Type DELETE to confirm'), { target: { value: 'DELETE' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(await screen.findByRole('heading', { name: 'Your account is deleted' })).toBeTruthy();
    expect(screen.getAllByRole('link').filter((link) => link.getAttribute('target') === '_blank')).toHaveLength(3);
    expect(calls.find((call) => call.key === 'POST /api/settings/account/delete')?.body).toEqual({ currentPassword: 'my password', confirmation: 'DELETE' });
    // The page forgets the token in an effect after it is drawn; on a busy machine that comes a moment later.
    await waitFor(() => expect(getAuthToken()).toBeNull());
  });

  it('keeps the account and says why when the password is wrong', async () => {
    stubServer({ 'POST /api/settings/account/delete': { status: 403, body: { message: 'Your current password is not correct.', code: 'forbidden' } } });
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account…' }));
    const dialog = screen.getByRole('alertdialog', { hidden: true, name: 'Delete your account?' });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.change(within(dialog).getByLabelText('Type DELETE to confirm'), { target: { value: 'DELETE' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete forever', hidden: true }));
    expect((await within(dialog).findByRole('alert', { hidden: true })).textContent).toContain('Your current password is not correct.');
    expect(getAuthToken()).toBe('session-token');
  });
});
