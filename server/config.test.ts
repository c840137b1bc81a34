import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, isLoopbackUrl, loadConfig, type TrustProxy } from './config.ts';

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
    expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'http://127.0.0.1:8080/' }).publicUrl).toBe('http://127.0.0.1:8080');
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
    expect(() => loadConfig({ DATA_DIR: tempDir(), SANDBOX: 'off' })).toThrow(/ENCRYPTION_KEYS: required without the sandbox \(off: SANDBOX=off\)[\s\S]*SMTP_URL[\s\S]*STRIPE_SECRET_KEY/);
  });

  it('parses several encryption keys for rotation and rejects a short key', () => {
    const v2 = Buffer.from('second-key-of-thirty-two-bytes!!').toString('base64');
    const v1 = Buffer.from('first-key-of-thirty-two-bytes!!!').toString('base64');
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

  it("reads X's monthly budget in USD: none when unset or empty, refused when negative or not a number", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).platformBudgetsUsd).toEqual({});
    expect(loadConfig({ DATA_DIR: tempDir(), X_MONTHLY_BUDGET_USD: '' }).platformBudgetsUsd).toEqual({});
    expect(loadConfig({ DATA_DIR: tempDir(), X_MONTHLY_BUDGET_USD: '25.50' }).platformBudgetsUsd).toEqual({ twitter: 25.5 });
    for (const refused of ['-1', 'twenty', '$25']) expect(() => loadConfig({ DATA_DIR: tempDir(), X_MONTHLY_BUDGET_USD: refused }), refused).toThrow(/X_MONTHLY_BUDGET_USD/);
  });

  it('does not look at NODE_ENV', () => {
    const a = loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production' });
    const b = loadConfig({ DATA_DIR: tempDir() });
    expect({ ...a, dataDir: '', encryptionKeys: [] }).toEqual({ ...b, dataDir: '', encryptionKeys: [] });
  });

  it('sends a configured, published LinkedIn version and refuses a December one (LinkedIn publishes none)', () => {
    const linkedin = (value?: string) => loadConfig({ DATA_DIR: tempDir(), LINKEDIN_API_VERSION: value }).platforms.linkedin.apiVersion;
    expect(linkedin()).toBe('202610');
    expect(linkedin('202701')).toBe('202701');
    expect(loadConfig({ DATA_DIR: tempDir() }).platforms.twitter.apiVersion).toBeUndefined();
    for (const refused of ['202612', '2026-10', '202613', 'latest']) expect(() => linkedin(refused), refused).toThrow(/LINKEDIN_API_VERSION.*no December version/s);
  });

  it('reads LinkedIn’s daily follower values as gains unless LINKEDIN_FOLLOWER_HISTORY says totals (unverified: a setting)', () => {
    const meaning = (value?: string) => loadConfig({ DATA_DIR: tempDir(), LINKEDIN_FOLLOWER_HISTORY: value }).platforms.linkedin.followerHistory;
    expect(meaning()).toBe('daily_gain');
    expect(meaning('running_total')).toBe('running_total');
    expect(loadConfig({ DATA_DIR: tempDir() }).platforms.instagram.followerHistory).toBeUndefined();
    expect(() => meaning('totals')).toThrow(/LINKEDIN_FOLLOWER_HISTORY/);
  });

  it('reads TRUST_PROXY as nothing trusted, a hop count or proxy addresses, and refuses to trust every hop', () => {
    const trustProxy = (value?: string) => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy;
    for (const off of [undefined, '', 'false', '0']) expect(trustProxy(off)).toBe(false);
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    // A hop count is a trust function of the hop (0 = the socket peer): Fastify 5 ignores a plain number.
    const trustsHops = (value: string) => {
      const trust = trustProxy(value);
      if (typeof trust !== 'function') throw new Error(`TRUST_PROXY=${value} is not a trust function`);
      return [0, 1, 2].map((hop) => trust('192.0.2.1', hop));
    };
    expect(trustsHops('1')).toEqual([true, false, false]);
    expect(trustsHops('2')).toEqual([true, true, false]);

    const refusal = (value: string) => {
      try {
        trustProxy(value);
      } catch (error) {
        expect(error, value).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return `TRUST_PROXY=${value} was accepted`;
    };
    for (const value of ['true', '-1', 'abc', '999.1.1.1/99', '10.0.0.0/33', '10.0.0.1,']) {
      expect(refusal(value), value).toMatch(/TRUST_PROXY: .*expected false, a hop count .* addresses or CIDRs \(e\.g\. 10\.0\.0\.0\/8,127\.0\.0\.1\)/);
    }
    expect(refusal('true')).toMatch(/TRUST_PROXY: trusting every hop lets clients choose their IP/);
    expect(refusal('999.1.1.1/99')).not.toContain('999');
  });

  it('gives Fastify a TRUST_PROXY it applies: request.ip is the nearest address not trusted', async () => {
    // X-Forwarded-For as a proxy at 10.1.2.3 forwards it: the client's own claim, then the client's address.
    const ipSeen = async (trustProxy: TrustProxy, remoteAddress: string) => {
      const app = Fastify({ trustProxy });
      app.get('/ip', async (request) => request.ip);
      const response = await app.inject({ url: '/ip', remoteAddress, headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } });
      await app.close();
      return response.body;
    };
    const config = (value?: string) => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy;
    expect(await ipSeen(config(), '10.1.2.3')).toBe('10.1.2.3');
    expect(await ipSeen(config('1'), '10.1.2.3')).toBe('203.0.113.7');
    expect(await ipSeen(config('2'), '10.1.2.3')).toBe('6.6.6.6');
    expect(await ipSeen(config('10.0.0.0/8'), '10.1.2.3')).toBe('203.0.113.7');
    // A peer outside the list is the client itself, whatever it claims.
    expect(await ipSeen(config('10.0.0.0/8'), '198.51.100.9')).toBe('198.51.100.9');
  });

  describe('fails closed (checklist 28)', () => {
    // Every secret a production start needs, valid and not a placeholder.
    const production = {
      PUBLIC_URL: 'https://analytics.example.com',
      ENCRYPTION_KEYS: `v1:${Buffer.from('first-key-of-thirty-two-bytes!!!').toString('base64')}`,
      SMTP_URL: 'smtp://mail.example.com:587',
      STRIPE_SECRET_KEY: 'sk_live_51Habcdefghijklmnop',
      STRIPE_WEBHOOK_SECRET: 'whsec_8d7f6e5d4c3b2a1908f7e6d5c4b3a291',
      STRIPE_PRICE_ID: 'price_1PqRsTuVwXyZ',
    };
    const problemsOf = (env: Record<string, string | undefined>) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
      return [];
    };

    it('checklist 28: the sandbox is on by default only while PUBLIC_URL is a loopback address', () => {
      for (const url of [undefined, 'http://localhost:3000', 'http://127.0.0.1:3000', 'http://127.8.9.10', 'http://[::1]:3000', 'http://app.localhost']) {
        expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: url }).sandbox, String(url)).toBe(true);
      }
      expect(loadConfig({ DATA_DIR: tempDir(), ...production }).sandbox).toBe(false);
      expect(loadConfig({ DATA_DIR: tempDir(), ...production, SANDBOX: 'off', PUBLIC_URL: 'http://localhost:3000' }).sandbox).toBe(false);
      for (const url of ['https://analytics.example.com', 'http://10.0.0.5', 'http://[2001:db8::1]', 'http://localhost.example.com', 'http://128.0.0.1']) {
        expect(isLoopbackUrl(url), url).toBe(false);
      }
    });

    it('checklist 28: a public PUBLIC_URL without secrets stops start-up naming every missing variable', () => {
      const problems = problemsOf({ PUBLIC_URL: 'https://analytics.example.com' });
      expect(problems.map((problem) => problem.split(':')[0])).toEqual(['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID']);
      expect(problems[0]).toMatch(/required without the sandbox \(off: PUBLIC_URL is not a loopback address\)/);
      // Asking for the sandbox behind a public address is refused rather than honoured.
      expect(problemsOf({ ...production, SANDBOX: 'on' })).toEqual(['SANDBOX: on is only allowed while PUBLIC_URL is a loopback address (localhost, 127.0.0.0/8, ::1)']);
    });

    it('the sandbox is on by default only while HOST is a loopback address, whatever PUBLIC_URL says', () => {
      for (const host of ['localhost', '127.0.0.1', '127.0.0.2', '::1', '[::1]', '0:0:0:0:0:0:0:1']) {
        expect(isLoopbackHost(host), host).toBe(true);
        expect(loadConfig({ DATA_DIR: tempDir(), HOST: host }).sandbox, host).toBe(true);
      }
      for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.com', 'localhost.example.com', '128.0.0.1', '::2', 'fe80::1%eth0']) {
        expect(isLoopbackHost(host), host).toBe(false);
      }
      // What `docker run -p 3000:3000 analytics-hub` was: the image's HOST=0.0.0.0 and no PUBLIC_URL. No stand-in
      // starts; start-up names what is missing and why the sandbox is off.
      const problems = problemsOf({ HOST: '0.0.0.0' });
      expect(problems.map((problem) => problem.split(':')[0])).toEqual(['ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'PUBLIC_URL']);
      expect(problems[0]).toBe('ENCRYPTION_KEYS: required without the sandbox (off: HOST 0.0.0.0 is not a loopback address)');
      // A real deployment on any interface starts, with the sandbox off.
      expect(loadConfig({ DATA_DIR: tempDir(), ...production, HOST: '0.0.0.0' }).sandbox).toBe(false);
      // Behind a proxy on the same machine (loopback HOST, public PUBLIC_URL) the sandbox stays off too.
      expect(loadConfig({ DATA_DIR: tempDir(), ...production, HOST: '127.0.0.1' }).sandbox).toBe(false);
    });

    it('SANDBOX=on on a non-loopback HOST stops start-up, saying why and what to set', () => {
      for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
        const problems = problemsOf({ HOST: host, SANDBOX: 'on' });
        // First the refusal, then (as without the sandbox) every variable a deployment still lacks.
        expect(problems.map((problem) => problem.split(':')[0]), host).toEqual(['SANDBOX', 'ENCRYPTION_KEYS', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'PUBLIC_URL']);
        expect(problems[0]).toMatch(new RegExp(`^SANDBOX: on would serve every email \\(/sandbox/mail\\), a fake Stripe and fake platform logins to anyone reaching HOST ${host.replaceAll('.', '\\.')};`));
        expect(problems[0]).toContain('set PUBLIC_URL and the real credentials (docs/deploy.md) and leave SANDBOX unset, or bind a loopback address (HOST=127.0.0.1)');
      }
      // The real credentials do not make the sandbox acceptable there: the request itself is refused.
      expect(problemsOf({ ...production, PUBLIC_URL: undefined, HOST: '0.0.0.0', SANDBOX: 'on' }).map((problem) => problem.split(':')[0])).toEqual(['SANDBOX', 'PUBLIC_URL']);
      expect(loadConfig({ DATA_DIR: tempDir(), HOST: '127.0.0.1', SANDBOX: 'on' }).sandbox).toBe(true);
    });

    it('SANDBOX_PRIVATE_HOST vouches for a non-loopback HOST (a container published on 127.0.0.1), never a public PUBLIC_URL', () => {
      expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0', SANDBOX: 'on', SANDBOX_PRIVATE_HOST: 'yes' }).sandbox).toBe(true);
      expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0', SANDBOX_PRIVATE_HOST: 'yes' }).sandbox).toBe(true);
      expect(problemsOf({ HOST: '0.0.0.0', SANDBOX: 'on', SANDBOX_PRIVATE_HOST: 'no' })[0]).toMatch(/^SANDBOX: on would serve every email/);
      expect(problemsOf({ ...production, HOST: '0.0.0.0', SANDBOX: 'on', SANDBOX_PRIVATE_HOST: 'yes' })).toEqual([
        'SANDBOX: on is only allowed while PUBLIC_URL is a loopback address (localhost, 127.0.0.0/8, ::1)',
      ]);
      expect(loadConfig({ DATA_DIR: tempDir(), ...production, HOST: '0.0.0.0', SANDBOX_PRIVATE_HOST: 'yes' }).sandbox).toBe(false);
    });

    it('checklist 28: a partial Stripe configuration is refused, naming what is missing, with the sandbox on or off', () => {
      expect(problemsOf({ STRIPE_SECRET_KEY: production.STRIPE_SECRET_KEY })).toEqual([
        'STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (Stripe needs the secret key, the webhook secret and the price together)',
        'STRIPE_PRICE_ID: required with STRIPE_SECRET_KEY (Stripe needs the secret key, the webhook secret and the price together)',
      ]);
      expect(problemsOf({ ...production, STRIPE_PRICE_ID: undefined }).map((problem) => problem.split(':')[0])).toEqual(['STRIPE_PRICE_ID']);
    });

    it('checklist 28: placeholder secrets are refused, naming the variable and never the value', () => {
      const cases: [string, string][] = [
        ['STRIPE_WEBHOOK_SECRET', 'whsec_'],
        ['STRIPE_WEBHOOK_SECRET', 'whsec_xxxxxxxxxxxxxxxx'],
        ['STRIPE_SECRET_KEY', 'sk_live_changeme'],
        ['STRIPE_SECRET_KEY', 'sk_test_'],
        ['STRIPE_PRICE_ID', 'price_'],
        ['ENCRYPTION_KEYS', `v1:${Buffer.alloc(32).toString('base64')}`],
        ['ENCRYPTION_KEYS', `v1:${Buffer.alloc(32, 0xff).toString('base64')}`],
        ['ENCRYPTION_KEYS', `v1:${Buffer.from('too-short-key').toString('base64')}`],
      ];
      for (const [variable, value] of cases) {
        const problems = problemsOf({ ...production, [variable]: value });
        expect(problems, `${variable}=${value}`).toHaveLength(1);
        expect(problems[0]!.startsWith(`${variable}:`), problems[0]).toBe(true);
        if (value.length > 8) expect(problems[0]).not.toContain(value);
      }
      expect(problemsOf(production)).toEqual([]);
    });
  });
});

// Checklist 28's grep gate: no real secret is committed. Test fixtures below are the only look-alikes, and are listed.
describe('checklist 28: no secret in the repository', () => {
  const root = path.resolve(import.meta.dirname, '..');
  /** Shapes of real credentials: Stripe keys and webhook secrets, private keys, cloud and chat tokens, Google API keys. */
  const SECRET_SHAPES = [
    /\b[sr]k_(live|test)_[A-Za-z0-9]{16,}/g,
    /\bwhsec_[A-Za-z0-9]{16,}/g,
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/g,
    /\bAKIA[0-9A-Z]{16}\b/g,
    /\bxox[abpr]-[0-9A-Za-z-]{10,}/g,
    /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
    /\bAIza[0-9A-Za-z_-]{35}\b/g,
  ];
  /** Made-up values the configuration tests feed in (they must look real to pass validation). */
  const KNOWN_FIXTURES = new Set(['sk_live_51Habcdefghijklmnop', 'sk_test_51Habcdefghijklmnop', 'whsec_8d7f6e5d4c3b2a1908f7e6d5c4b3a291', 'whsec_xxxxxxxxxxxxxxxx']);

  /** Tracked files (git ls-files), or every file but dependencies and build output where git is missing. */
  function repositoryFiles(): string[] {
    try {
      return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
    } catch {
      const walk = (directory: string): string[] =>
        readdirSync(path.join(root, directory)).flatMap((name) => {
          const relative = path.join(directory, name);
          if (['node_modules', 'dist', 'data', '.git', 'test-results', 'playwright-report'].includes(name)) return [];
          return statSync(path.join(root, relative)).isDirectory() ? walk(relative) : [relative];
        });
      return walk('');
    }
  }

  it('checklist 28: no tracked file holds a credential-shaped string other than the listed test fixtures, and no .env file is tracked', () => {
    const files = repositoryFiles();
    expect(files).toContain('package.json');
    expect(files.filter((file) => /(^|\/)\.env$/.test(file))).toEqual([]);
    const found: string[] = [];
    for (const file of files.filter((name) => name !== 'package-lock.json')) {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), 'utf8');
      } catch {
        continue; // a file listed by git but absent from this checkout (a deleted, uncommitted file)
      }
      for (const shape of SECRET_SHAPES) for (const match of text.matchAll(shape)) if (!KNOWN_FIXTURES.has(match[0])) found.push(`${file}: ${match[0].slice(0, 12)}…`);
    }
    expect(found).toEqual([]);
  });

  it('checklist 28: package.json scripts set no secret, and .env.example leaves every secret empty', () => {
    const scripts = Object.values((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts).join('\n');
    expect(scripts).not.toMatch(/(KEY|SECRET|TOKEN|PASSWORD|ENCRYPTION_KEYS|SMTP_URL|DATABASE_URL)=/i);
    const example = Object.fromEntries(
      readFileSync(path.join(root, '.env.example'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const secretVariables = Object.keys(example).filter((name) => /KEY|SECRET|TOKEN|PASSWORD|SMTP_URL|DATABASE_URL/.test(name));
    expect(secretVariables).toEqual(expect.arrayContaining(['ENCRYPTION_KEYS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL', 'DATABASE_URL']));
    for (const name of secretVariables) expect({ name, value: example[name] }).toEqual({ name, value: '' });
  });
});
