// What every platform's authorization server has in common: registered clients, pending consent requests,
// single-use authorization codes bound to client + redirect URI + PKCE challenge, grants (one per consent) and the
// access and refresh tokens issued under them, refresh-token rotation with reuse detection (RFC 9700 §4.14:
// presenting a spent refresh token revokes the whole family) and revocation. Platform files decide lifetimes,
// token formats and error shapes; this file only keeps the books.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { PlatformName } from './demo-accounts.ts';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Cryptographically random characters from `alphabet` (credentials, tokens: these must never be guessable). */
export function randomChars(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** An opaque token: a platform-ish prefix and 256 random bits. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** A short, non-reversible name for a secret, safe to show in test output and logs. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Fresh credentials per sandbox start, in each platform's usual format. */
export function generateCredentials(): Record<PlatformName, ClientCredentials> {
  return {
    youtube: {
      clientId: `${randomChars('0123456789', 12)}-sbx${randomChars(LOWER_ALPHANUMERIC, 29)}.apps.googleusercontent.com`,
      clientSecret: `GOCSPX-${randomToken('', 21)}`,
    },
    instagram: { clientId: `${randomInt(1, 10)}${randomChars('0123456789', 15)}`, clientSecret: randomBytes(16).toString('hex') },
    tiktok: { clientId: `sbx${randomChars(LOWER_ALPHANUMERIC, 13)}`, clientSecret: randomChars(ALPHANUMERIC, 32) },
    twitter: { clientId: Buffer.from(`sbx${randomChars(ALPHANUMERIC, 19)}:1:ci`).toString('base64url'), clientSecret: randomToken('', 37) },
    linkedin: { clientId: `78sbx${randomChars(LOWER_ALPHANUMERIC, 9)}`, clientSecret: `WPL_AP1.${randomChars(ALPHANUMERIC, 16)}.${randomChars(ALPHANUMERIC, 8)}==` },
    patreon: { clientId: randomChars(ALPHANUMERIC, 64), clientSecret: randomChars(ALPHANUMERIC + '-_', 64) },
  };
}

export interface AppKeys {
  /** YouTube Data API key, sent as `key=` on public lookups. */
  youtubeApiKey: string;
  /** X app-only bearer token (already percent-encoded in places, as real ones are: send it verbatim). */
  twitterBearerToken: string;
}

export function generateAppKeys(): AppKeys {
  return {
    youtubeApiKey: `AIzaSy${randomChars(ALPHANUMERIC + '-_', 33)}`,
    twitterBearerToken: `AAAAAAAAAAAAAAAAAAAAA${randomChars(ALPHANUMERIC, 20)}%2B${randomChars(ALPHANUMERIC, 24)}%3D${randomChars(ALPHANUMERIC, 50)}`,
  };
}

/** Constant-time string comparison for secrets. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The redirect URIs registered for every sandbox client: any loopback http URI whose path ends in
 * `/auth/<platform>/callback` (no query, no fragment, written in normalised form), plus exact extra URIs.
 */
export function isRegisteredRedirectUri(platform: PlatformName, uri: string, extra: readonly string[]): boolean {
  if (extra.includes(uri)) return true;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1')) return false;
  if (url.username || url.password || url.search || url.hash || uri !== url.href) return false;
  return url.pathname.endsWith(`/auth/${platform}/callback`);
}

export type PkceMethod = 'S256' | 'plain';
/**
 * How an S256 challenge encodes SHA-256 of the verifier: RFC 7636's base64url, or TikTok's lower-case hex
 * (platform-apis-corrections.md row 8).
 */
export type PkceEncoding = 'base64url' | 'hex';

const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * The format check at the authorization endpoint. A hex-verifying platform (TikTok) takes any unreserved-character
 * challenge there and refuses a wrong encoding only at the token exchange, as observed (corrections row 8).
 */
export function isValidCodeChallenge(challenge: string, method: PkceMethod, encoding: PkceEncoding = 'base64url'): boolean {
  return method === 'S256' && encoding === 'base64url' ? /^[A-Za-z0-9_-]{43}$/.test(challenge) : VERIFIER_PATTERN.test(challenge);
}

/** RFC 7636 §4.6, with SHA-256 encoded as the platform verifies it. */
export function verifyPkce(challenge: string, method: PkceMethod, verifier: string, encoding: PkceEncoding = 'base64url'): boolean {
  if (!VERIFIER_PATTERN.test(verifier)) return false;
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest(encoding) : verifier;
  return secretsEqual(computed, challenge);
}

/** A validated authorization request, as the consent page and the code remember it. */
export interface AuthorizationRequest {
  platform: PlatformName;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge?: string;
  codeChallengeMethod?: PkceMethod;
  /** Every query parameter as sent, for platform extras such as Google's `access_type` and `prompt`. */
  query: Record<string, string>;
}

export interface AuthorizationCode {
  code: string;
  request: AuthorizationRequest;
  accountIndex: number;
  grantedScopes: string[];
  /** Platform-specific facts decided at consent time (e.g. Google: whether this code yields a refresh token). */
  extras: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
  usedAt?: Date;
  /** The grant the code was redeemed for (revoked if the code is presented again). */
  grant?: Grant;
}

export interface Grant {
  id: string;
  platform: PlatformName;
  clientId: string;
  accountIndex: number;
  scopes: string[];
  createdAt: Date;
  revokedAt?: Date;
}

export type TokenType = 'access_token' | 'refresh_token';

export interface TokenRecord {
  token: string;
  type: TokenType;
  grant: Grant;
  issuedAt: Date;
  /** null: does not expire on its own. */
  expiresAt: Date | null;
  /** A rotated refresh token: when it was exchanged for its successor. */
  usedAt?: Date;
  revokedAt?: Date;
  /** Platform-specific kind, e.g. Instagram's `short_lived` / `long_lived`. */
  variant?: string;
}

export type RevocationReason = 'revoked' | 'refresh_token_reuse' | 'code_reuse';

export interface RevokedToken {
  platform: PlatformName;
  tokenType: TokenType;
  /** Index of the demo account the token belonged to. */
  account: number;
  reason: RevocationReason;
  /** `fingerprint(token)`: compare with `fingerprint(yourToken)` or use `sandbox.isRevoked(token)`. */
  fingerprint: string;
  at: Date;
}

export type AccessCheck = { ok: true; record: TokenRecord; grant: Grant } | { ok: false; reason: 'unknown' | 'expired' | 'revoked'; record?: TokenRecord };

export type CodeRedemption =
  | { ok: true; code: AuthorizationCode }
  | { ok: false; reason: 'unknown' | 'reused' | 'expired' | 'wrong_client' | 'redirect_mismatch' | 'verifier_missing' | 'verifier_mismatch' | 'verifier_unexpected' };

export type RefreshUse =
  | { ok: true; record: TokenRecord; grant: Grant }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' | 'wrong_client' };

/** Authorization codes live 10 minutes (RFC 6749 §4.1.2 recommends at most that). */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** How long a consent page may stay open before its buttons stop working. */
export const PENDING_LIFETIME_MS = 60 * 60 * 1000;

const addMs = (date: Date, ms: number) => new Date(date.getTime() + ms);

/**
 * What outlives a restart of the sandbox (platform-sandbox.ts writes it to its state file): the grants and every
 * token issued under them, as a platform keeps them. Consent pages and authorization codes live minutes and are not
 * kept: a restart in the middle of a consent means starting it again, as after a dropped connection.
 */
export interface OAuthStoreSnapshot {
  grants: (Omit<Grant, 'createdAt' | 'revokedAt'> & { createdAt: string; revokedAt?: string })[];
  tokens: (Omit<TokenRecord, 'grant' | 'issuedAt' | 'expiresAt' | 'usedAt' | 'revokedAt'> & {
    grantId: string;
    issuedAt: string;
    expiresAt: string | null;
    usedAt?: string;
    revokedAt?: string;
  })[];
}

/** An access token that expired this long ago is forgotten when the store is saved (it reads as unknown instead). */
const FORGET_EXPIRED_ACCESS_AFTER_MS = 24 * 60 * 60 * 1000;

export class OAuthStore {
  private readonly pending = new Map<string, { request: AuthorizationRequest; expiresAt: Date }>();
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly tokensByGrant = new Map<string, TokenRecord[]>();
  readonly revoked: RevokedToken[] = [];

  /**
   * `onChange`: called after every change to grants and tokens, before the answer that carries it leaves, so a
   * persisted store never lags behind what a client was told (a refresh token rotated but not saved would be
   * unknown after a restart, and the user would have to connect again).
   */
  constructor(
    private readonly now: () => Date,
    private readonly onChange: () => void = () => {},
  ) {}

  /** The grants and tokens, for the state file. */
  snapshot(): OAuthStoreSnapshot {
    const forgetBefore = this.now().getTime() - FORGET_EXPIRED_ACCESS_AFTER_MS;
    const kept = [...this.tokens.values()].filter((record) => record.type !== 'access_token' || record.expiresAt === null || record.expiresAt.getTime() > forgetBefore);
    const grants = new Map(kept.map((record) => [record.grant.id, record.grant]));
    return {
      grants: [...grants.values()].map((grant) => ({
        id: grant.id,
        platform: grant.platform,
        clientId: grant.clientId,
        accountIndex: grant.accountIndex,
        scopes: grant.scopes,
        createdAt: grant.createdAt.toISOString(),
        ...(grant.revokedAt ? { revokedAt: grant.revokedAt.toISOString() } : {}),
      })),
      tokens: kept.map((record) => ({
        token: record.token,
        type: record.type,
        grantId: record.grant.id,
        issuedAt: record.issuedAt.toISOString(),
        expiresAt: record.expiresAt?.toISOString() ?? null,
        ...(record.usedAt ? { usedAt: record.usedAt.toISOString() } : {}),
        ...(record.revokedAt ? { revokedAt: record.revokedAt.toISOString() } : {}),
        ...(record.variant ? { variant: record.variant } : {}),
      })),
    };
  }

  /** Takes back what `snapshot()` saved (at start, into an empty store). */
  restore(snapshot: OAuthStoreSnapshot): void {
    const grants = new Map<string, Grant>(
      snapshot.grants.map(({ createdAt, revokedAt, ...grant }) => [grant.id, { ...grant, createdAt: new Date(createdAt), ...(revokedAt ? { revokedAt: new Date(revokedAt) } : {}) }]),
    );
    for (const saved of snapshot.tokens) {
      const grant = grants.get(saved.grantId);
      if (!grant) continue;
      const { grantId: _grantId, issuedAt, expiresAt, usedAt, revokedAt, ...rest } = saved;
      const record: TokenRecord = {
        ...rest,
        grant,
        issuedAt: new Date(issuedAt),
        expiresAt: expiresAt === null ? null : new Date(expiresAt),
        ...(usedAt ? { usedAt: new Date(usedAt) } : {}),
        ...(revokedAt ? { revokedAt: new Date(revokedAt) } : {}),
      };
      this.tokens.set(record.token, record);
      this.tokensByGrant.set(grant.id, [...(this.tokensByGrant.get(grant.id) ?? []), record]);
    }
  }

  /** Remembers a validated request while its consent page is open; the id goes into the page's form. */
  createPending(request: AuthorizationRequest): string {
    const id = randomToken('req_', 18);
    this.pending.set(id, { request, expiresAt: addMs(this.now(), PENDING_LIFETIME_MS) });
    return id;
  }

  peekPending(id: string, platform: PlatformName): AuthorizationRequest | null {
    const entry = this.pending.get(id);
    if (!entry || entry.request.platform !== platform) return null;
    if (entry.expiresAt <= this.now()) {
      this.pending.delete(id);
      return null;
    }
    return entry.request;
  }

  /** A consent page answers once. */
  takePending(id: string, platform: PlatformName): AuthorizationRequest | null {
    const request = this.peekPending(id, platform);
    if (request) this.pending.delete(id);
    return request;
  }

  issueCode(code: string, request: AuthorizationRequest, accountIndex: number, grantedScopes: string[], extras: Record<string, unknown>): AuthorizationCode {
    const createdAt = this.now();
    const record: AuthorizationCode = { code, request, accountIndex, grantedScopes, extras, createdAt, expiresAt: addMs(createdAt, CODE_LIFETIME_MS) };
    this.codes.set(code, record);
    return record;
  }

  /**
   * Checks a code for the authenticated client. Success marks it used; a code presented again revokes what it
   * was exchanged for (RFC 6749 §4.1.2). A failed check does not use the code up.
   */
  redeemCode(
    platform: PlatformName,
    code: string,
    input: { clientId: string; redirectUri: string | null; codeVerifier: string | null; pkceEncoding?: PkceEncoding },
  ): CodeRedemption {
    const record = this.codes.get(code);
    if (!record || record.request.platform !== platform) return { ok: false, reason: 'unknown' };
    if (record.usedAt) {
      if (record.grant) this.revokeGrant(record.grant, 'code_reuse');
      return { ok: false, reason: 'reused' };
    }
    if (record.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    if (record.request.clientId !== input.clientId) return { ok: false, reason: 'wrong_client' };
    if (input.redirectUri !== record.request.redirectUri) return { ok: false, reason: 'redirect_mismatch' };
    const { codeChallenge, codeChallengeMethod } = record.request;
    if (codeChallenge && codeChallengeMethod) {
      if (!input.codeVerifier) return { ok: false, reason: 'verifier_missing' };
      if (!verifyPkce(codeChallenge, codeChallengeMethod, input.codeVerifier, input.pkceEncoding)) return { ok: false, reason: 'verifier_mismatch' };
    } else if (input.codeVerifier) {
      // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is refused, or PKCE downgrade works.
      return { ok: false, reason: 'verifier_unexpected' };
    }
    record.usedAt = this.now();
    return { ok: true, code: record };
  }

  createGrant(platform: PlatformName, clientId: string, accountIndex: number, scopes: string[]): Grant {
    return { id: randomToken('grant_', 12), platform, clientId, accountIndex, scopes, createdAt: this.now() };
  }

  /** Marks the code as exchanged for `grant`, so a replay of the code can revoke it. */
  bindCode(code: AuthorizationCode, grant: Grant): void {
    code.grant = grant;
  }

  issueToken(grant: Grant, type: TokenType, token: string, lifetimeSeconds: number | null, variant?: string): TokenRecord {
    const issuedAt = this.now();
    const record: TokenRecord = {
      token,
      type,
      grant,
      issuedAt,
      expiresAt: lifetimeSeconds === null ? null : addMs(issuedAt, lifetimeSeconds * 1000),
      ...(variant ? { variant } : {}),
    };
    this.tokens.set(token, record);
    const family = this.tokensByGrant.get(grant.id) ?? [];
    family.push(record);
    this.tokensByGrant.set(grant.id, family);
    this.onChange();
    return record;
  }

  find(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** Every authorization code and token issued so far, for scans that they never leave the product's backend. */
  issuedSecrets(): string[] {
    return [...this.codes.keys(), ...this.tokens.keys()];
  }

  checkAccess(platform: PlatformName, token: string | null): AccessCheck {
    const record = token ? this.tokens.get(token) : undefined;
    if (!record || record.type !== 'access_token' || record.grant.platform !== platform) return { ok: false, reason: 'unknown' };
    if (record.revokedAt) return { ok: false, reason: 'revoked', record };
    if (record.expiresAt && record.expiresAt <= this.now()) return { ok: false, reason: 'expired', record };
    return { ok: true, record, grant: record.grant };
  }

  /**
   * Validates a refresh token for the authenticated client. With `rotate`, success spends it (the caller issues
   * the successor); presenting a spent one revokes the whole grant.
   */
  useRefreshToken(platform: PlatformName, token: string, clientId: string, options: { rotate: boolean }): RefreshUse {
    const record = this.tokens.get(token);
    if (!record || record.type !== 'refresh_token' || record.grant.platform !== platform) return { ok: false, reason: 'unknown' };
    if (record.grant.clientId !== clientId) return { ok: false, reason: 'wrong_client' };
    if (record.revokedAt) return { ok: false, reason: 'revoked' };
    if (record.usedAt) {
      this.revokeGrant(record.grant, 'refresh_token_reuse');
      return { ok: false, reason: 'reused' };
    }
    if (record.expiresAt && record.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    if (options.rotate) {
      record.usedAt = this.now();
      this.onChange();
    }
    return { ok: true, record, grant: record.grant };
  }

  revokeToken(record: TokenRecord, reason: RevocationReason): void {
    if (record.revokedAt || record.usedAt) return;
    record.revokedAt = this.now();
    this.revoked.push({
      platform: record.grant.platform,
      tokenType: record.type,
      account: record.grant.accountIndex,
      reason,
      fingerprint: fingerprint(record.token),
      at: record.revokedAt,
    });
    this.onChange();
  }

  /** Revokes every live token of the grant (the "family"). */
  revokeGrant(grant: Grant, reason: RevocationReason): void {
    grant.revokedAt ??= this.now();
    for (const record of this.tokensByGrant.get(grant.id) ?? []) this.revokeToken(record, reason);
    this.onChange();
  }
}

/** The parts of a parsed scope list that a platform does not know. */
export function unknownScopes(scopes: readonly string[], known: Readonly<Record<string, string>>): string[] {
  return scopes.filter((scope) => !Object.hasOwn(known, scope));
}

/** Splits on the given separators, dropping empties and duplicates, keeping order. */
export function splitScopes(raw: string, separators: RegExp): string[] {
  return [...new Set(raw.split(separators).map((scope) => scope.trim()).filter(Boolean))];
}
