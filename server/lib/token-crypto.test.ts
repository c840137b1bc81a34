// Encryption at rest for platform tokens (docs/security.md#token-encryption).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCrypto, rowBinding, TokenCryptoError } from './token-crypto.ts';

const key = (version: string) => ({ version, key: randomBytes(32) });
const ACCESS = rowBinding('platform_connections', 42, 'access_token');

describe('checklist 26: token envelopes (encryption at rest)', () => {
  const v1 = key('v1');
  const crypto = createTokenCrypto([v1]);

  it('are v<n>:<base64 iv|tag|ciphertext>, never the plaintext, and decrypt with the same binding', () => {
    const token = 'ya29.a0Af-secret-access-token';
    const envelope = crypto.encrypt(token, ACCESS);
    expect(envelope).toMatch(/^v1:[A-Za-z0-9+/]+={0,2}$/);
    expect(envelope).not.toContain(token);
    const bytes = Buffer.from(envelope.slice(3), 'base64');
    expect(bytes.length).toBe(12 + 16 + Buffer.byteLength(token));
    expect(crypto.decrypt(envelope, ACCESS)).toBe(token);
    expect(crypto.versionOf(envelope)).toBe('v1');
  });

  it('checklist 26: use a fresh IV every time: 10,000 encryptions, 10,000 different IVs', () => {
    const ivs = new Set<string>();
    for (let index = 0; index < 10_000; index += 1) {
      ivs.add(Buffer.from(crypto.encrypt('same token', ACCESS).slice(3), 'base64').subarray(0, 12).toString('hex'));
    }
    expect(ivs.size).toBe(10_000);
  });

  it('checklist 26: fail authentication when any byte is flipped (IV, tag or ciphertext)', () => {
    const envelope = crypto.encrypt('refresh-token-value', ACCESS);
    const bytes = Buffer.from(envelope.slice(3), 'base64');
    for (const position of [0, 11, 12, 27, 28, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[position]! ^= 0x01;
      expect(() => crypto.decrypt(`v1:${tampered.toString('base64')}`, ACCESS)).toThrow(TokenCryptoError);
    }
  });

  it('checklist 26: are bound to their row and column (AAD): a copy in another row or column does not decrypt', () => {
    const envelope = crypto.encrypt('token-of-row-42', ACCESS);
    expect(() => crypto.decrypt(envelope, rowBinding('platform_connections', 43, 'access_token'))).toThrow(/failed authentication/);
    expect(() => crypto.decrypt(envelope, rowBinding('platform_connections', 42, 'refresh_token'))).toThrow(/failed authentication/);
  });

  it('checklist 27: name an unknown key version explicitly, and refuse what is not an envelope', () => {
    const envelope = crypto.encrypt('x', ACCESS).replace(/^v1:/, 'v9:');
    expect(() => crypto.decrypt(envelope, ACCESS)).toThrow('Unknown encryption key version v9');
    expect(() => crypto.decrypt('plain-token', ACCESS)).toThrow('Not an encrypted value');
    expect(() => crypto.decrypt('v1:AAAA', ACCESS)).toThrow('truncated');
  });

  it('refuse keys of the wrong size or with a malformed version', () => {
    expect(() => createTokenCrypto([])).toThrow(TokenCryptoError);
    expect(() => createTokenCrypto([{ version: 'v1', key: randomBytes(16) }])).toThrow('must be 32 bytes');
    expect(() => createTokenCrypto([{ version: 'one', key: randomBytes(32) }])).toThrow('Invalid encryption key version');
  });
});

describe('checklist 27: key rotation', () => {
  const v1 = key('v1');
  const v2 = key('v2');

  it('keeps old values readable once a new key is first, and moves them to the new key idempotently', () => {
    const before = createTokenCrypto([v1]);
    const stored = before.encrypt('long-lived-token', ACCESS);

    const rotated = createTokenCrypto([v2, v1]);
    expect(rotated.decrypt(stored, ACCESS)).toBe('long-lived-token');
    expect(rotated.needsReencryption(stored)).toBe(true);
    expect(rotated.encrypt('new', ACCESS)).toMatch(/^v2:/);

    const moved = rotated.reencrypt(stored, ACCESS);
    expect(moved).toMatch(/^v2:/);
    expect(rotated.needsReencryption(moved)).toBe(false);
    // A second run changes nothing.
    expect(rotated.reencrypt(moved, ACCESS)).toBe(moved);

    // Once v1 is dropped, the moved value still reads; the old one names the missing version.
    const afterRemoval = createTokenCrypto([v2]);
    expect(afterRemoval.decrypt(moved, ACCESS)).toBe('long-lived-token');
    expect(() => afterRemoval.decrypt(stored, ACCESS)).toThrow('Unknown encryption key version v1');
  });

  it('does not re-encrypt a value bound to another row', () => {
    const rotated = createTokenCrypto([v2, v1]);
    const stored = createTokenCrypto([v1]).encrypt('token', ACCESS);
    expect(() => rotated.reencrypt(stored, rowBinding('platform_connections', 7, 'access_token'))).toThrow(TokenCryptoError);
  });
});
