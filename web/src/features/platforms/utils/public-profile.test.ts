import { describe, expect, it } from 'vitest';
import { handleError } from './public-profile';

describe('handleError', () => {
  it('accepts handles and profile addresses', () => {
    expect(handleError('@maya')).toBeNull();
    expect(handleError(' maya_creates ')).toBeNull();
    expect(handleError('https://www.youtube.com/@maya')).toBeNull();
  });

  it('explains what is missing or wrong', () => {
    expect(handleError('   ')).toBe('Enter a handle (like @creator) or a profile address.');
    expect(handleError('@')).toBe('Add the name after the @.');
    expect(handleError('maya creates')).toBe('A handle or address has no spaces.');
    expect(handleError('a'.repeat(301))).toBe('Use at most 300 characters.');
  });
});
