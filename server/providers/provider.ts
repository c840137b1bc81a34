// The one interface every platform implements, and the types it speaks in. A provider only knows its platform's
// real URLs and wire formats; where requests actually go is decided by `url()` (the real host, or the configured
// base URL that stands in for it: the sandbox, a proxy). This file imports no platform: platforms stand on it.
import type { PlatformName } from '#contract/platforms.ts';

/** How an S256 challenge encodes SHA-256 of the verifier: RFC 7636 base64url, or the hex TikTok verifies. */
export type PkceEncoding = 'base64url' | 'hex';

export interface ProviderContext {
  clientId: string;
  clientSecret: string;
  /** The exact registered redirect URI: `${PUBLIC_URL}/auth/<platform>/callback`. */
  redirectUri: string;
  /** Maps a real platform URL to where it is served (identity without a base-URL override). */
  url(realUrl: string): string;
  timeoutMs: number;
  now(): Date;
  /** App credentials for public reads (manual connections). */
  appKeys: { youtubeApiKey: string | undefined; twitterBearerToken: string | undefined };
  /** The platform API version to send, where the platform versions its API (LinkedIn); undefined: the default. */
  apiVersion: string | undefined;
  /**
   * What a platform's daily follower values mean where its documents leave it open (LinkedIn's `q=dateRange`,
   * corrections row 6): the day's new followers or the day's total; undefined: the platform's default reading.
   */
  followerHistory?: FollowerHistoryMeaning | undefined;
  /** Where a provider reports what an operator should know (a fallback taken); never tokens or bodies. */
  logger: ProviderLogger;
  /**
   * Where a provider counts the quota it spends, as it spends it (YouTube's Data API units), so that every process
   * sees the day's spend (server/modules/quota); absent where nothing is counted (a provider used on its own).
   */
  quota?: QuotaMeter;
}

/** Units of one quota bucket spent on the platform's quota day (YouTube: the Pacific date). */
export interface QuotaSpend {
  bucket: string;
  day: string;
  units: number;
}

export interface QuotaMeter {
  spend(spend: QuotaSpend): Promise<void>;
}

export type FollowerHistoryMeaning = 'daily_gain' | 'running_total';

export interface ProviderLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface TokenSet {
  accessToken: string;
  /** Absent when the platform issued none (or, on refresh, kept the old one). */
  refreshToken?: string | undefined;
  /** When the access token expires; undefined when the platform did not say. */
  expiresAt?: Date | undefined;
  scope?: string | undefined;
}

export interface PlatformProfile {
  /** The platform's stable id of the account. */
  id: string;
  username: string | null;
  displayName: string | null;
  /** Followers, subscribers or patrons; null when the user did not grant the permission that reads them. */
  followers: number | null;
  avatarUrl: string | null;
}

export interface StoredTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  issuedAt: Date | null;
}

/**
 * One platform. `ExtraState` and `Extra` are what a platform with tables of its own (YouTube) reads before and hands
 * over after a sync, through the sync engine's one generic slot (server/modules/sync/sync-extension.ts).
 */
export interface Provider<ExtraState = unknown, Extra = unknown> {
  platform: PlatformName;
  /**
   * Whether every code exchange answers a refresh token (as we ask for it): a token answer without one is refused
   * at connection, since the connection would die with its access token within hours.
   */
  issuesRefreshToken: boolean;
  /**
   * The S256 PKCE challenge's encoding for an authorization on this redirect URI (Google and X: RFC 7636 base64url;
   * TikTok: hex, loopback redirects only), or null: none sent, state is the only CSRF defence (docs/security.md).
   */
  pkce(redirectUri: string): PkceEncoding | null;
  /**
   * Grants made under scopes this app can no longer be given (LinkedIn's Sign In scopes, before the app became
   * Community Management only): such a connection is asked, in `reconnectMessage`, to connect again once, and the
   * new grant takes over the connection and its history (platforms.service.ts).
   */
  supersededGrant?: { matches(scope: string | null): boolean; reconnectMessage: string };
  /** How long before expiry the access token is renewed (Instagram extends its 60-day token well ahead). */
  refreshAheadMs: number;
  authorizeUrl(context: ProviderContext, request: { state: string; codeChallenge?: string | undefined }): string;
  exchangeCode(context: ProviderContext, request: { code: string; codeVerifier?: string | undefined }): Promise<TokenSet>;
  /** Whether these tokens can be renewed without the user (a refresh token, or Instagram's extendable token). */
  canRefresh(tokens: StoredTokens, now: Date): boolean;
  refresh(context: ProviderContext, tokens: StoredTokens): Promise<TokenSet>;
  /** `grantedScope`: the scopes the token carries as stored (null or absent when unknown: ask for everything). */
  profile(context: ProviderContext, accessToken: string, grantedScope?: string | null): Promise<PlatformProfile>;
  /** Revocation at the platform, where it offers one. */
  revoke?(context: ProviderContext, tokens: StoredTokens): Promise<void>;
  /** A public profile read with the app's own credentials (manual connections), by handle, URL or id. */
  lookupPublicProfile?(context: ProviderContext, handleOrUrl: string): Promise<PlatformProfile>;
  /**
   * Scopes the user may decline on the platform's consent page (granular consent, e.g. TikTok), and what the
   * product cannot read without each: the connection works with what was granted and says what is missing.
   */
  optionalScopes?: readonly OptionalScope[];
  /** Reads the account's metrics and content for the sync engine (server/modules/sync). */
  sync?(context: ProviderContext, input: SyncInput<ExtraState>): Promise<SyncOutput<Extra>>;
  /**
   * Reads the public counters of the given posts by id, through the platform's cheapest by-id call (the young-post
   * poll, server/modules/sync/young-posts.ts). Absent where the platform has no per-post counters we store.
   */
  readCounters?(context: ProviderContext, input: CounterReadInput): Promise<CounterReadOutput>;
  /**
   * Where every post read is billed (X): the ages, in hours after publication, at which the young-post poll reads a
   * post again, once each, instead of every young post on every turn; the sync then reads new posts only, and each
   * read is stored with its moment and as the day's snapshot. Absent: every post under 7 days old on every turn.
   */
  readAgesHours?: readonly number[];
}

export interface CounterReadInput {
  accessToken: string;
  /** Granted scopes as stored (space or comma separated), null when unknown. */
  scope: string | null;
  /** The platform's ids of the posts to read. */
  platformContentIds: readonly string[];
}

export interface CounterReadOutput {
  /** The posts the platform answered for (a deleted post is absent), with their lifetime counters as read now. */
  counters: { platformContentId: string; metrics: Partial<Record<string, number>> }[];
  usage: SyncOutput['usage'];
}

export interface OptionalScope {
  scope: string;
  /** The permission as the platform's consent page names it. */
  label: string;
  /** What the product reads with it, in words (e.g. 'followers'). */
  provides: readonly string[];
}

/** The scopes a stored grant carries (space- or comma-separated), or null when the platform did not say. */
export function grantedScopes(scope: string | null | undefined): ReadonlySet<string> | null {
  if (scope === null || scope === undefined || scope.trim() === '') return null;
  return new Set(scope.split(/[\s,]+/).filter(Boolean));
}

/** Whether the grant carries `scope`; an unknown grant is taken as complete (the platform refuses what is not). */
export function hasScope(scope: string | null | undefined, wanted: string): boolean {
  return grantedScopes(scope)?.has(wanted) ?? true;
}

/** The optional scopes this grant lacks (none when the grant is unknown). */
export function missingOptionalScopes(provider: Pick<Provider, 'optionalScopes'>, scope: string | null | undefined): OptionalScope[] {
  const granted = grantedScopes(scope);
  if (!granted) return [];
  return (provider.optionalScopes ?? []).filter((optional) => !granted.has(optional.scope));
}

/** What a sync asks a platform for. Dates are UTC calendar days, YYYY-MM-DD, inclusive. */
export interface SyncInput<ExtraState = unknown> {
  accessToken: string;
  /** The platform's id of the account (stored at connection). */
  platformUserId: string;
  /** Granted scopes as stored (space or comma separated), null when unknown. */
  scope: string | null;
  /** First day whose daily metrics are (re)read: two years back on the first sync, a few days back afterwards. */
  since: string;
  /** Today (UTC). */
  today: string;
  /** True on the first sync of the connection (full history and every content item). */
  firstSync: boolean;
  /** Content published before this instant is only re-read where the platform's counters still move (e.g. last 30 days). */
  contentSince: Date;
  /** Platform content ids already stored for the connection. */
  knownContentIds: ReadonlySet<string>;
  /** What the platform's own tables already hold (loaded by its sync extension), so it reads only what is missing or stale. */
  extraState?: ExtraState;
  /** The parts the previous run could not read (its `missingParts`): read again on this run, whatever its window. */
  retryParts?: readonly MissingPart[];
  /**
   * A first sync's progress: what an earlier run of this first sync already read and kept (a throttle or a crash
   * ended it), so this one goes on from there; null when it starts afresh. Only the provider reads its fields.
   */
  checkpoint?: SyncCheckpoint | null;
  /**
   * Stores what a first sync has read so far, with the checkpoint that says so, at once (its own transaction), so
   * that a throttle or a crash later in the run loses none of it. Absent: everything comes in the output.
   */
  keep?: (rows: KeptRows, checkpoint: SyncCheckpoint) => Promise<void>;
}

/** A provider's own record of a first sync's progress (which parts, day windows and pages are done). */
export type SyncCheckpoint = Record<string, unknown>;

/** Rows a first sync keeps before it ends (SyncInput.keep). */
export interface KeptRows {
  daily: SyncOutput['daily'];
  content: SyncedContent[];
}

/**
 * A part of a sync the platform did not answer (one window of days, one post's metrics, one report), while the rest
 * was read and stored. `part`: the provider's name for it, which it reads back in `retryParts`; `reason`: our words
 * and the platform's code; `at`: when (ISO 8601).
 */
export interface MissingPart {
  part: string;
  reason: string;
  at: string;
}

export interface SyncedContent {
  platformContentId: string;
  title: string;
  description: string | null;
  publishedAt: Date | null;
  url: string | null;
  /** Lifetime counters as read today; a counter the platform does not report is absent. */
  metrics: Partial<Record<string, number>>;
}

export interface SyncOutput<Extra = unknown> {
  /** The account's current followers (subscribers, patrons), when read. */
  followers?: number;
  /** Daily account metrics; a metric the platform does not report is absent, never 0. */
  daily: { date: string; metricType: string; value: number }[];
  content: SyncedContent[];
  /**
   * Content counters whose growth is the account's daily value of the same metric, for platforms that keep only
   * lifetime counters (TikTok, X): the sync engine derives them from the readings (migration 0024).
   */
  dailyFromContentGrowth?: readonly string[];
  /**
   * Calls made and, where the platform counts them, quota units used (YouTube); where the platform bills per resource
   * read (X), the resources billed and their price in USD at the platform's published rate.
   */
  usage: { calls: number; quotaUnits?: number; billedReads?: number; spendUsd?: number };
  /** What only the platform's own tables hold (YouTube's videos, traffic, reach…), stored by its sync extension in the run's transaction. */
  extra?: Extra;
  /** The parts that could not be read this time: the run is stored as partial and these are read again soon. */
  missingParts?: MissingPart[];
}

/** The content counters whose growth gives the daily account values on lifetime-counter platforms (TikTok, X). */
export const CONTENT_GROWTH_METRICS = ['views', 'likes', 'comments', 'shares'] as const;
