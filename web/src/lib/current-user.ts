// GET /api/auth/me: who is signed in. Shared by the guard, the shell and the landing page, so it lives in lib.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#contract/auth.ts';
import { api, ApiError } from './api-client';
import { clearAuthToken, useAuthToken } from './auth-token';

export const currentUserQueryKey = ['auth', 'me'] as const;

// A page being left (a reload, a link, a typed address) cancels its requests, and the fetch fails as a network
// error while the old page still runs: that says nothing about the session, and clearing the token then signs the
// user out on their way to the next page (seen in CI: a journey navigating while /auth/me ran landed on /login).
// beforeunload and pagehide mark the page as being left; pageshow (back from the back-forward cache) clears it. A
// network error can also come just before those events, so one is tried again after a pause: a page that was being
// left is gone by then, and a server that is really unreachable fails twice.
let leavingPage = false;
if (typeof window !== 'undefined') {
  const leaving = () => {
    leavingPage = true;
  };
  window.addEventListener('beforeunload', leaving);
  window.addEventListener('pagehide', leaving);
  window.addEventListener('pageshow', () => {
    leavingPage = false;
  });
}

/** How long a network failure of /auth/me waits before it is tried once more. */
export const CURRENT_USER_RETRY_MS = 1_000;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A failing current-user call ends the session (spec section 4), whatever the reason; not a call cancelled by its
 * own query (the signal) or by the page being left, and a network error only when it happens twice.
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<User> {
  const endsSession = () => !signal?.aborted && !leavingPage;
  try {
    return await api.get<User>('/auth/me', { signal });
  } catch (error) {
    if (!(error instanceof ApiError) && endsSession()) {
      await pause(CURRENT_USER_RETRY_MS, signal);
      if (endsSession()) {
        try {
          return await api.get<User>('/auth/me', { signal });
        } catch (again) {
          if (endsSession()) clearAuthToken();
          throw again;
        }
      }
    } else if (endsSession() && !(error instanceof ApiError && error.status === 401)) clearAuthToken();
    // A 401 was handled by the api client: the token is gone and /login is loading as a new page. Clearing it here
    // too would re-render the guard into a client-side redirect first, two navigations where one is meant.
    throw error;
  }
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser(signal),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export type Session =
  | { status: 'signed-out' }
  | { status: 'checking' }
  | { status: 'signed-in'; user: User };

/** Signed out without a token; checking while /auth/me runs; signed in once it answered. */
export function useSession(): Session {
  const token = useAuthToken();
  const currentUser = useQuery({ ...currentUserQueryOptions(), enabled: token !== null });
  if (token === null) return { status: 'signed-out' };
  if (currentUser.data) return { status: 'signed-in', user: currentUser.data };
  if (currentUser.isError) return { status: 'signed-out' };
  return { status: 'checking' };
}
