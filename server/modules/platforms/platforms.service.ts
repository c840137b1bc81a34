// Platform connections: the OAuth 2.0 authorization-code flow for six platforms (security.md 1.6), manual
// public-profile connections, disconnection with revocation, and access tokens that are refreshed before use,
// once per connection even under concurrency (security.md 4.4). Tokens are encrypted at rest with the row as
// associated data and never leave this module except to go to their own platform.
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  type ConnectPlatformRequest,
  MAX_CONNECTIONS_PER_PLATFORM,
  type OAuthCallbackRequest,
  PLATFORM_CATALOGUE,
  PLATFORM_NAMES,
  type Platform,
  type PlatformConnection,
  type PlatformName,
  platformById,
  type SyncStatus,
} from '../../../contract/platforms.ts';
import type { PlatformAppConfig } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import { rowBinding, type TokenCrypto } from '../../lib/token-crypto.ts';
import type { ConnectionRow, PlatformQueries, PlatformsRepository } from './platforms.repository.ts';
import { type PlatformProfile, PlatformError, type Provider, type ProviderContext, type StoredTokens, type TokenSet } from './providers/provider.ts';
import { providers as defaultProviders } from './providers/registry.ts';

const MINUTE = 60_000;
export const OAUTH_STATE_TTL_MS = 10 * MINUTE;

export interface PlatformsConfig {
  publicUrl: string;
  platforms: Record<PlatformName, PlatformAppConfig>;
  appKeys: { youtubeApiKey: string | undefined; twitterBearerToken: string | undefined };
  timeoutMs: number;
}

export interface PlatformsServiceDeps {
  repository: PlatformsRepository;
  crypto: TokenCrypto;
  clock: Clock;
  config: PlatformsConfig;
  logger: FastifyBaseLogger;
  providers?: Record<PlatformName, Provider>;
}

/** The connection needs the user to connect again; carried out of a transaction so its mark is committed. */
export class ReconnectRequired extends Error {}

const SYNC_STATES: readonly SyncStatus[] = ['idle', 'queued', 'running', 'failed'];

const base64url = (bytes: Buffer) => bytes.toString('base64url');
export const pkceChallenge = (verifier: string) => base64url(createHash('sha256').update(verifier).digest());

/** `https://<host>/<path>?<query>` → `<apiUrl>/<host>/<path>?<query>`: one base URL stands in for all of a platform's hosts. */
export function rewritePlatformUrl(apiUrl: string | undefined, realUrl: string): string {
  if (!apiUrl) return realUrl;
  const url = new URL(realUrl);
  return `${apiUrl}/${url.host}${url.pathname}${url.search}`;
}

const tokenColumn = (id: number, column: 'access_token' | 'refresh_token') => rowBinding('platform_connections', id, column);
const verifierBinding = (stateHash: string) => rowBinding('oauth_states', stateHash, 'code_verifier');

export function createPlatformsService({ repository, crypto, clock, config, logger, providers = defaultProviders }: PlatformsServiceDeps) {
  const displayName = (platform: PlatformName) => PLATFORM_CATALOGUE[platform].name;
  const redirectUriOf = (platform: PlatformName) => `${config.publicUrl}/auth/${platform}/callback`;
  const isAvailable = (platform: PlatformName) => Boolean(config.platforms[platform].clientId && config.platforms[platform].clientSecret);
  const supportsManualConnect = (platform: PlatformName) =>
    providers[platform].lookupPublicProfile !== undefined &&
    Boolean(platform === 'youtube' ? config.appKeys.youtubeApiKey : platform === 'twitter' ? config.appKeys.twitterBearerToken : undefined);

  function resolvePlatform(value: string): PlatformName {
    const platform = PLATFORM_NAMES.find((name) => name === value);
    if (!platform) throw new AppError('not_found', `Unknown platform. Use one of: ${PLATFORM_NAMES.join(', ')}.`);
    return platform;
  }

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

  /** A platform failure as the API answers it: the user's to fix (400), or a generic 502. */
  function toAppError(error: unknown, platform: PlatformName, context: Record<string, unknown>): AppError {
    if (error instanceof AppError) return error;
    logPlatformFailure(error, { ...context, platform });
    const name = displayName(platform);
    if (error instanceof PlatformError) {
      if (error.kind === 'invalid_grant') return new AppError('bad_request', `${name} did not accept the authorization. Please try connecting again.`);
      if (error.kind === 'not_found') return new AppError('bad_request', `${error.message}.`);
      if (error.kind === 'rate_limited') return new AppError('bad_gateway', `${name} is busy right now. Please try again in a few minutes.`);
    }
    return new AppError('bad_gateway', `${name} could not complete the request. Please try again in a moment.`);
  }

  function toConnection(row: ConnectionRow): PlatformConnection {
    const platform = resolvePlatform(row.platform);
    return {
      id: row.id,
      platformId: PLATFORM_CATALOGUE[platform].id,
      platformName: displayName(platform),
      platform,
      platformUsername: row.platformUsername,
      platformUserId: row.platformUserId,
      displayName: row.displayName,
      avatarUrl: row.avatarUrl,
      connectedAt: row.connectedAt.toISOString(),
      followers: row.followers,
      isActive: row.isActive,
      manual: row.manual,
      needsReconnect: row.needsReconnect,
      lastSyncedAt: row.lastSyncedAt?.toISOString() ?? null,
      syncStatus: SYNC_STATES.find((state) => state === row.syncStatus) ?? 'idle',
    };
  }

  const profileColumns = (profile: PlatformProfile) => ({
    platformUsername: profile.username,
    displayName: profile.displayName,
    avatarUrl: profile.avatarUrl,
    followers: profile.followers,
  });

  /**
   * Creates or updates the user's connection to this platform account, under the per-user-and-platform lock.
   * `tokens` undefined: a manual connection (no tokens, read-only).
   */
  async function storeConnection(userId: number, platform: PlatformName, profile: PlatformProfile, tokens: TokenSet | undefined): Promise<ConnectionRow> {
    const now = clock.now();
    const name = displayName(platform);
    try {
      return await repository.withUserPlatformLock(userId, platform, async (locked) => {
        if (tokens) {
          const other = await locked.findOAuthLinkOfOtherUser(userId, platform, profile.id);
          if (other) throw new AppError('conflict', `This ${name} account is already connected to another Analytics Hub account.`);
        }
        const existing = await locked.findUserAccount(userId, platform, profile.id);
        if (existing && !tokens && !existing.manual) {
          throw new AppError('conflict', `This ${name} account is already connected.`);
        }
        if (!existing && (await locked.countConnectionsOnPlatform(userId, platform)) >= MAX_CONNECTIONS_PER_PLATFORM) {
          throw new AppError('conflict', `You can connect at most ${MAX_CONNECTIONS_PER_PLATFORM} ${name} accounts. Disconnect one first.`);
        }
        const row =
          existing ??
          (await locked.insertConnection({
            userId,
            platform,
            platformUserId: profile.id,
            ...profileColumns(profile),
            manual: !tokens,
            connectedAt: now,
            updatedAt: now,
          }));
        if (!tokens) return row;
        return (await writeTokens(locked, row, tokens, { ...profileColumns(profile), manual: false, isActive: true, needsReconnect: false, syncStatus: 'idle', syncMessage: null }))!;
      });
    } catch (error) {
      // Two users linking the same account at the same instant: the unique index decides, the loser gets 409.
      if ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
        throw new AppError('conflict', `This ${name} account is already connected to another Analytics Hub account.`);
      }
      throw error;
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
      updatedAt: now,
    });
  }

  /** The connection's tokens in clear; a value that does not decrypt marks the connection for reconnection. */
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
      logger.error({ connectionId: row.id, platform: row.platform, errorName: (error as Error).name, reason: (error as Error).message }, 'stored platform tokens are unreadable');
      await locked.updateConnection(row.id, { needsReconnect: true, updatedAt: clock.now() });
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
      } catch {
        return { reconnect: true };
      }
      // Another process refreshed while we waited for the lock.
      if (row.needsReconnect) return { reconnect: true };
      if (!force && !isDue(row, provider, now)) return { token: tokens.accessToken };
      if (force && row.tokenIssuedAt?.getTime() !== current.tokenIssuedAt?.getTime()) return { token: tokens.accessToken };
      if (!provider.canRefresh(tokens, now)) {
        const expired = force || (row.tokenExpiresAt !== null && row.tokenExpiresAt <= now);
        if (!expired) return { token: tokens.accessToken }; // e.g. an Instagram token not yet a day old
        await locked.updateConnection(row.id, { needsReconnect: true, updatedAt: now });
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
          await locked.updateConnection(row.id, { needsReconnect: true, updatedAt: now });
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
      return await provider.profile(context, await accessTokenFor(row.id));
    } catch (error) {
      if (!(error instanceof PlatformError && error.kind === 'unauthorized')) throw error;
      // The platform refused a token we thought valid (revoked, or expired early): renew once and retry.
      return provider.profile(context, await accessTokenFor(row.id, { force: true }));
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
      await repository.updateConnection(row.id, { needsReconnect: true, updatedAt: clock.now() });
      throw new ReconnectRequired();
    }
  }

  return {
    redirectUriOf,
    accessTokenFor,
    withPlatformAccess,
    readProfile,
    displayName,
    logPlatformFailure,

    listPlatforms(): Platform[] {
      return PLATFORM_NAMES.map((platform) => ({
        id: PLATFORM_CATALOGUE[platform].id,
        name: displayName(platform),
        key: platform,
        description: PLATFORM_CATALOGUE[platform].description,
        available: isAvailable(platform),
        supportsManualConnect: supportsManualConnect(platform),
      }));
    },

    /** Starts an authorization: a single-use state bound to this user and platform, with its PKCE verifier. */
    async createAuthUrl(userId: number, platformParam: string): Promise<{ authUrl: string }> {
      const platform = resolvePlatform(platformParam);
      const context = contextFor(platform);
      const provider = providers[platform];
      const now = clock.now();
      const state = randomToken(32);
      const stateHash = sha256(state);
      const codeVerifier = provider.usesPkce ? randomToken(32) : undefined;
      await repository.deleteExpiredStates(now);
      await repository.insertState({
        stateHash,
        userId,
        platform,
        codeVerifier: codeVerifier ? crypto.encrypt(codeVerifier, verifierBinding(stateHash)) : null,
        redirectUri: context.redirectUri,
        createdAt: now,
        expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
      });
      return { authUrl: provider.authorizeUrl(context, { state, codeChallenge: codeVerifier ? pkceChallenge(codeVerifier) : undefined }) };
    },

    /**
     * Completes an authorization. The state is checked (and used up) before anything is sent to the platform;
     * only then is the code exchanged, with this authorization's own verifier and redirect URI.
     */
    async completeAuthorization(userId: number, platformParam: string, body: OAuthCallbackRequest): Promise<PlatformConnection> {
      const platform = resolvePlatform(platformParam);
      const name = displayName(platform);
      if (!body.state) throw new AppError('bad_request', 'The authorization state is missing. Start the connection again from the Platforms page.');
      const pending = await repository.consumeState(sha256(body.state));
      if (!pending) throw new AppError('bad_request', 'This authorization is unknown or was already used. Start the connection again from the Platforms page.');
      if (pending.userId !== userId) throw new AppError('bad_request', 'This authorization was started by another account. Start the connection again from the Platforms page.');
      if (pending.platform !== platform) throw new AppError('bad_request', `This authorization was not started for ${name}. Start the connection again from the Platforms page.`);
      if (pending.expiresAt <= clock.now()) throw new AppError('bad_request', 'This authorization has expired. Start the connection again from the Platforms page.');
      if (body.error) {
        const reason = body.error_description ? `${body.error}: ${body.error_description.slice(0, 300)}` : body.error;
        throw new AppError('bad_request', `${name} did not grant access (${reason}).`);
      }
      if (!body.code) throw new AppError('bad_request', 'Authorization code not found');

      const context = contextFor(platform);
      const provider = providers[platform];
      let codeVerifier: string | undefined;
      try {
        codeVerifier = pending.codeVerifier ? crypto.decrypt(pending.codeVerifier, verifierBinding(pending.stateHash)) : undefined;
      } catch {
        throw new AppError('bad_request', 'This authorization can no longer be completed. Start the connection again from the Platforms page.');
      }
      let tokens: TokenSet;
      let profile: PlatformProfile;
      try {
        tokens = await provider.exchangeCode({ ...context, redirectUri: pending.redirectUri }, { code: body.code, codeVerifier });
        profile = await provider.profile(context, tokens.accessToken);
      } catch (error) {
        throw toAppError(error, platform, { userId, step: 'connect' });
      }
      const row = await storeConnection(userId, platform, profile, tokens);
      logger.info({ userId, platform, connectionId: row.id }, 'platform connected');
      return toConnection(row);
    },

    async listConnections(userId: number): Promise<PlatformConnection[]> {
      return (await repository.listConnections(userId)).map(toConnection);
    },

    /** Tracks a public profile with the app's own credentials (YouTube API key, X app bearer token): no user tokens. */
    async connectManually(userId: number, body: ConnectPlatformRequest): Promise<PlatformConnection> {
      const platform = body.platformId !== undefined ? platformById(body.platformId) : PLATFORM_NAMES.find((name) => name === body.platform);
      if (!platform) throw new AppError('not_found', `Unknown platform. Use one of: ${PLATFORM_NAMES.join(', ')} (ids 1 to 6).`);
      if (body.platformId !== undefined && body.platform !== undefined && body.platform !== platform) {
        throw new AppError('bad_request', 'platformId and platform name two different platforms.');
      }
      const provider = providers[platform];
      if (!provider.lookupPublicProfile) {
        throw new AppError('bad_request', `${displayName(platform)} does not let apps read public profiles: connect it with OAuth from the Platforms page instead.`);
      }
      if (!supportsManualConnect(platform)) {
        throw new AppError('unavailable', `Tracking public ${displayName(platform)} profiles is not configured on this server.`);
      }
      let profile: PlatformProfile;
      try {
        profile = await provider.lookupPublicProfile(contextFor(platform, { requireOAuthApp: false }), (body.handle ?? body.url)!);
      } catch (error) {
        throw toAppError(error, platform, { userId, step: 'manual-connect' });
      }
      const row = await storeConnection(userId, platform, profile, undefined);
      await repository.updateConnection(row.id, { lastSyncedAt: clock.now() });
      return toConnection((await repository.findConnectionById(row.id))!);
    },

    /** Revokes the tokens at the platform where it offers revocation, then deletes the connection and its tokens. */
    async disconnect(userId: number, connectionId: number): Promise<{ message: string; disconnected: number }> {
      const row = await repository.findConnection(userId, connectionId);
      if (!row) throw new AppError('not_found', 'No such connection.');
      await revokeQuietly(row);
      await repository.deleteConnection(userId, connectionId);
      return { message: `${displayName(resolvePlatform(row.platform))} disconnected`, disconnected: 1 };
    },

    async disconnectPlatform(userId: number, platformParam: string): Promise<{ message: string; disconnected: number }> {
      const platform = resolvePlatform(platformParam);
      const rows = await repository.listConnectionsOnPlatform(userId, platform);
      let disconnected = 0;
      for (const row of rows) {
        await revokeQuietly(row);
        if (await repository.deleteConnection(userId, row.id)) disconnected += 1;
      }
      return { message: disconnected > 0 ? `${displayName(platform)} disconnected` : `No ${displayName(platform)} account was connected`, disconnected };
    },

    summary: (userId: number) => repository.summary(userId),

    /**
     * Key rotation: re-encrypts every stored token that is not under the current key. Idempotent and resumable
     * (a value already under the current key is left alone); a value that does not decrypt marks its connection
     * for reconnection. Pending OAuth states are not touched: they expire within minutes.
     */
    async reencryptTokens({ batchSize = 200 }: { batchSize?: number } = {}): Promise<{ scanned: number; reencrypted: number; unreadable: number }> {
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
          try {
            const next = {
              accessToken: row.accessToken && crypto.reencrypt(row.accessToken, tokenColumn(row.id, 'access_token')),
              refreshToken: row.refreshToken && crypto.reencrypt(row.refreshToken, tokenColumn(row.id, 'refresh_token')),
            };
            if (next.accessToken === row.accessToken && next.refreshToken === row.refreshToken) continue;
            // A refresh that stored new tokens meanwhile wrote them under the current key already.
            if (await repository.replaceTokensIfUnchanged(row.id, row, next)) reencrypted += 1;
          } catch (error) {
            unreadable += 1;
            logger.error({ connectionId: row.id, reason: (error as Error).message }, 'stored platform tokens are unreadable during re-encryption');
            await repository.updateConnection(row.id, { needsReconnect: true, updatedAt: clock.now() });
          }
        }
      }
      return { scanned, reencrypted, unreadable };
    },
  };

  async function revokeQuietly(row: ConnectionRow) {
    const platform = resolvePlatform(row.platform);
    const provider = providers[platform];
    if (row.manual || !provider.revoke || !row.accessToken) return;
    let tokens: StoredTokens;
    try {
      tokens = await readTokens(row, repository);
    } catch {
      return; // unreadable tokens cannot be revoked; deleting them is all that is left
    }
    try {
      await provider.revoke(contextFor(platform), tokens);
    } catch (error) {
      // The user asked to disconnect: the connection goes either way; the platform's grant may outlive it.
      logPlatformFailure(error, { connectionId: row.id, step: 'revoke' });
    }
  }
}

export type PlatformsService = ReturnType<typeof createPlatformsService>;
