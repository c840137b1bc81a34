import { describe, expect, it } from 'vitest';
import { loginRedirectState, returnPathAfterLogin } from './routes';

describe('returnPathAfterLogin', () => {
  it('returns to the page the guard came from', () => {
    expect(returnPathAfterLogin(loginRedirectState('/billing', '?success=true&session_id=cs_1'))).toBe(
      '/billing?success=true&session_id=cs_1',
    );
  });

  it('falls back to the dashboard for anything else', () => {
    expect(returnPathAfterLogin(undefined)).toBe('/dashboard');
    expect(returnPathAfterLogin({ from: 'https://evil.example' })).toBe('/dashboard');
    expect(returnPathAfterLogin({ from: '//evil.example' })).toBe('/dashboard');
    expect(returnPathAfterLogin({ from: '/login' })).toBe('/dashboard');
    expect(returnPathAfterLogin({ from: 42 })).toBe('/dashboard');
  });
});
