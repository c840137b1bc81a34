import { describe, expect, it } from 'vitest';
import { INVALID_LINK, MISSING_PARAMETERS, parseConfirmationLink } from './confirmation-link';

const parse = (query: string) => parseConfirmationLink(new URLSearchParams(query));

describe('parseConfirmationLink', () => {
  it('needs both userId and token', () => {
    expect(parse('')).toEqual({ valid: false, reason: MISSING_PARAMETERS });
    expect(parse('userId=4')).toEqual({ valid: false, reason: MISSING_PARAMETERS });
    expect(parse('token=abc')).toEqual({ valid: false, reason: MISSING_PARAMETERS });
  });

  it('needs a positive integer userId', () => {
    expect(parse('userId=abc&token=t')).toEqual({ valid: false, reason: INVALID_LINK });
    expect(parse('userId=1.5&token=t')).toEqual({ valid: false, reason: INVALID_LINK });
    expect(parse('userId=0&token=t')).toEqual({ valid: false, reason: INVALID_LINK });
  });

  it('reads a valid link, userId as a number', () => {
    expect(parse('userId=42&token=abc-123')).toEqual({ valid: true, userId: 42, token: 'abc-123' });
  });
});
