// argon2id at the OWASP parameters (19 MiB, 2 iterations, 1 lane); the parameters travel in the hash
// string, so raising them later only affects new hashes.
import { hash, verify } from '@node-rs/argon2';

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

// The most common passwords of 8+ characters in public breach lists; a guesser tries these first.
const COMMON_PASSWORDS = new Set([
  'password', 'password1', 'password12', 'password123', 'password1234', '12345678', '123456789', '1234567890',
  '12345678910', 'qwertyuiop', 'qwerty123', 'qwerty1234', '1q2w3e4r', '1q2w3e4r5t', 'iloveyou', 'iloveyou1',
  'sunshine', 'princess', 'football', 'baseball', 'welcome1', 'welcome123', 'abc12345', 'abcd1234', 'admin123',
  'administrator', 'letmein1', 'trustno1', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'superman', 'starwars',
  'whatever', 'michael1', 'charlie1', 'computer', 'internet', 'dragon12', 'monkey12', 'shadow12', 'master12',
  'football1', 'baseball1', '11111111', '00000000', '88888888', '87654321', '12341234', '123123123', 'asdfghjkl',
  'asdf1234', 'zxcvbnm1', 'changeme', 'changeme1', 'qwertyui', 'aaaaaaaa', 'analyticshub', 'analytics',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
