import { describe, expect, it } from 'vitest';
import { parseEmailChangeLink, unsubscribeToken } from './email-links';

const token = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

describe('email links', () => {
  it('reads the email change link, refusing partial or malformed ones', () => {
    expect(parseEmailChangeLink(new URLSearchParams(`userId=12&token=${token}`))).toEqual({ valid: true, userId: 12, token });
    expect(parseEmailChangeLink(new URLSearchParams(`token=${token}`))).toEqual({ valid: false });
    expect(parseEmailChangeLink(new URLSearchParams(`userId=abc&token=${token}`))).toEqual({ valid: false });
    expect(parseEmailChangeLink(new URLSearchParams('userId=12&token=short'))).toEqual({ valid: false });
    expect(parseEmailChangeLink(new URLSearchParams(`userId=0&token=${token}`))).toEqual({ valid: false });
  });

  it('reads the unsubscribe token', () => {
    expect(unsubscribeToken(new URLSearchParams(`token=${token}`))).toBe(token);
    expect(unsubscribeToken(new URLSearchParams('token=abc'))).toBeNull();
    expect(unsubscribeToken(new URLSearchParams(''))).toBeNull();
  });
});
