import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { LoginPage } from './login-page';

type Reply = { status: number; body?: unknown };

/** Replies by "METHOD /path"; records every request. */
function mockServer(replies: Record<string, Reply | (() => Promise<Reply>)>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit) => {
    const key = `${init.method ?? 'GET'} ${input}`;
    calls.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const entry = replies[key];
    if (!entry) throw new Error(`Unexpected request ${key}`);
    const reply = typeof entry === 'function' ? await entry() : entry;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderLogin() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<p>Dashboard screen</p>} />
          <Route path="/resend-confirmation" element={<p>Resend screen</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function submit(name: string) {
  fireEvent.click(screen.getByRole('button', { name }));
}

const user = {
  id: 1,
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: '',
  emailConfirmed: true,
  createdAt: '2026-11-22T12:00:00.000Z',
};

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('offers “Forgot password?” when signing in, not when signing up', () => {
    renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    fireEvent.click(screen.getByRole('button', { name: "Don't have an account? Sign up" }));
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
  });

  it('starts in sign-in mode', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Analytics Hub' })).toBeTruthy();
    expect(screen.getByText('Sign in to your account')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('placeholder')).toBe('Enter your username');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "Don't have an account? Sign up" })).toBeTruthy();
  });

  it('toggles to sign-up mode and back, clearing the sign-up fields', () => {
    renderLogin();
    submit("Don't have an account? Sign up");
    expect(screen.getByLabelText('Username').getAttribute('placeholder')).toBe('Choose a username');
    expect((screen.getByLabelText('Email') as HTMLInputElement).type).toBe('email');
    expect((screen.getByLabelText('Email') as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('First Name') as HTMLInputElement).required).toBe(false);
    expect((screen.getByLabelText('Last Name') as HTMLInputElement).required).toBe(false);
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();

    type('Email', 'ada@example.com');
    type('First Name', 'Ada');
    submit('Already have an account? Sign in');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();

    submit("Don't have an account? Sign up");
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('');
  });

  it('shows a failed login with the server message and the raw response under Show details', async () => {
    const body = { message: 'Invalid username or password', code: 'unauthorized' };
    mockServer({ 'POST /api/auth/login': { status: 401, body } });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'wrong-password');
    submit('Sign in');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password');
    expect(screen.getByText('Show details').tagName).toBe('SUMMARY');
    expect(screen.getByLabelText('Server response').textContent).toBe(JSON.stringify(body, null, 2));
    // Wrong credentials do not look like an ended session.
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();

    submit("Don't have an account? Sign up");
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('falls back to Login failed and to the unexpected-error text', async () => {
    mockServer({ 'POST /api/auth/login': { status: 429, body: { code: 'rate_limited' } } });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'pw');
    submit('Sign in');
    expect((await screen.findByRole('alert')).textContent).toBe('Request failed with status 429');

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    submit('Sign in');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('An unexpected error occurred'));
  });

  it('shows Signing in... while busy, then stores the token and goes to the dashboard', async () => {
    let answer: (reply: Reply) => void = () => {};
    const calls = mockServer({
      'POST /api/auth/login': () => new Promise<Reply>((resolve) => (answer = resolve)),
    });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'correct-horse');
    submit('Sign in');

    const busyButton = await screen.findByRole('button', { name: 'Signing in...' });
    expect((busyButton as HTMLButtonElement).disabled).toBe(true);
    expect(calls[0]).toEqual({ key: 'POST /api/auth/login', body: { username: 'ada', password: 'correct-horse' } });

    await act(async () => answer({ status: 200, body: { token: 'tok-1', user, expiresAt: '2026-12-22T12:00:00.000Z' } }));
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
    expect(localStorage.getItem('auth_token')).toBe('tok-1');
  });

  it('reports a login response without a token', async () => {
    mockServer({ 'POST /api/auth/login': { status: 200, body: { user } } });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'pw');
    submit('Sign in');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid response from server');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('shows the confirmation-required notice on 403 and resends the email', async () => {
    let answerResend: (reply: Reply) => void = () => {};
    const calls = mockServer({
      'POST /api/auth/login': {
        status: 403,
        body: {
          message: 'Please confirm your email address before logging in.',
          code: 'forbidden',
          requiresEmailConfirmation: true,
          email: 'ada@example.com',
        },
      },
      'POST /api/auth/resend-confirmation': () => new Promise<Reply>((resolve) => (answerResend = resolve)),
    });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'pw');
    submit('Sign in');

    expect(await screen.findByText('Email Confirmation Required')).toBeTruthy();
    expect(screen.getByText('Please confirm your email address before logging in.')).toBeTruthy();
    expect(screen.getByText('A confirmation email was sent to ada@example.com')).toBeTruthy();

    submit('Resend Confirmation Email');
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeTruthy();
    expect(calls.at(-1)).toEqual({ key: 'POST /api/auth/resend-confirmation', body: { email: 'ada@example.com' } });
    await act(async () => answerResend({ status: 202, body: { message: 'A new confirmation email is on its way.' } }));
    expect(await screen.findByText('A new confirmation email is on its way.')).toBeTruthy();
  });

  it('says so when resending from the login screen fails', async () => {
    mockServer({
      'POST /api/auth/login': {
        status: 403,
        body: { message: 'Confirm first', code: 'forbidden', requiresEmailConfirmation: true, email: 'ada@example.com' },
      },
      'POST /api/auth/resend-confirmation': { status: 500, body: { message: 'boom', code: 'internal' } },
    });
    renderLogin();
    type('Username', 'ada');
    type('Password', 'pw');
    submit('Sign in');
    expect(await screen.findByText('Confirm first')).toBeTruthy();
    submit('Resend Confirmation Email');
    expect(await screen.findByText('Failed to resend confirmation email. Please try again.')).toBeTruthy();
  });

  it('signs up, shows Registration Successful! and returns to a cleared sign-in form', async () => {
    const calls = mockServer({
      'POST /api/auth/register': { status: 201, body: { user: { ...user, emailConfirmed: false }, message: 'Registered' } },
    });
    renderLogin();
    submit("Don't have an account? Sign up");
    type('Username', 'ada');
    type('Email', 'ada@example.com');
    type('Password', 'correct-horse');
    type('First Name', 'Ada');
    submit('Sign up');

    expect(await screen.findByText('Registration Successful!')).toBeTruthy();
    expect(screen.getByText('Please check your email and click the confirmation link to activate your account.')).toBeTruthy();
    const resendLink = screen.getByRole('link', { name: "Didn't receive the email? Resend confirmation" });
    expect(resendLink.getAttribute('href')).toBe('/resend-confirmation');
    expect(calls[0]).toEqual({
      key: 'POST /api/auth/register',
      body: { username: 'ada', email: 'ada@example.com', password: 'correct-horse', firstName: 'Ada', lastName: '' },
    });
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });

  it.each([
    [{ sandbox: true, paymentLinkUrl: null, mailboxUrl: '/sandbox/mail' }, '/sandbox/mail'],
    [{ sandbox: false, paymentLinkUrl: null, mailboxUrl: null }, null],
    // A mailbox path with the sandbox off is never linked to.
    [{ sandbox: false, paymentLinkUrl: null, mailboxUrl: '/sandbox/mail' }, null],
  ])('after signing up with %j, links to the sandbox mailbox only while the sandbox runs', async (config, href) => {
    mockServer({
      'POST /api/auth/register': { status: 201, body: { user: { ...user, emailConfirmed: false }, message: 'Registered' } },
      'GET /api/config/public': { status: 200, body: config },
    });
    renderLogin();
    submit("Don't have an account? Sign up");
    type('Username', 'ada');
    type('Email', 'ada@example.com');
    type('Password', 'correct-horse');
    submit('Sign up');
    expect(await screen.findByText('Registration Successful!')).toBeTruthy();
    if (href === null) {
      // The configuration has answered: the success notice is drawn without the link.
      await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/config/public', expect.anything()));
      await act(async () => {});
      expect(screen.queryByRole('link', { name: 'Open the sandbox mailbox' })).toBeNull();
    } else {
      expect((await screen.findByRole('link', { name: 'Open the sandbox mailbox' })).getAttribute('href')).toBe(href);
      expect(screen.getByText(/Sandbox: no email leaves this machine/)).toBeTruthy();
    }
  });

  it('shows the server message when sign-up is refused', async () => {
    mockServer({ 'POST /api/auth/register': { status: 409, body: { message: 'Username is already taken' } } });
    renderLogin();
    submit("Don't have an account? Sign up");
    type('Username', 'ada');
    type('Email', 'ada@example.com');
    type('Password', 'correct-horse');
    submit('Sign up');
    expect((await screen.findByRole('alert')).textContent).toBe('Username is already taken');
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
  });
});
