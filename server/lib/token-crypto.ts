// Encryption at rest for platform tokens (docs/security.md#token-encryption): AES-256-GCM, a random 96-bit IV per
// encryption, a 128-bit tag, and the row the value belongs to as associated data, so a ciphertext copied into
// another row (or another column) does not decrypt. Envelopes name their key version, `v<n>:<base64 iv|tag|ciphertext>`:
// the first configured key encrypts, every configured key decrypts, and `reencrypt` moves a value to the
// current key (key rotation: add the new key first, re-encrypt, then drop the old one).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENVELOPE_PATTERN = /^(v\d+):([A-Za-z0-9+/]+={0,2})$/;

export interface EncryptionKey {
  version: string;
  key: Buffer;
}

/**
 * Why a value does not decrypt. `unknown_key`: the envelope names a key version this process is not configured with,
 * a configuration error (the row is fine; the operator must add the key). `authentication`: the tag does not match,
 * the value was tampered with or copied from another row, and only a new grant helps. `malformed`: not an envelope.
 */
export type TokenCryptoFailure = 'unknown_key' | 'authentication' | 'malformed' | 'configuration';

export class TokenCryptoError extends Error {
  constructor(
    message: string,
    readonly failure: TokenCryptoFailure = 'configuration',
  ) {
    super(message);
    this.name = 'TokenCryptoError';
  }
}

/** The associated data binding a value to its row and column, e.g. `platform_connections:42:access_token`. */
export const rowBinding = (table: string, id: number | string, column: string) => `${table}:${id}:${column}`;

export function createTokenCrypto(keys: readonly EncryptionKey[]) {
  if (keys.length === 0) throw new TokenCryptoError('No encryption key configured');
  for (const { version, key } of keys) {
    if (!/^v\d+$/.test(version)) throw new TokenCryptoError(`Invalid encryption key version "${version}"`);
    if (key.length !== 32) throw new TokenCryptoError(`Encryption key ${version} must be 32 bytes`);
  }
  const current = keys[0]!;
  const byVersion = new Map(keys.map((entry) => [entry.version, entry.key]));

  function encrypt(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${current.version}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  function parse(envelope: string): { version: string; iv: Buffer; tag: Buffer; ciphertext: Buffer } {
    const match = ENVELOPE_PATTERN.exec(envelope);
    if (!match) throw new TokenCryptoError('Not an encrypted value', 'malformed');
    const bytes = Buffer.from(match[2]!, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new TokenCryptoError('Encrypted value is truncated', 'malformed');
    return { version: match[1]!, iv: bytes.subarray(0, IV_BYTES), tag: bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES), ciphertext: bytes.subarray(IV_BYTES + TAG_BYTES) };
  }

  function decrypt(envelope: string, associatedData: string): string {
    const { version, iv, tag, ciphertext } = parse(envelope);
    const key = byVersion.get(version);
    if (!key) throw new TokenCryptoError(`Unknown encryption key version ${version}: it is not among the configured ENCRYPTION_KEYS`, 'unknown_key');
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new TokenCryptoError(`Encrypted value failed authentication (key ${version}): tampered, or bound to another row`, 'authentication');
    }
  }

  /** Whether this process holds the key an envelope names (a malformed envelope: false). */
  function knowsKeyOf(envelope: string): boolean {
    try {
      return byVersion.has(parse(envelope).version);
    } catch {
      return false;
    }
  }

  /** The key version an envelope was made with. */
  function versionOf(envelope: string): string {
    return parse(envelope).version;
  }

  /** True when the value is not under the current key. */
  function needsReencryption(envelope: string): boolean {
    return versionOf(envelope) !== current.version;
  }

  /** The same value under the current key; unchanged (same string) when it already is, so reruns are no-ops. */
  function reencrypt(envelope: string, associatedData: string): string {
    if (!needsReencryption(envelope)) {
      decrypt(envelope, associatedData); // still proves the value is intact and bound to this row
      return envelope;
    }
    return encrypt(decrypt(envelope, associatedData), associatedData);
  }

  return { encrypt, decrypt, versionOf, knowsKeyOf, needsReencryption, reencrypt, currentVersion: current.version };
}

export type TokenCrypto = ReturnType<typeof createTokenCrypto>;
