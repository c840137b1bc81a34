// The session token lives in localStorage under `auth_token` (spec section 9). This module is the only reader
// and writer, and lets React subscribe so that signing in or out anywhere re-renders the guard.
import { useSyncExternalStore } from 'react';

export const AUTH_TOKEN_KEY = 'auth_token';

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getAuthToken(): string | null {
  try {
    return window.localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    // Storage can be unavailable (privacy modes); treat that as signed out.
    return null;
  }
}

export function setAuthToken(token: string): void {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  notify();
}

/**
 * Removes the token and re-renders the guard, which then routes to /login. `quiet`: the caller is about to load
 * /login as a whole new page (the api client after a 401), so the guard is not told: its client-side redirect would be
 * a first navigation, the page load a second one (a screen shown twice, and a page replaced under whoever reads it).
 */
export function clearAuthToken({ quiet = false }: { quiet?: boolean } = {}): void {
  try {
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
  if (!quiet) notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes the same key.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === AUTH_TOKEN_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribe, getAuthToken, () => null);
}
