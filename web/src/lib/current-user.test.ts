import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuthToken, setAuthToken } from './auth-token';
import { CURRENT_USER_RETRY_MS, getCurrentUser } from './current-user';

const user = { id: 1, username: 'maya', email: 'maya@example.com' };
const networkError = () => Promise.reject(new TypeError('Failed to fetch'));
const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  setAuthToken('session-token');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.dispatchEvent(new Event('pageshow'));
  window.localStorage.clear();
});

/** Runs the call to its end, moving the clock over the retry's pause. */
async function settled(call: Promise<unknown>) {
  const outcome = call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await vi.advanceTimersByTimeAsync(CURRENT_USER_RETRY_MS);
  return outcome;
}

describe('getCurrentUser', () => {
  it('ends the session when /auth/me answers an error (spec section 4)', async () => {
    fetchMock.mockImplementation(() => answer(500, { message: 'Internal error', code: 'internal' }));
    expect(await settled(getCurrentUser())).toMatchObject({ ok: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getAuthToken()).toBeNull();
  });

  it('a 401 ends the session through the api client, which loads /login as a new page', async () => {
    fetchMock.mockImplementation(() => answer(401, { message: 'Session expired', code: 'unauthorized' }));
    expect(await settled(getCurrentUser())).toMatchObject({ ok: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getAuthToken()).toBeNull();
  });

  it('ends the session when the server cannot be reached twice, a pause apart', async () => {
    fetchMock.mockImplementation(networkError);
    expect(await settled(getCurrentUser())).toMatchObject({ ok: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(getAuthToken()).toBeNull();
  });

  it('tries a network error once more and stays signed in when the second call answers', async () => {
    fetchMock.mockImplementationOnce(networkError).mockImplementationOnce(() => answer(200, user));
    expect(await settled(getCurrentUser())).toEqual({ ok: true, value: user });
    expect(getAuthToken()).toBe('session-token');
  });

  it('keeps the session when the page is being left and its request is cancelled (a reload or a link mid-check)', async () => {
    fetchMock.mockImplementation(networkError);
    window.dispatchEvent(new Event('beforeunload'));
    expect(await settled(getCurrentUser())).toMatchObject({ ok: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getAuthToken()).toBe('session-token');
  });

  it('keeps it when the page starts being left during the pause', async () => {
    fetchMock.mockImplementation(networkError);
    const call = getCurrentUser();
    await vi.advanceTimersByTimeAsync(CURRENT_USER_RETRY_MS / 2);
    window.dispatchEvent(new Event('pagehide'));
    expect(await settled(call)).toMatchObject({ ok: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getAuthToken()).toBe('session-token');
  });

  it('ends it again for a page shown anew from the back-forward cache', async () => {
    fetchMock.mockImplementation(networkError);
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('pageshow'));
    expect(await settled(getCurrentUser())).toMatchObject({ ok: false });
    expect(getAuthToken()).toBeNull();
  });

  it('keeps the session when its own query cancelled the call', async () => {
    fetchMock.mockImplementation(networkError);
    const controller = new AbortController();
    controller.abort();
    expect(await settled(getCurrentUser(controller.signal))).toMatchObject({ ok: false });
    expect(getAuthToken()).toBe('session-token');
  });
});
