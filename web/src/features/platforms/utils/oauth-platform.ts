// Platform names in OAuth paths are lowercase (spec section 7): 'youtube' ↔ 'YouTube'.
import { PLATFORM_CATALOGUE, PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';

/** Session storage key for the platform the browser left for; the callback clears it. */
export const OAUTH_PLATFORM_STORAGE_KEY = 'oauth_platform';

export function isPlatformName(value: string): value is PlatformName {
  return (PLATFORM_NAMES as readonly string[]).includes(value);
}

/** 'youtube' → 'YouTube'; an unknown name is shown as it came. */
export function platformDisplayName(pathName: string): string {
  const key = pathName.toLowerCase();
  return isPlatformName(key) ? PLATFORM_CATALOGUE[key].name : pathName;
}

export function rememberOAuthPlatform(pathName: PlatformName): void {
  try {
    window.sessionStorage.setItem(OAUTH_PLATFORM_STORAGE_KEY, pathName);
  } catch {
    // Storage can be unavailable (privacy modes); the callback's own path names the platform anyway.
  }
}

export function forgetOAuthPlatform(): void {
  try {
    window.sessionStorage.removeItem(OAUTH_PLATFORM_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** What the OAuth callback hands the Platforms page (router state) for its "Successfully connected!" notice. */
export interface ConnectedNotice {
  connectionId: number | null;
  name: string;
  handle: string | null;
}

/** The router state's notice, if it is one (state survives a reload and can be anything another page left). */
export function connectedNoticeOf(state: unknown): ConnectedNotice | null {
  if (typeof state !== 'object' || state === null || !('connected' in state)) return null;
  const connected = (state as { connected: unknown }).connected;
  if (typeof connected !== 'object' || connected === null) return null;
  const { connectionId, name, handle } = connected as Record<string, unknown>;
  if (typeof name !== 'string') return null;
  return { connectionId: typeof connectionId === 'number' ? connectionId : null, name, handle: typeof handle === 'string' ? handle : null };
}
