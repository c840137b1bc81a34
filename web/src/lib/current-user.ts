// GET /api/auth/me: who is signed in. Shared by the guard, the shell and the landing page, so it lives in lib.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#contract/auth.ts';
import { api } from './api-client';
import { clearAuthToken, useAuthToken } from './auth-token';

export const currentUserQueryKey = ['auth', 'me'] as const;

/** A failing current-user call ends the session (spec section 4), whatever the reason. */
export async function getCurrentUser(signal?: AbortSignal): Promise<User> {
  try {
    return await api.get<User>('/auth/me', { signal });
  } catch (error) {
    if (!signal?.aborted) clearAuthToken();
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
