import { describe, expect, it } from 'vitest';
import { accountHandle } from './platform-connections';

describe('accountHandle', () => {
  it('shows @username, without doubling an @ the platform already sent', () => {
    expect(accountHandle({ platformUsername: 'maya', platformUserId: 'UC123' })).toBe('@maya');
    expect(accountHandle({ platformUsername: '@maya', platformUserId: 'UC123' })).toBe('@maya');
  });

  it('falls back to the platform user id', () => {
    expect(accountHandle({ platformUsername: null, platformUserId: 'UC123' })).toBe('UC123');
    expect(accountHandle({ platformUsername: '  ', platformUserId: 'UC123' })).toBe('UC123');
  });
});
