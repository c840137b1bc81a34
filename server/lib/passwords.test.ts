import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './passwords.ts';

describe('checklist 5: common passwords', () => {
  it('refuses the breach lists\' most common passwords, whatever their case, down to the 10,000th', () => {
    for (const password of ['password', 'Password', 'PASSWORD1', 'qwertyuiop', 'iloveyou', 'trustno1', '1q2w3e4r', 'sunshine', 'analyticshub']) {
      expect(isCommonPassword(password), password).toBe(true);
    }
    // Near the end of the top 10,000 (ranked 9,996 to 10,000 in the list).
    expect(isCommonPassword('24081990')).toBe(true);
  });

  it('refuses a listed password behind trailing digits and symbols or common substitutions (issue 24)', () => {
    for (const password of ['Password!', 'P@ssw0rd1', 'qwerty123!', 'Sunshine2024!!', 'ILOVEYOU!', 'p@$$w0rd', 'Tru$tno1', 'l3tm31n', 'dragon#1']) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });

  it('accepts what is not on the list', () => {
    for (const password of ['a long test passphrase', 'correct horse battery staple', 'Zebra-Quantum-Mango-47', 'Kettle-Orbit-93!', 'plum tram 1984 g@rden']) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });
});
