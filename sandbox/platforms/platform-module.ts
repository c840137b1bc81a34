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
  /** YouTube Data API quota units used, per API key or access token. */
  quotaUnits: Map<string, number>;
}

/** Switches tests may flip while the sandbox runs. */
export interface SandboxSettings {
  /** Which of the two documented shapes Instagram's short-lived token exchange answers with. */
  instagramTokenResponse: 'data' | 'flat';
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
}

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
