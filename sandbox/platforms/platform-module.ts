// The shape of one platform in the sandbox, and the little each platform file shares: the context the sandbox
// hands it, demo-account avatars served from a stand-in for the platform's image CDN, and form reading for token
// endpoints. A platform file owns its routes, its profile data and every error body it sends.
import { avatarSvg, PERSONAS, type DemoAccount, type PlatformName } from './demo-accounts.ts';
import { svg, type FailureGroup, type FailureKind, type FailureOptions, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import type { AppKeys, ClientCredentials, OAuthStore } from './oauth-core.ts';

/** What every platform module gets from the sandbox. */
export interface PlatformContext {
  now(): Date;
  store: OAuthStore;
  credentials: Record<PlatformName, ClientCredentials>;
  appKeys: AppKeys;
  allowedRedirectUris: readonly string[];
  /** Where browsers reach the sandbox (avatars); default the base URL. */
  publicBaseUrl: string;
  settings: SandboxSettings;
  /** YouTube Data API general-bucket units used, per API key or access token. */
  quotaUnits: Map<string, number>;
}

/** Switches tests may flip while the sandbox runs. */
export interface SandboxSettings {
  /** Which of the two documented shapes Instagram's short-lived token exchange answers with. */
  instagramTokenResponse: 'data' | 'flat';
  linkedin: LinkedinSandboxSettings;
  /**
   * `videos.list` with `id` and `maxResults`: documented as not supported together, observed as ignored (corrections
   * row 25, refusal unverified). `ignored` serves every id asked for; `refused` answers 400.
   */
  youtubeMaxResultsWithId: 'ignored' | 'refused';
  /** The Data API's general bucket, units per Pacific day (10,000 by default; corrections row 26). */
  youtubeDailyUnits: number;
  /** `search.list`'s own bucket, calls per Pacific day (100 by default; corrections row 26). */
  youtubeSearchDailyCalls: number;
  /**
   * How many days back Instagram answers account insights (other than the 30-day follower metrics). Meta documents no
   * retention for account metrics (corrections row 18: "two years" is on the media insights page only; Instagram's
   * app shows 90 days), so this is a switch, default 90: unverified.
   */
  instagramAccountInsightDays: number;
  /** What an account-insights request reaching past that horizon gets: an empty data set, or a code 100 refusal (row 18, rule 22; unverified). */
  instagramOldDays: 'empty' | 'refuse';
  /** Patreon campaigns' billing: by the month, or per paid post (`is_monthly: false`, `pay_per_name: "creation"`; row 28, rule 29). */
  patreonBilling: 'monthly' | 'per_creation';
  /**
   * What `include=pledge_history` holds: each member's pledge events in the campaign's currency (`recorded`, the
   * default); `mixed`, some patrons' events in the currency they pay in (the docs: `amount_cents` is "in the currency
   * in which the patron paid", so one campaign's events may name several); or none (`empty`: a campaign whose members
   * never pledged, so no `currency_code` names its currency).
   */
  patreonPledgeHistory: 'recorded' | 'mixed' | 'empty';
}

/**
 * LinkedIn's behaviours that its documents leave open or that depend on the app (platform-apis-corrections.md §1):
 * each is a switch so the adapter is tested under every reading.
 */
export interface LinkedinSandboxSettings {
  /**
   * The one product set the registered app holds (rows 1–2): Community Management (member analytics, identity from
   * `/v2/me` under `r_basicprofile`) or Sign In with LinkedIn using OpenID Connect. LinkedIn will not put both on one app.
   */
  appProducts: 'community_management' | 'sign_in_with_linkedin';
  /** What `memberFollowersCount?q=dateRange` answers per day (row 6, Unverified): new followers that day, or the total. */
  followerHistory: 'daily_gain' | 'running_total';
  /** The longest `dateRange` accepted, in days (row 4, Unverified: no documented maximum; 365 by default). */
  maxDateRangeDays: number;
  /** Elements per page of a finder answer when `count` is absent, and the most served when it is larger (row 5: 10 in the samples). */
  pageSize: number;
}

export const DEFAULT_LINKEDIN_SANDBOX_SETTINGS: LinkedinSandboxSettings = {
  appProducts: 'community_management',
  followerHistory: 'daily_gain',
  maxDateRangeDays: 365,
  pageSize: 10,
};

/** Failures a platform renders itself; `timeout` and `malformed_json` look the same everywhere, `no_refresh_token` edits the real answer. */
export type RenderedFailure = Exclude<FailureKind, 'timeout' | 'malformed_json' | 'no_refresh_token'>;

export interface PlatformModule {
  platform: PlatformName;
  /** "YouTube", "X", … */
  label: string;
  /** Every host the platform answers on. */
  hosts: readonly string[];
  accounts: readonly DemoAccount[];
  routes: readonly RouteDefinition[];
  /** The `failNext` groups that exist on this platform (LinkedIn, Instagram and Patreon have no revoke endpoint). */
  failureGroups: readonly FailureGroup[];
  /** The platform's own body for an injected failure on a route of `group`. */
  failure(group: FailureGroup, kind: RenderedFailure, request: SandboxRequest, options: FailureOptions): Reply;
  /**
   * What the platform has billed or counted since the sandbox started (YouTube's Data API units, X's billable
   * reads), for `GET /_sandbox/usage`; absent where the platform counts nothing.
   */
  usage?(): Record<string, number>;
}

const AVATAR_PATH = /^\/sandbox-avatars\/(?<key>[a-z]+)\.svg$/;

/** The demo account's picture, on a stand-in for the platform's image host (browsers load it from the sandbox). */
export function avatarUrl(context: PlatformContext, cdnHost: string, accountIndex: number): string {
  return `${context.publicBaseUrl}/${cdnHost}/sandbox-avatars/${PERSONAS[accountIndex]!.key}.svg`;
}

export function avatarRoute(platform: PlatformName, cdnHost: string): RouteDefinition {
  return {
    platform,
    hosts: [cdnHost],
    method: 'GET',
    path: AVATAR_PATH,
    endpoint: 'avatar',
    handle(request) {
      const persona = PERSONAS.find((candidate) => candidate.key === request.params.key);
      return persona ? svg(avatarSvg(persona)) : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
    },
  };
}
