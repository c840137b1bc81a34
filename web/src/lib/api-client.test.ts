import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, messageFromBody, type ApiClientDependencies } from './api-client';

function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(response: Response, token: string | null = 'token-123') {
  const dependencies = {
    fetch: vi.fn<ApiClientDependencies['fetch']>(async () => response),
    getToken: vi.fn(() => token),
    clearToken: vi.fn(),
    redirect: vi.fn(),
    warn: vi.fn(),
  };
  return { client: createApiClient(dependencies), ...dependencies };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('calls /api with JSON and the bearer token', async () => {
    const { client, fetch } = setup(jsonResponse(200, { ok: true }));
    await expect(client.post('/auth/resend-confirmation', { email: 'a@b.co' })).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/resend-confirmation');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co' }));
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', Authorization: 'Bearer token-123' });
  });

  it('sends no Authorization header without a token', async () => {
    const { client, fetch } = setup(jsonResponse(200, {}), null);
    await client.get('/config/public');
    expect(fetch.mock.calls[0]![1].headers).not.toHaveProperty('Authorization');
  });

  it('checklist 13: on 401 removes the token and goes to /login', async () => {
    const { client, clearToken, redirect } = setup(jsonResponse(401, { message: 'Session expired', code: 'unauthorized' }));
    const error = await failure(client.get('/auth/me'));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Session expired');
    // Quietly: the page load to /login is the one navigation (the guard's own redirect first made it two).
    expect(clearToken).toHaveBeenCalledExactlyOnceWith({ quiet: true });
    expect(redirect).toHaveBeenCalledWith('/login');
  });

  it('leaves the session alone when the login call itself answers 401 (wrong credentials)', async () => {
    const { client, clearToken, redirect } = setup(
      jsonResponse(401, { message: 'Invalid username or password', code: 'unauthorized' }),
    );
    const error = await failure(client.post('/auth/login', { username: 'a', password: 'b' }));
    expect(error.message).toBe('Invalid username or password');
    expect(clearToken).not.toHaveBeenCalled();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('on 401 with redirectOnUnauthorized false removes the token but stays on the page', async () => {
    const { client, clearToken, redirect } = setup(jsonResponse(401, { message: 'Session expired', code: 'unauthorized' }));
    const error = await failure(
      client.post('/oauth/youtube/callback', { code: 'c', state: 's' }, { redirectOnUnauthorized: false }),
    );
    expect(error.status).toBe(401);
    // Not quietly: the page stays, and its guard hears that the session is over.
    expect(clearToken).toHaveBeenCalledExactlyOnceWith();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('checklist 13: on 402 logs and sends the user to the upgrade screen, keeping the session', async () => {
    const body = { message: 'Subscription required', code: 'payment_required', upgradeUrl: '/billing?upgrade=true' };
    const { client, redirect, warn, clearToken } = setup(jsonResponse(402, body));
    const error = await failure(client.get('/analytics/summary'));
    expect(error.status).toBe(402);
    expect(error.body).toEqual(body);
    expect(warn).toHaveBeenCalled();
    expect(redirect).toHaveBeenCalledWith('/billing?upgrade=true');
    expect(clearToken).not.toHaveBeenCalled();
  });

  it('on 402 from a billing call logs but stays put', async () => {
    const { client, redirect, warn } = setup(jsonResponse(402, { message: 'Payment required', code: 'payment_required' }));
    await failure(client.post('/stripe/create-portal-session', {}));
    expect(warn).toHaveBeenCalled();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('on 402 for a premium part of an open screen (redirectOnPaymentRequired: false) stays put', async () => {
    const { client, redirect } = setup(jsonResponse(402, { message: 'Payment required', code: 'payment_required' }));
    const error = await failure(client.get('/reports/preferences', { redirectOnPaymentRequired: false }));
    expect(error.status).toBe(402);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('takes the error message from message or Message, with a fallback', async () => {
    expect((await failure(setup(jsonResponse(409, { message: 'Username taken' })).client.get('/x'))).message).toBe(
      'Username taken',
    );
    expect((await failure(setup(jsonResponse(400, { Message: 'Bad input' })).client.get('/x'))).message).toBe('Bad input');
    const textError = await failure(setup(new Response('Bad Gateway', { status: 502 })).client.get('/x'));
    expect(textError.message).toBe('Request failed with status 502');
    expect(textError.body).toBe('Bad Gateway');
  });

  it('returns undefined for an empty success body', async () => {
    const { client } = setup(new Response(null, { status: 204 }));
    await expect(client.delete('/platformconnections/1')).resolves.toBeUndefined();
  });
});

describe('messageFromBody', () => {
  it('ignores blank and non-string messages', () => {
    expect(messageFromBody({ message: '  ' })).toBeUndefined();
    expect(messageFromBody({ message: 3 })).toBeUndefined();
    expect(messageFromBody('text')).toBeUndefined();
    expect(messageFromBody(null)).toBeUndefined();
  });
});
