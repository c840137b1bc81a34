import { describe, expect, it } from 'vitest';
import { accountHandle } from './platform-connections';

describe('accountHandle', () => {
  it('shows @username, without doubling an @ the platform already sent', () => {
    expect(accountHandle({ platformUsername: 'maya', platformUserId: 'UC123' })).toBe('@maya');
    expect(accountHandle({ platformUsername: '@maya', platformUserId: 'UC123' })).toBe('@maya');
  });

  it("without a username, the account's name (LinkedIn's sign-in gives no username), never a raw id when a name is known", () => {
    expect(accountHandle({ platformUsername: null, platformUserId: 'n6qzOlnk-y', displayName: 'Maya Lopez' })).toBe('Maya Lopez');
    expect(accountHandle({ platformUsername: null, platformUserId: 'n6qzOlnk-y', displayName: '  ' })).toBe('n6qzOlnk-y');
  });

  it('falls back to the platform user id', () => {
    expect(accountHandle({ platformUsername: null, platformUserId: 'UC123' })).toBe('UC123');
    expect(accountHandle({ platformUsername: '  ', platformUserId: 'UC123' })).toBe('UC123');
  });
});
