// argon2id at the OWASP parameters (19 MiB, 2 iterations, 1 lane); the parameters travel in the hash
// string, so raising them later only affects new hashes.
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// Algorithm.Argon2id; the package's enum is a const enum, which isolated modules cannot read.
const ARGON2ID = 2;

const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the username is unknown, so an unknown user costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-only-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

/**
 * The 10,000 most common passwords of public breach lists, most common first, from the maintained list zxcvbn-ts
 * ships as data (@zxcvbn-ts/language-common, MIT, pinned), plus the product's own name: a guesser tries these
 * first. Compared case-insensitively.
 */
const COMMON_PASSWORD_COUNT = 10_000;
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  ...dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT).map((entry) => entry.toLowerCase()),
  'analyticshub',
  'analytics hub',
]);

/** Digits and symbols written for letters: each is undone to every letter it may stand for. */
const LETTER_FOR: Readonly<Record<string, readonly string[]>> = { '@': ['a'], '0': ['o'], '1': ['i', 'l'], '3': ['e'], '$': ['s'] };

/** The password with every substituted letter undone, once per reading of an ambiguous one ("1" as i, and as l). */
function substitutionsUndone(password: string): string[] {
  const readings = new Set<string>();
  for (const choice of [0, 1]) {
    readings.add([...password].map((character) => LETTER_FOR[character]?.[Math.min(choice, LETTER_FOR[character]!.length - 1)] ?? character).join(''));
  }
  return [...readings];
}

/** The password without the digits and symbols people add at its end to pass a rule ("Password!", "qwerty123!"). */
const withoutTrailingDigitsAndSymbols = (password: string) => password.replace(/[^\p{L}]+$/u, '');

/**
 * True when the password is on the list as it is, or once lower-cased, stripped of trailing digits and symbols, and
 * with common substitutions undone (@→a, 0→o, 1→i or l, 3→e, $→s), in either order: "Password!", "P@ssw0rd1" and
 * "qwerty123!" are the list's words to a guesser, who tries those variations first.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const candidates = new Set<string>([lower]);
  for (const undone of substitutionsUndone(lower)) {
    candidates.add(undone);
    candidates.add(withoutTrailingDigitsAndSymbols(undone));
  }
  const stripped = withoutTrailingDigitsAndSymbols(lower);
  candidates.add(stripped);
  for (const undone of substitutionsUndone(stripped)) candidates.add(undone);
  // A word of one or two letters left over ("a!!!!!!!") is not a listed password but what was left of one.
  return [...candidates].some((candidate) => candidate.length >= 3 && COMMON_PASSWORDS.has(candidate)) || COMMON_PASSWORDS.has(lower);
}
