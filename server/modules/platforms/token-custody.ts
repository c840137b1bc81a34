// Token custody: where platform tokens live and how they are used. Tokens are encrypted at rest with the row as
// associated data (docs/security.md), decrypted only to go to their own platform, refreshed before use once per
// connection even under concurrency (a single flight in this process, the row lock across processes), and moved to
// a new key by re-encryption. The sync engine and the YouTube on-demand reads get tokens only through
// `withPlatformAccess`; what users call (connect, list, disconnect) is platforms.service.ts.
import type { FastifyBaseLogger } from 'fastify';
import { PLATFORM_CATALOGUE, PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import type { PlatformAppConfig } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { rowBinding, type TokenCrypto, TokenCryptoError } from '../../lib/token-crypto.ts';
import { PlatformError, ReconnectRequired } from '../../providers/platform-error.ts';
import type { PlatformProfile, Provider, ProviderContext, StoredTokens, TokenSet } from '../../providers/provider.ts';
import { providers as defaultProviders } from '../../providers/registry.ts';
import type { QuotaLedger } from '../quota/quota-ledger.ts';
import type { ConnectionRow, PlatformQueries, PlatformsRepository } from './platforms.repository.ts';

export interface PlatformsConfig {
  publicUrl: string;
  platforms: Record<PlatformName, PlatformAppConfig>;
  appKeys: { youtubeApiKey: string | undefined; twitterBearerToken: string | undefined };
  timeoutMs: number;
}

export interface TokenCustodyDeps {
  repository: PlatformsRepository;
  crypto: TokenCrypto;
  clock: Clock;
  config: PlatformsConfig;
  logger: FastifyBaseLogger;
  providers?: Record<PlatformName, Provider>;
  /** Where the providers count the quota they spend (server/modules/quota/quota-ledger.ts). */
  quotaLedger?: Pick<QuotaLedger, 'spend'>;
}


/** `https://<host>/<path>?<query>` → `<apiUrl>/<host>/<path>?<query>`: one base URL stands in for all of a platform's hosts. */
export function rewritePlatformUrl(apiUrl: string | undefined, realUrl: string): string {
  if (!apiUrl) return realUrl;
  const url = new URL(realUrl);
  return `${apiUrl}/${url.host}${url.pathname}${url.search}`;
}

const tokenColumn = (id: number, column: 'access_token' | 'refresh_token') => rowBinding('platform_connections', id, column);

/** A stored platform key as the contract's name; an unknown one reads as a missing connection. */
export function resolvePlatform(value: string): PlatformName {
  const platform = PLATFORM_NAMES.find((name) => name === value);
  if (!platform) throw new AppError('not_found', `Unknown platform. Use one of: ${PLATFORM_NAMES.join(', ')}.`);
  return platform;
}

export function createTokenCustody({ repository, crypto, clock, config, logger, providers = defaultProviders, quotaLedger }: TokenCustodyDeps) {
  const displayName = (platform: PlatformName) => PLATFORM_CATALOGUE[platform].name;
  const redirectUriOf = (platform: PlatformName) => `${config.publicUrl}/auth/${platform}/callback`;
  const isAvailable = (platform: PlatformName) => Boolean(config.platforms[platform].clientId && config.platforms[platform].clientSecret);

  function contextFor(platform: PlatformName, options: { requireOAuthApp?: boolean } = {}): ProviderContext {
    const app = config.platforms[platform];
    if ((options.requireOAuthApp ?? true) && !isAvailable(platform)) {
      throw new AppError('unavailable', `${displayName(platform)} is not configured on this server.`);
    }
    return {
      clientId: app.clientId ?? '',
      clientSecret: app.clientSecret ?? '',
      redirectUri: redirectUriOf(platform),
      url: (realUrl) => rewritePlatformUrl(app.apiUrl, realUrl),
      timeoutMs: config.timeoutMs,
      now: () => clock.now(),
      appKeys: config.appKeys,
      apiVersion: app.apiVersion,
      followerHistory: app.followerHistory,
      logger,
      ...(quotaLedger ? { quota: { spend: (spend) => quotaLedger.spend(platform, spend) } } : {}),
    };
  }

  /** Logs a platform failure with what it was and where, never a token, code or response body. */
  function logPlatformFailure(error: unknown, context: Record<string, unknown>) {
    if (error instanceof PlatformError) {
      logger.warn({ ...context, platform: error.platform, operation: error.operation, kind: error.kind, status: error.details.status, errorCode: error.details.errorCode }, error.message);
    } else {
      logger.error({ ...context, errorName: error instanceof Error ? error.name : typeof error }, 'platform call failed unexpectedly');
    }
  }

  /** Stores a token answer: a refresh without a new refresh token keeps the stored one (Google); a new one replaces it (TikTok, X, Patreon). */
  function writeTokens(locked: PlatformQueries, row: ConnectionRow, tokens: TokenSet, extra: Partial<ConnectionRow> = {}) {
    const now = clock.now();
    return locked.updateConnection(row.id, {
      ...extra,
      accessToken: crypto.encrypt(tokens.accessToken, tokenColumn(row.id, 'access_token')),
      refreshToken: tokens.refreshToken ? crypto.encrypt(tokens.refreshToken, tokenColumn(row.id, 'refresh_token')) : row.refreshToken,
      tokenExpiresAt: tokens.expiresAt ?? null,
      tokenIssuedAt: now,
      scope: tokens.scope ?? row.scope,
      needsReconnect: false,
      needsReconnectSince: null,
      updatedAt: now,
    });
  }

  /**
   * The connection's tokens in clear. A value whose authentication fails (tampered, or copied from another row)
   * marks the connection for reconnection; a value under a key version this process lacks is a configuration error:
   * the request fails (503) and the row is left as it is, for the operator to add the key.
   */
  async function readTokens(row: ConnectionRow, locked: PlatformQueries): Promise<StoredTokens> {
    try {
      if (!row.accessToken) throw new Error('no access token stored');
      return {
        accessToken: crypto.decrypt(row.accessToken, tokenColumn(row.id, 'access_token')),
        refreshToken: row.refreshToken ? crypto.decrypt(row.refreshToken, tokenColumn(row.id, 'refresh_token')) : null,
        expiresAt: row.tokenExpiresAt,
        issuedAt: row.tokenIssuedAt,
      };
    } catch (error) {
      if (error instanceof TokenCryptoError && error.failure !== 'authentication') {
        logger.error(
          { event: 'config.token_key_unavailable', connectionId: row.id, platform: row.platform, failure: error.failure, reason: error.message },
          'stored platform tokens need a key this server is not configured with: add it to ENCRYPTION_KEYS',
        );
        throw new AppError('unavailable', 'This connection cannot be used until the server configuration is fixed. Please try again later.');
      }
      logger.error({ connectionId: row.id, platform: row.platform, errorName: (error as Error).name, reason: (error as Error).message }, 'stored platform tokens are unreadable');
      await locked.markNeedsReconnect(row.id, clock.now());
      throw new ReconnectRequired();
    }
  }

  const isDue = (row: ConnectionRow, provider: Provider, now: Date) =>
    row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() - provider.refreshAheadMs <= now.getTime();

  // One refresh per connection at a time in this process; the row lock covers other processes.
  const refreshesInFlight = new Map<number, Promise<string>>();

  /**
   * A usable access token for the connection, refreshed first when it is due (or when `force`, after the
   * platform refused the current one). A refresh the platform rejects marks the connection for reconnection.
   */
  function accessTokenFor(connectionId: number, options: { force?: boolean } = {}): Promise<string> {
    const running = refreshesInFlight.get(connectionId);
    if (running) return running;
    const work = obtainAccessToken(connectionId, options.force ?? false).finally(() => refreshesInFlight.delete(connectionId));
    refreshesInFlight.set(connectionId, work);
    return work;
  }

  async function obtainAccessToken(connectionId: number, force: boolean): Promise<string> {
    const current = await repository.findConnectionById(connectionId);
    if (!current) throw new AppError('not_found', 'No such connection.');
    const platform = resolvePlatform(current.platform);
    const provider = providers[platform];
    if (current.needsReconnect) throw new ReconnectRequired();
    if (!force && !isDue(current, provider, clock.now())) return (await readTokens(current, repository)).accessToken;

    const outcome = await repository.withConnectionLock(connectionId, async (row, locked): Promise<{ token: string } | { reconnect: true } | { error: unknown }> => {
      const now = clock.now();
      let tokens: StoredTokens;
      try {
        tokens = await readTokens(row, locked);
      } catch (error) {
        if (error instanceof ReconnectRequired) return { reconnect: true };
        return { error };
      }
      // Another process refreshed while we waited for the lock.
      if (row.needsReconnect) return { reconnect: true };
      if (!force && !isDue(row, provider, now)) return { token: tokens.accessToken };
      if (force && row.tokenIssuedAt?.getTime() !== current.tokenIssuedAt?.getTime()) return { token: tokens.accessToken };
      if (!provider.canRefresh(tokens, now)) {
        const expired = force || (row.tokenExpiresAt !== null && row.tokenExpiresAt <= now);
        if (!expired) return { token: tokens.accessToken }; // e.g. an Instagram token not yet a day old
        await locked.markNeedsReconnect(row.id, now);
        logger.info({ connectionId: row.id, platform }, 'platform token expired and cannot be renewed: reconnection needed');
        return { reconnect: true };
      }
      try {
        const renewed = await provider.refresh(contextFor(platform), tokens);
        await writeTokens(locked, row, renewed);
        return { token: renewed.accessToken };
      } catch (error) {
        if (error instanceof PlatformError && error.kind === 'invalid_grant') {
          logPlatformFailure(error, { connectionId: row.id });
          await locked.markNeedsReconnect(row.id, now);
          return { reconnect: true };
        }
        return { error };
      }
    });
    if (!outcome) throw new AppError('not_found', 'No such connection.');
    if ('reconnect' in outcome) throw new ReconnectRequired();
    if ('error' in outcome) throw outcome.error;
    return outcome.token;
  }

  /** Reads the account's current profile: with the user's token (refreshed if due), or publicly for manual connections. */
  async function readProfile(row: ConnectionRow): Promise<PlatformProfile> {
    const platform = resolvePlatform(row.platform);
    const provider = providers[platform];
    if (row.manual) {
      const reference = platform === 'youtube' ? row.platformUserId : (row.platformUsername ?? row.platformUserId);
      return provider.lookupPublicProfile!(contextFor(platform, { requireOAuthApp: false }), reference);
    }
    const context = contextFor(platform);
    try {
      return await provider.profile(context, await accessTokenFor(row.id), row.scope);
    } catch (error) {
      if (!(error instanceof PlatformError && error.kind === 'unauthorized')) throw error;
      // The platform refused a token we thought valid (revoked, or expired early): renew once and retry.
      return provider.profile(context, await accessTokenFor(row.id, { force: true }), row.scope);
    }
  }

  /**
   * Runs `work` with the connection's platform, provider context and a usable access token (renewed first when
   * due); a token the platform refuses is renewed once and `work` retried. Refused again, or not renewable: the
   * connection is marked for reconnection and ReconnectRequired is thrown.
   */
  async function withPlatformAccess<T>(
    row: ConnectionRow,
    work: (access: { platform: PlatformName; provider: Provider; context: ProviderContext; accessToken: string }) => Promise<T>,
  ): Promise<T> {
    const platform = resolvePlatform(row.platform);
    const provider = providers[platform];
    if (row.manual || !row.accessToken) throw new ReconnectRequired('A manual connection has no access token');
    const context = contextFor(platform);
    try {
      return await work({ platform, provider, context, accessToken: await accessTokenFor(row.id) });
    } catch (error) {
      if (!(error instanceof PlatformError && error.kind === 'unauthorized')) throw error;
      logPlatformFailure(error, { connectionId: row.id, step: 'sync' });
    }
    const renewed = await accessTokenFor(row.id, { force: true });
    try {
      return await work({ platform, provider, context, accessToken: renewed });
    } catch (error) {
      if (!(error instanceof PlatformError && error.kind === 'unauthorized')) throw error;
      logPlatformFailure(error, { connectionId: row.id, step: 'sync' });
      await repository.markNeedsReconnect(row.id, clock.now());
      throw new ReconnectRequired();
    }
  }

  /**
   * Key rotation: re-encrypts every stored token that is not under the current key. Idempotent and resumable
   * (a value already under the current key is left alone); a value that does not decrypt marks its connection
   * for reconnection. Pending OAuth states are not touched: they expire within minutes.
   */
  async function reencryptTokens({ batchSize = 200 }: { batchSize?: number } = {}): Promise<{ scanned: number; reencrypted: number; unreadable: number }> {
    // First a read-only pass: a value under a key this process lacks means the configuration is wrong (a key
    // dropped from ENCRYPTION_KEYS too early), and nothing may be changed until it is put back.
    for (let afterId = 0; ; ) {
      const rows = await repository.listWithTokens(afterId, batchSize);
      if (rows.length === 0) break;
      for (const row of rows) {
        afterId = row.id;
        for (const value of [row.accessToken, row.refreshToken]) {
          if (value && !crypto.knowsKeyOf(value)) {
            logger.error({ event: 'config.token_key_unavailable', connectionId: row.id }, 're-encryption aborted: a stored token needs a key missing from ENCRYPTION_KEYS');
            throw new TokenCryptoError(`Connection ${row.id} holds a token under a key version missing from ENCRYPTION_KEYS (or not an envelope): nothing was changed. Put the old key back after the new one and run again.`, 'unknown_key');
          }
        }
      }
    }
    let afterId = 0;
    let scanned = 0;
    let reencrypted = 0;
    let unreadable = 0;
    for (;;) {
      const rows = await repository.listWithTokens(afterId, batchSize);
      if (rows.length === 0) break;
      for (const row of rows) {
        afterId = row.id;
        scanned += 1;
        let next: { accessToken: string | null; refreshToken: string | null };
        try {
          next = {
            accessToken: row.accessToken && crypto.reencrypt(row.accessToken, tokenColumn(row.id, 'access_token')),
            refreshToken: row.refreshToken && crypto.reencrypt(row.refreshToken, tokenColumn(row.id, 'refresh_token')),
          };
        } catch (error) {
          unreadable += 1;
          logger.error({ connectionId: row.id, reason: (error as Error).message }, 'stored platform tokens are unreadable during re-encryption');
          await repository.markNeedsReconnect(row.id, clock.now());
          continue;
        }
        if (next.accessToken === row.accessToken && next.refreshToken === row.refreshToken) continue;
        // A refresh that stored new tokens meanwhile wrote them under the current key already. A failed write (the
        // database went away) stops the job: the tokens are fine, and a second run carries on where this one stopped.
        if (await repository.replaceTokensIfUnchanged(row.id, row, next)) reencrypted += 1;
      }
    }
    return { scanned, reencrypted, unreadable };
  }

  return { providers, displayName, redirectUriOf, isAvailable, contextFor, logPlatformFailure, writeTokens, readTokens, accessTokenFor, readProfile, withPlatformAccess, reencryptTokens };
}

export type TokenCustody = ReturnType<typeof createTokenCustody>;
