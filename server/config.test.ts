import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const directories: string[] = [];
const tempDir = () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'ah-config-'));
  directories.push(directory);
  return directory;
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has working defaults for a newcomer and generates the encryption key once into DATA_DIR', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 3000, host: 'localhost', publicUrl: 'http://localhost:3000', sandbox: true, isStripeConfigured: false, isSmtpConfigured: false });
    expect(config.encryptionKeys).toHaveLength(1);
    expect(config.encryptionKeys[0]!.key).toHaveLength(32);
    const stored = readFileSync(path.join(dataDir, 'encryption-keys'), 'utf8');
    expect(loadConfig({ DATA_DIR: dataDir }).encryptionKeys[0]!.key.equals(config.encryptionKeys[0]!.key)).toBe(true);
    expect(stored).toMatch(/^v1:/);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
    expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://app.example.com/' }).publicUrl).toBe('https://app.example.com');
  });

  it('names every bad variable, never its value', () => {
    try {
      loadConfig({ DATA_DIR: tempDir(), PORT: 'eighty', DATABASE_URL: 'mysql://secret-password@host/db', STRIPE_SECRET_KEY: 'pk_live_oops' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('STRIPE_SECRET_KEY');
      expect(message).not.toContain('secret-password');
      expect(message).not.toContain('pk_live_oops');
    }
  });

  it('refuses to start with the sandbox off and secrets missing', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), SANDBOX: 'off' })).toThrow(/ENCRYPTION_KEYS: required when SANDBOX=off[\s\S]*SMTP_URL[\s\S]*STRIPE_SECRET_KEY/);
  });

  it('parses several encryption keys for rotation and rejects a short key', () => {
    const v2 = Buffer.alloc(32, 2).toString('base64');
    const v1 = Buffer.alloc(32, 1).toString('base64');
    const config = loadConfig({ DATA_DIR: tempDir(), ENCRYPTION_KEYS: `v2:${v2},v1:${v1}` });
    expect(config.encryptionKeys.map((key) => key.version)).toEqual(['v2', 'v1']);
    expect(() => loadConfig({ DATA_DIR: tempDir(), ENCRYPTION_KEYS: `v1:${Buffer.alloc(16).toString('base64')}` })).toThrow(/ENCRYPTION_KEYS/);
  });

  it('configures insight rewriting only with both the OpenAI-compatible base URL and key', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).insightRewriting).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), OPENAI_API_KEY: 'sk-x' }).insightRewriting).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_API_KEY: 'sk-x' }).insightRewriting).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini',
    });
    expect(() => loadConfig({ DATA_DIR: tempDir(), OPENAI_BASE_URL: 'ftp://models.example.com', OPENAI_API_KEY: 'sk-x' })).toThrow(/OPENAI_BASE_URL/);
  });

  it('does not look at NODE_ENV', () => {
    const a = loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production' });
    const b = loadConfig({ DATA_DIR: tempDir() });
    expect({ ...a, dataDir: '', encryptionKeys: [] }).toEqual({ ...b, dataDir: '', encryptionKeys: [] });
  });
});
