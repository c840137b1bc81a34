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

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
