// Platform connections as users make them: the OAuth 2.0 authorization-code flow for six platforms
// (docs/security.md), manual public-profile connections, the connection list, and disconnection with revocation.
// Where tokens live and how they are refreshed and used is token-custody.ts.
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  BROKEN_GRANT_KEPT_DAYS,
  type ConnectPlatformRequest,
  MAX_CONNECTIONS_PER_PLATFORM,
  type OAuthCallbackRequest,
  PLATFORM_CATALOGUE,
  PLATFORM_NAMES,
  type Platform,
  type PlatformConnection,
  type PlatformName,
  platformById,
  PLATFORMS_WITH_UNNAMED_CURRENCY,
  type UpdateConnectionRequest,
} from '#contract/platforms.ts';
import { toSyncStatus } from '#contract/sync-status.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/secure-random.ts';
import { rowBinding, type TokenCrypto } from '../../lib/token-crypto.ts';
import { PlatformError } from '../../providers/platform-error.ts';
import { missingOptionalScopes, type PkceEncoding, type PlatformProfile, type StoredTokens, type TokenSet } from '../../providers/provider.ts';
import type { ConnectionRow, PlatformQueries, PlatformsRepository } from './platforms.repository.ts';
import { type PlatformsConfig, resolvePlatform, type TokenCustody } from './token-custody.ts';

const MINUTE = 60_000;
export const OAUTH_STATE_TTL_MS = 10 * MINUTE;

export interface PlatformsServiceDeps {
  repository: PlatformsRepository;
  custody: TokenCustody;
  crypto: TokenCrypto;
  clock: Clock;
  config: Pick<PlatformsConfig, 'appKeys'>;
  logger: FastifyBaseLogger;
  /**
   * The user acted on a connection (connected it, connected it again, set what its sync waited for): its sync starts
   * now, afresh if it had stopped or was backing off after failures (the sync feature's requestNow, passed in by
   * server/app.ts). A new account's numbers arrive without a Sync click (issue 25).
   */
  syncNow?: (connectionId: number) => Promise<unknown>;
}

/** The S256 challenge: SHA-256 of the verifier, base64url (RFC 7636 §4.2) or hex (TikTok). */
export const pkceChallenge = (verifier: string, encoding: PkceEncoding = 'base64url') => createHash('sha256').update(verifier).digest(encoding);

const verifierBinding = (stateHash: string) => rowBinding('oauth_states', stateHash, 'code_verifier');

export function createPlatformsService({ repository, custody, crypto, clock, config, logger, syncNow }: PlatformsServiceDeps) {
  const { providers, displayName, isAvailable, contextFor, logPlatformFailure, writeTokens, readTokens } = custody;
  const supportsManualConnect = (platform: PlatformName) =>
    providers[platform].lookupPublicProfile !== undefined &&
    Boolean(platform === 'youtube' ? config.appKeys.youtubeApiKey : platform === 'twitter' ? config.appKeys.twitterBearerToken : undefined);

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
    const missing = row.manual ? [] : missingOptionalScopes(providers[platform], row.scope);
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
      followers: missing.some((scope) => scope.provides.includes('followers')) ? null : row.followers,
      currency: PLATFORMS_WITH_UNNAMED_CURRENCY.includes(platform) ? row.currency : null,
      missingPermissions: missing.map(({ scope, label, provides }) => ({ permission: scope, label, provides: [...provides] })),
      isActive: row.isActive,
      manual: row.manual,
      needsReconnect: row.needsReconnect,
      // Rows marked before the date was kept were dated from their last update (migration 0028).
      dataDeletedOn: row.needsReconnect ? new Date((row.needsReconnectSince ?? row.updatedAt).getTime() + BROKEN_GRANT_KEPT_DAYS * 86_400_000).toISOString() : null,
      lastSyncedAt: row.lastSyncedAt?.toISOString() ?? null,
      syncStatus: toSyncStatus(row.syncStatus),
    };
  }

  const profileColumns = (profile: PlatformProfile) => ({
    platformUsername: profile.username,
    displayName: profile.displayName,
    avatarUrl: profile.avatarUrl,
    // Unknown (the permission was declined): the stored count is kept, and answered as null (toConnection).
    ...(profile.followers !== null ? { followers: profile.followers } : {}),
  });

  /**
   * The user's one connection on `platform` made under a grant the platform no longer gives this app (LinkedIn's Sign
   * In scopes): its stored id (an OIDC `sub`) cannot be compared with the id a new grant answers (`/v2/me`'s, which
   * may differ: corrections row 2), so the user's reconnect takes over the one that bears the member's name (another
   * member's history is never merged in). With none or two such connections, none is guessed: a new connection.
   */
  async function supersededConnection(locked: PlatformQueries, userId: number, platform: PlatformName, profile: PlatformProfile): Promise<ConnectionRow | undefined> {
    const superseded = providers[platform].supersededGrant;
    if (!superseded || profile.displayName === null) return undefined;
    const candidates = (await locked.listConnectionsOnPlatform(userId, platform)).filter(
      (row) => !row.manual && superseded.matches(row.scope) && row.displayName === profile.displayName,
    );
    return candidates.length === 1 ? candidates[0] : undefined;
  }

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
        const existing = (await locked.findUserAccount(userId, platform, profile.id)) ?? (tokens ? await supersededConnection(locked, userId, platform, profile) : undefined);
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
        // A superseded connection taken over keeps its history under the id the platform answers now.
        return (await writeTokens(locked, row, tokens, { ...profileColumns(profile), platformUserId: profile.id, manual: false, isActive: true, needsReconnect: false, syncStatus: 'idle', syncMessage: null }))!;
      });
    } catch (error) {
      // Two users linking the same account at the same instant: the unique index decides, the loser gets 409.
      if ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
        throw new AppError('conflict', `This ${name} account is already connected to another Analytics Hub account.`);
      }
      throw error;
    }
  }

  return {
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
      const pkce = provider.pkce(context.redirectUri);
      const codeVerifier = pkce ? randomToken(32) : undefined;
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
      return { authUrl: provider.authorizeUrl(context, { state, codeChallenge: codeVerifier && pkce ? pkceChallenge(codeVerifier, pkce) : undefined }) };
    },

    /**
     * Completes an authorization. The state is checked (and used up) before anything is sent to the platform;
     * only then is the code exchanged, with this authorization's own verifier and redirect URI.
     */
    async completeAuthorization(userId: number, platformParam: string, body: OAuthCallbackRequest): Promise<PlatformConnection> {
      const platform = resolvePlatform(platformParam);
      const name = displayName(platform);
      // Every refused state is a security event (a forged callback, a replay, a mix-up): logged before the refusal.
      const rejectState = (reason: string, message: string): never => {
        logger.warn({ event: 'security.oauth_state_rejected', outcome: 'denied', reason, userId, platform }, 'OAuth state rejected');
        throw new AppError('bad_request', message);
      };
      if (!body.state) return rejectState('missing', 'The authorization state is missing. Start the connection again from the Platforms page.');
      const pending = await repository.consumeState(sha256(body.state));
      if (!pending) return rejectState('unknown_or_used', 'This authorization is unknown or was already used. Start the connection again from the Platforms page.');
      if (pending.userId !== userId) return rejectState('other_user', 'This authorization was started by another account. Start the connection again from the Platforms page.');
      if (pending.platform !== platform) return rejectState('other_platform', `This authorization was not started for ${name}. Start the connection again from the Platforms page.`);
      if (pending.expiresAt <= clock.now()) return rejectState('expired', 'This authorization has expired. Start the connection again from the Platforms page.');
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
      try {
        tokens = await provider.exchangeCode({ ...context, redirectUri: pending.redirectUri }, { code: body.code, codeVerifier });
      } catch (error) {
        throw toAppError(error, platform, { userId, step: 'connect' });
      }
      if (provider.issuesRefreshToken && !tokens.refreshToken) {
        // Not revoked: a grant answered without its refresh token is one the account already gave us (Google sends
        // the refresh token on first consent only), and at Google and TikTok revoking this token ends that whole
        // grant, including the working connection this authorization was meant to renew.
        logger.warn({ event: 'platform.token_without_refresh', userId, platform }, 'token answer without the refresh token the platform always issues: refused');
        throw new AppError('bad_gateway', `${name} sent no refresh token, so the connection would stop within hours. Nothing was saved: please connect again.`);
      }
      // From here the platform holds a new grant for us: if the connection is not stored, it is revoked.
      let profile: PlatformProfile;
      try {
        profile = await provider.profile(context, tokens.accessToken, tokens.scope);
      } catch (error) {
        await revokeUnstoredGrant(platform, tokens, { userId });
        throw toAppError(error, platform, { userId, step: 'connect' });
      }
      let row: ConnectionRow;
      try {
        row = await storeConnection(userId, platform, profile, tokens);
      } catch (error) {
        await revokeUnstoredGrant(platform, tokens, { platformUserId: profile.id });
        throw error;
      }
      await syncNow?.(row.id);
      logger.info({ userId, platform, connectionId: row.id }, 'platform connected; first sync queued');
      // Read again: the answer says the sync is queued, as the list will.
      return toConnection((await repository.findConnectionById(row.id)) ?? row);
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

    /** Sets the currency of the amounts of a platform that names none (a Patreon campaign's pledges). */
    async updateConnection(userId: number, connectionId: number, body: UpdateConnectionRequest): Promise<PlatformConnection> {
      const row = await repository.findConnection(userId, connectionId);
      if (!row) throw new AppError('not_found', 'No such connection.');
      const platform = resolvePlatform(row.platform);
      if (!PLATFORMS_WITH_UNNAMED_CURRENCY.includes(platform)) {
        throw new AppError('bad_request', `${displayName(platform)} names the currency of its amounts: there is no currency to set.`);
      }
      const updated = await repository.updateConnection(row.id, { currency: body.currency, updatedAt: clock.now() });
      await syncNow?.(row.id);
      logger.info({ userId, connectionId, currency: body.currency }, 'connection currency set');
      return toConnection(updated ?? row);
    },

    /** Revokes the tokens at the platform where it offers revocation, then deletes the connection and its tokens. */
    async disconnect(userId: number, connectionId: number): Promise<{ message: string; disconnected: number }> {
      const row = await repository.findConnection(userId, connectionId);
      if (!row) throw new AppError('not_found', 'No such connection.');
      await revokeQuietly(row);
      // 0 when a concurrent disconnect deleted it first.
      const deleted = await repository.deleteConnection(userId, connectionId);
      return { message: `${displayName(resolvePlatform(row.platform))} disconnected`, disconnected: deleted ? 1 : 0 };
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

  };

  /**
   * Revokes a grant whose connection failed after the code exchange (the profile could not be read, the account is
   * linked to another user, the per-platform limit, a database error), where the platform offers revocation: an app
   * must not keep access it does not use. Left alone, and logged, when a stored connection may share the grant: at
   * Google and TikTok revoking any token of an account ends the app's whole grant, which would break that working
   * connection (another user's, in the "already connected" case). Best effort: the user's answer is the failure.
   */
  async function revokeUnstoredGrant(platform: PlatformName, tokens: TokenSet, holder: { platformUserId: string } | { userId: number }) {
    const provider = providers[platform];
    if (!provider.revoke) return;
    try {
      if (await repository.mayShareGrant(platform, holder)) {
        logger.info({ event: 'platform.unstored_grant_kept', platform }, 'connection failed after the token exchange; the grant may be shared with a stored connection: not revoked');
        return;
      }
      await provider.revoke(contextFor(platform), { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? null, expiresAt: tokens.expiresAt ?? null, issuedAt: clock.now() });
      logger.info({ event: 'platform.unstored_grant_revoked', platform }, 'connection failed after the token exchange; the new grant was revoked');
    } catch (error) {
      logPlatformFailure(error, { platform, step: 'revoke-unstored' });
    }
  }

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
