import { describe, expect, it } from 'vitest';
import { decideNavigation, isOAuthCallback, requiresValidAccess, type AccessState, type SessionState } from './guard';

function decide(pathname: string, session: SessionState, access: AccessState = 'valid') {
  return decideNavigation({ pathname, session, access });
}

describe('decideNavigation', () => {
  it('sends a signed-out user on an auth route to /login', () => {
    for (const path of ['/dashboard', '/analytics', '/youtube', '/income', '/platforms', '/billing', '/dashboard/']) {
      expect(decide(path, 'signed-out')).toEqual({ kind: 'redirect', to: '/login' });
    }
  });

  it('lets a signed-out user see the public screens', () => {
    for (const path of ['/', '/login', '/confirm-email', '/resend-confirmation', '/no-such-page']) {
      expect(decide(path, 'signed-out')).toEqual({ kind: 'render' });
    }
  });

  it('sends a signed-in user from / and /login to /dashboard', () => {
    expect(decide('/', 'signed-in')).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decide('/login', 'signed-in')).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decide('/login/', 'signed-in', 'invalid')).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('sends a user who just signed in back to the page that asked for it', () => {
    expect(decideNavigation({ pathname: '/login', session: 'signed-in', access: 'loading', returnPath: '/billing?success=true' })).toEqual({
      kind: 'redirect',
      to: '/billing?success=true',
    });
    expect(decideNavigation({ pathname: '/', session: 'signed-in', access: 'loading', returnPath: '/billing' })).toEqual({
      kind: 'redirect',
      to: '/dashboard',
    });
  });

  it('sends a signed-in user without valid access to the upgrade screen, except from billing', () => {
    for (const path of ['/dashboard', '/analytics', '/youtube', '/income', '/platforms']) {
      expect(decide(path, 'signed-in', 'invalid')).toEqual({ kind: 'redirect', to: '/billing?upgrade=true' });
    }
    expect(decide('/billing', 'signed-in', 'invalid')).toEqual({ kind: 'render' });
  });

  it('lets every signed-in user manage their account in Settings, and keeps signed-out users out of it', () => {
    expect(decide('/settings', 'signed-in', 'invalid')).toEqual({ kind: 'render' });
    expect(decide('/settings/', 'signed-in', 'loading')).toEqual({ kind: 'render' });
    expect(decide('/settings', 'signed-out')).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('renders auth routes for a signed-in user with valid access', () => {
    expect(decide('/dashboard', 'signed-in', 'valid')).toEqual({ kind: 'render' });
    expect(decide('/billing', 'signed-in', 'valid')).toEqual({ kind: 'render' });
  });

  it('waits while the subscription loads, and does not lock the user out when it fails', () => {
    expect(decide('/dashboard', 'signed-in', 'loading')).toEqual({ kind: 'wait' });
    expect(decide('/billing', 'signed-in', 'loading')).toEqual({ kind: 'render' });
    expect(decide('/dashboard', 'signed-in', 'error')).toEqual({ kind: 'render' });
  });

  it('waits while the session is checked, unless the screen does not depend on it', () => {
    expect(decide('/dashboard', 'checking')).toEqual({ kind: 'wait' });
    expect(decide('/', 'checking')).toEqual({ kind: 'wait' });
    expect(decide('/login', 'checking')).toEqual({ kind: 'wait' });
    expect(decide('/confirm-email', 'checking')).toEqual({ kind: 'render' });
  });

  it('public screens other than / and /login stay reachable when signed in', () => {
    expect(decide('/confirm-email', 'signed-in', 'invalid')).toEqual({ kind: 'render' });
    expect(decide('/resend-confirmation', 'signed-in', 'invalid')).toEqual({ kind: 'render' });
  });

  it('skips the guard on OAuth callbacks whatever the session', () => {
    for (const session of ['checking', 'signed-in', 'signed-out'] as const) {
      expect(decide('/auth/youtube/callback', session, 'invalid')).toEqual({ kind: 'render' });
    }
  });
});

describe('route helpers', () => {
  it('recognises OAuth callbacks', () => {
    expect(isOAuthCallback('/auth/youtube/callback')).toBe(true);
    expect(isOAuthCallback('/auth/patreon/callback/')).toBe(true);
    expect(isOAuthCallback('/auth/youtube')).toBe(false);
    expect(isOAuthCallback('/platforms/callback')).toBe(false);
  });

  it('requires valid access everywhere signed-in except billing', () => {
    expect(requiresValidAccess('/dashboard')).toBe(true);
    expect(requiresValidAccess('/billing')).toBe(false);
    expect(requiresValidAccess('/login')).toBe(false);
  });
});
