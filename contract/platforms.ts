// The /api/platforms, /api/platformconnections, /api/oauth and /api/sync calls (spec section 7). Premium: every
// one of them is behind the 402 gate. Platform tokens never appear in any of these shapes.
import { z } from 'zod';
import { syncStatus } from './sync-status.ts';

/** Lowercase platform names, as they appear in /api/oauth/{platform}/... paths. Order = fixed ids 1 to 6. */
export const PLATFORM_NAMES = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin', 'patreon'] as const;
export const platformName = z.enum(PLATFORM_NAMES);
export type PlatformName = z.infer<typeof platformName>;

/** The fixed catalogue (spec: the analytics filter uses ids 1 to 5; Patreon is 6). */
export const PLATFORM_CATALOGUE: Record<PlatformName, { id: number; name: string; description: string; followerLabel: string }> = {
  youtube: { id: 1, name: 'YouTube', description: 'Channel subscribers, views and video analytics', followerLabel: 'subscribers' },
  instagram: { id: 2, name: 'Instagram', description: 'Followers and media insights of a professional account', followerLabel: 'followers' },
  tiktok: { id: 3, name: 'TikTok', description: 'Followers, likes and video views', followerLabel: 'followers' },
  twitter: { id: 4, name: 'Twitter', description: 'Followers and post metrics on X', followerLabel: 'followers' },
  linkedin: { id: 5, name: 'LinkedIn', description: 'Followers and post analytics of your profile', followerLabel: 'followers' },
  patreon: { id: 6, name: 'Patreon', description: 'Patrons and campaign revenue', followerLabel: 'patrons' },
};

/** The platform's display name (YouTube) for a stored platform key, or the key itself when it is not in the catalogue. */
export function platformDisplayName(platform: string): string {
  const key = PLATFORM_NAMES.find((name) => name === platform);
  return key ? PLATFORM_CATALOGUE[key].name : platform;
}

export function platformById(id: number): PlatformName | undefined {
  return PLATFORM_NAMES.find((name) => PLATFORM_CATALOGUE[name].id === id);
}

/**
 * What a platform does not give of a creator's posts, said where the posts would be: its sync stores none, and an
 * empty list must not read as "not synced yet" (issue 24).
 */
export const POSTS_NOT_GIVEN: Partial<Record<PlatformName, string>> = {
  linkedin: "LinkedIn does not let apps read a member's posts one by one, only the daily totals of impressions, reactions, comments and reshares, which Analytics shows.",
  patreon: "Patreon's API gives a campaign's posts without views or engagement, so there is nothing to compare them on. Members and pledges are on the Income page.",
};

/**
 * Platforms that report impressions, not views, for their posts: their engagement rate is measured against
 * impressions (its named base), and Total Views leaves them out. X's only views are a video's views, on few posts
 * (docs/platforms/x.md), so its base stays impressions even on days with video views.
 */
export const IMPRESSION_PLATFORMS: readonly PlatformName[] = ['linkedin', 'twitter'];

/** "LinkedIn and X": the impression platforms as the Total Views note names them. */
export const IMPRESSION_PLATFORM_NAMES = 'LinkedIn and X';

/**
 * Platforms whose amounts come without a currency: a Patreon campaign's pledges are in the campaign's currency, which
 * no campaign, member or tier field names. The first sync sets it on the connection from the campaign's pledge events
 * (`currency_code`); when they name none the creator chooses it, and until then the amounts are added to no total.
 */
export const PLATFORMS_WITH_UNNAMED_CURRENCY: readonly PlatformName[] = ['patreon'];

/** ISO 4217 codes the runtime knows (Node and browsers both carry the list). */
let knownCurrencies: ReadonlySet<string> | undefined;
export function isKnownCurrency(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code);
}

/** How many accounts of one platform a user may connect (a creator can have two channels, not fifty). */
export const MAX_CONNECTIONS_PER_PLATFORM = 5;

export const platform = z.object({
  id: z.number().int(),
  /** Display name, e.g. "YouTube". */
  name: z.string(),
  /** Lowercase name used in /api/oauth/{platform}/... */
  key: platformName,
  description: z.string(),
  /** Connectable on this server: credentials configured, or the platform sandbox stands in. */
  available: z.boolean(),
  /** POST /api/platformconnections/connect can track a public profile of this platform without OAuth. */
  supportsManualConnect: z.boolean(),
});
export type Platform = z.infer<typeof platform>;
export const platformsResponse = z.array(platform);


export { syncStatus, type SyncStatus } from './sync-status.ts';

/**
 * A grant the platform refused or revoked, not renewed (reconnected) within this many days, has its connection's
 * stored data deleted (docs/platforms/data-retention.md; YouTube API Services Developer Policies III.D.2.c).
 */
export const BROKEN_GRANT_KEPT_DAYS = 30;

/** Spec section 3 "Platform connection", plus sync and reconnection state. */
export const platformConnection = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  /** Lowercase platform key, for /api/oauth/{platform}/... calls. */
  platform: platformName,
  platformUsername: z.string().nullable(),
  platformUserId: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  connectedAt: z.iso.datetime(),
  /** Null when the user declined the permission that reads it (see missingPermissions). */
  followers: z.number().int().nullable(),
  /**
   * Optional permissions the user declined on the platform's consent page (TikTok lets them untick some): the
   * connection works with what was granted; each entry says what is missing and which permission would add it.
   */
  missingPermissions: z.array(z.object({ permission: z.string(), label: z.string(), provides: z.array(z.string()) })),
  /**
   * ISO 4217 code of the amounts of a platform whose amounts name no currency (Patreon: the campaign's currency), as
   * the first sync read it from the campaign's pledge events or as the creator chose it (a choice is never replaced);
   * null while neither has named it, and always null for platforms whose amounts name their currency.
   */
  currency: z.string().nullable(),
  isActive: z.boolean(),
  /** A public profile tracked without OAuth: read-only, public metrics only. */
  manual: z.boolean(),
  /** The platform refused our tokens (expired, revoked): the user must connect again. */
  needsReconnect: z.boolean(),
  /**
   * While the connection needs reconnecting: when it is deleted with its stored data unless it is reconnected before
   * (BROKEN_GRANT_KEPT_DAYS after the grant stopped working). Null while the grant works.
   */
  dataDeletedOn: z.iso.datetime().nullable().optional(),
  lastSyncedAt: z.iso.datetime().nullable(),
  syncStatus: syncStatus,
});
export type PlatformConnection = z.infer<typeof platformConnection>;
export const platformConnectionsResponse = z.array(platformConnection);

const handleOrUrl = z.string().trim().min(1, 'A handle or URL is required').max(300, 'The handle or URL is too long');

/** Manual connection: the platform by id or name, and a handle or profile URL. */
export const connectPlatformRequest = z
  .strictObject({
    platformId: z.number().int().min(1).max(99).optional(),
    platform: z.string().trim().toLowerCase().max(30).optional(),
    handle: handleOrUrl.optional(),
    url: handleOrUrl.optional(),
  })
  .refine((body) => body.platformId !== undefined || body.platform !== undefined, { message: 'platformId or platform is required' })
  .refine((body) => body.handle !== undefined || body.url !== undefined, { message: 'handle or url is required' });
export type ConnectPlatformRequest = z.infer<typeof connectPlatformRequest>;
export const connectPlatformResponse = platformConnection;

/** PATCH /api/platformconnections/{id}: the currency of a Patreon campaign's amounts (null: not known). */
export const updateConnectionRequest = z.strictObject({
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code, e.g. EUR')
    .refine(isKnownCurrency, 'currency is not an ISO 4217 currency code')
    .nullable(),
});
export type UpdateConnectionRequest = z.infer<typeof updateConnectionRequest>;
export const updateConnectionResponse = platformConnection;

export const authUrlResponse = z.object({ authUrl: z.string() });

/**
 * What the web app posts from /auth/{platform}/callback: the code and state from the URL (state may be null
 * per the spec; the server then answers 400), or the platform's error when the user pressed Deny.
 */
export const oauthCallbackRequest = z.strictObject({
  code: z.string().max(4096).nullish(),
  state: z.string().max(512).nullish(),
  error: z.string().max(200).nullish(),
  error_description: z.string().max(2000).nullish(),
});
export type OAuthCallbackRequest = z.infer<typeof oauthCallbackRequest>;
export const oauthCallbackResponse = platformConnection;

export const disconnectResponse = z.object({ message: z.string(), disconnected: z.number().int() });

// The /api/sync shapes live in contract/analytics.ts (the sync feeds the analytics); re-exported here.
export { syncStatusResponse, syncTriggerResponse } from './analytics.ts';

/** A connection id in a path (`/api/platformconnections/:id`, `/api/sync/platform/:connectionId`): a positive int4. */
export const connectionIdParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'The connection id must be a positive integer')
  .transform(Number)
  .refine((value) => value <= 2_147_483_647, 'The connection id is too large');

/** `/api/platformconnections/:id`. */
export const connectionIdParams = z.strictObject({ id: connectionIdParam });
/** `/api/oauth/:platform/…`: checked against the platform list by the service (an unknown one answers 400 in words). */
export const platformParams = z.strictObject({ platform: z.string().min(1).max(30) });
/** `/api/sync/platform/:connectionId`. */
export const syncParams = z.strictObject({ connectionId: connectionIdParam });
