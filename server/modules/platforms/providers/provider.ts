// The one interface every platform implements, and the HTTP plumbing they share. A provider only knows its
// platform's real URLs and wire formats; where requests actually go is decided by `url()` (the real host, or
// the configured base URL that stands in for it: the sandbox, a proxy). Every response is parsed with zod here,
// at the boundary, so a change on the platform's side fails loudly instead of storing garbage.
import { z } from 'zod';
import type { PlatformName } from '../../../../contract/platforms.ts';
import type { YoutubeSyncExtras, YoutubeSyncState } from './youtube.sync.ts';

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
  /** Followers, subscribers or patrons. */
  followers: number;
  avatarUrl: string | null;
}

export interface StoredTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  issuedAt: Date | null;
}

export interface Provider {
  platform: PlatformName;
  /** S256 PKCE is sent (Google, X, TikTok); otherwise state is the only CSRF defence (security.md 1.6). */
  usesPkce: boolean;
  /** How long before expiry the access token is renewed (Instagram extends its 60-day token well ahead). */
  refreshAheadMs: number;
  authorizeUrl(context: ProviderContext, request: { state: string; codeChallenge?: string | undefined }): string;
  exchangeCode(context: ProviderContext, request: { code: string; codeVerifier?: string | undefined }): Promise<TokenSet>;
  /** Whether these tokens can be renewed without the user (a refresh token, or Instagram's extendable token). */
  canRefresh(tokens: StoredTokens, now: Date): boolean;
  refresh(context: ProviderContext, tokens: StoredTokens): Promise<TokenSet>;
  profile(context: ProviderContext, accessToken: string): Promise<PlatformProfile>;
  /** Revocation at the platform, where it offers one. */
  revoke?(context: ProviderContext, tokens: StoredTokens): Promise<void>;
  /** A public profile read with the app's own credentials (manual connections), by handle, URL or id. */
  lookupPublicProfile?(context: ProviderContext, handleOrUrl: string): Promise<PlatformProfile>;
  /** Reads the account's metrics and content for the sync engine (server/modules/sync). */
  sync?(context: ProviderContext, input: SyncInput): Promise<SyncOutput>;
}

/** What a sync asks a platform for. Dates are UTC calendar days, YYYY-MM-DD, inclusive. */
export interface SyncInput {
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
  /** YouTube only: what the YouTube tables already hold, so the adapter reads only what is missing or stale. */
  youtube?: YoutubeSyncState;
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

export interface SyncOutput {
  /** The account's current followers (subscribers, patrons), when read. */
  followers?: number;
  /** Daily account metrics; a metric the platform does not report is absent, never 0. */
  daily: { date: string; metricType: string; value: number }[];
  content: SyncedContent[];
  /**
   * Content counters whose day-over-day growth is the account's daily value of the same metric, for platforms
   * that keep only lifetime counters (TikTok, X): the sync engine derives them from consecutive snapshots.
   */
  dailyFromContentGrowth?: readonly string[];
  /** Calls made and, where the platform counts them, quota units used (YouTube). */
  usage: { calls: number; quotaUnits?: number };
  /** YouTube only: videos' analytics, traffic, demographics, retention, early views and reach (youtube.store.ts). */
  youtube?: YoutubeSyncExtras;
}

/** The content counters whose growth gives the daily account values on lifetime-counter platforms (TikTok, X). */
export const CONTENT_GROWTH_METRICS = ['views', 'likes', 'comments', 'shares'] as const;

/**
 * What went wrong at a platform, in terms the service acts on. Messages are ours (never the platform's text,
 * which can echo request values), so they are safe to log.
 */
export type PlatformErrorKind =
  /** The code or refresh token was refused (invalid_grant and its platform-specific equivalents). */
  | 'invalid_grant'
  /** The access token was refused on an API call. */
  | 'unauthorized'
  /** The account cannot be used (e.g. a Google account without a YouTube channel, a public profile not found). */
  | 'not_found'
  | 'rate_limited'
  /** 5xx, timeout, network failure, or a response we could not parse. */
  | 'unavailable';

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    readonly platform: PlatformName,
    readonly operation: string,
    message: string,
    readonly details: { status?: number; errorCode?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export const basicAuthorization = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;

export function buildUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

export interface PlatformRequest {
  platform: PlatformName;
  /** For logs and errors: 'token', 'refresh', 'profile', 'revoke', 'lookup'. */
  operation: string;
  method?: 'GET' | 'POST';
  /** The real URL (query included); mapped through `context.url`. */
  url: string;
  headers?: Record<string, string>;
  form?: Record<string, string | undefined>;
  /** A JSON request body (TikTok's video list). */
  json?: unknown;
}

export interface PlatformResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** When the answer arrived, on the context's clock: the reference for relative waits (an HTTP-date Retry-After). */
  receivedAt: Date;
}

/** One HTTP call to a platform with a deadline. Network failures and timeouts become `unavailable`. */
export async function callPlatform(context: ProviderContext, request: PlatformRequest): Promise<PlatformResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(request.form).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(context.url(request.url), {
      method: request.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(context.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new PlatformError('unavailable', request.platform, request.operation, timedOut ? 'The platform did not answer in time' : 'The platform could not be reached');
  }
  let parsed: unknown;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed, receivedAt: context.now() };
}

/** `details.errorCode` of a response that did not parse: retrying would read the same garbage. */
export const MALFORMED_RESPONSE = 'malformed_response';

/** Parses a successful body with `schema`; anything else is the platform misbehaving. */
export function parseBody<T>(schema: z.ZodType<T>, response: PlatformResponse, platform: PlatformName, operation: string): T {
  const result = schema.safeParse(response.body);
  if (!result.success) {
    throw new PlatformError('unavailable', platform, operation, 'The platform sent a response we could not read', { status: response.status, errorCode: MALFORMED_RESPONSE });
  }
  return result.data;
}

/** RFC 6749 §5.2 error body (Google, TikTok, X, LinkedIn, Patreon token endpoints). */
export const oauthErrorBody = z.looseObject({ error: z.string(), error_description: z.string().optional() });

/** Standard token response (RFC 6749 §5.1); `expires_in` sometimes arrives as a string. */
export const oauthTokenBody = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, which senders must use, and the two obsolete forms recipients must still accept.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date (RFC 9110 §5.6.7) as epoch milliseconds, or undefined when it is not one (or names no real day). */
export function parseHttpDate(value: string, now: Date): number | undefined {
  let parts: [year: number, month: string, day: number, hours: number, minutes: number, seconds: number] | undefined;
  let match = IMF_FIXDATE.exec(value);
  if (match) parts = [Number(match[3]), match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6])];
  else if ((match = RFC850_DATE.exec(value))) {
    // A two-digit year more than 50 years in the future is the most recent past year with those digits (§5.6.7).
    const currentYear = now.getUTCFullYear();
    let year = Math.floor(currentYear / 100) * 100 + Number(match[3]);
    if (year > currentYear + 50) year -= 100;
    parts = [year, match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6])];
  } else if ((match = ASCTIME_DATE.exec(value))) {
    parts = [Number(match[6]), match[1]!, Number(match[2]!.trim()), Number(match[3]), Number(match[4]), Number(match[5])];
  }
  if (!parts) return undefined;
  const [year, monthName, day, hours, minutes, seconds] = parts;
  const month = MONTHS.indexOf(monthName);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const time = Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls 31 Feb over into March: such a date is garbage, not a day in March.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

/**
 * The wait a `Retry-After` header asks for (RFC 9110 §10.2.3), in whole seconds: `<seconds>`, or an HTTP-date
 * measured from when the answer arrived (a date in the past is 0). Undefined when absent or unreadable.
 */
export function retryAfterSeconds(response: Pick<PlatformResponse, 'headers' | 'receivedAt'>): number | undefined {
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header);
  const at = parseHttpDate(header, response.receivedAt);
  if (at === undefined) return undefined;
  return Math.max(0, Math.ceil((at - response.receivedAt.getTime()) / 1000));
}

/**
 * The error for a non-2xx answer of an OAuth token endpoint. `invalid_grant` (the code or refresh token is
 * not valid, or not for this client/verifier) is the user's to fix; everything else is the platform's problem.
 */
export function tokenEndpointError(response: PlatformResponse, platform: PlatformName, operation: string): PlatformError {
  const parsed = oauthErrorBody.safeParse(response.body);
  const errorCode = parsed.success ? parsed.data.error : undefined;
  const details = { status: response.status, errorCode, retryAfterSeconds: retryAfterSeconds(response) };
  if (response.status === 429) return new PlatformError('rate_limited', platform, operation, 'The platform is rate limiting us', details);
  if (errorCode === 'invalid_grant') return new PlatformError('invalid_grant', platform, operation, 'The platform refused the authorization grant', details);
  return new PlatformError('unavailable', platform, operation, 'The platform refused the token request', details);
}

/** The error for a non-2xx answer of an API (profile) call. */
export function apiError(response: PlatformResponse, platform: PlatformName, operation: string, errorCode?: string): PlatformError {
  const details = { status: response.status, errorCode, retryAfterSeconds: retryAfterSeconds(response) };
  if (response.status === 429) return new PlatformError('rate_limited', platform, operation, 'The platform is rate limiting us', details);
  if (response.status === 401) return new PlatformError('unauthorized', platform, operation, 'The platform refused the access token', details);
  if (response.status === 404) return new PlatformError('not_found', platform, operation, 'The platform has no such account', details);
  return new PlatformError('unavailable', platform, operation, 'The platform could not answer', details);
}

/** A standard authorization-code or refresh-token call to an RFC 6749 token endpoint. */
export async function requestTokens(
  context: ProviderContext,
  request: Omit<PlatformRequest, 'method'> & { form: Record<string, string | undefined> },
): Promise<TokenSet> {
  const response = await callPlatform(context, { ...request, method: 'POST' });
  if (response.status < 200 || response.status >= 300) throw tokenEndpointError(response, request.platform, request.operation);
  // Some token endpoints answer 200 with an error body (TikTok has been seen doing it).
  if (oauthErrorBody.safeParse(response.body).success && !oauthTokenBody.safeParse(response.body).success) {
    throw tokenEndpointError({ ...response, status: 400 }, request.platform, request.operation);
  }
  const body = parseBody(oauthTokenBody, response, request.platform, request.operation);
  return toTokenSet(body, context.now());
}

export function toTokenSet(body: z.infer<typeof oauthTokenBody>, now: Date): TokenSet {
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: body.expires_in !== undefined ? new Date(now.getTime() + body.expires_in * 1000) : undefined,
    scope: body.scope,
  };
}

/** Platforms report counts as numbers or numeric strings (YouTube's uint64 strings). */
export const count = z.union([z.number(), z.string().regex(/^\d+$/)]).transform((value) => Math.min(Number(value), 2_147_483_647));

/** Default: renew a minute before expiry, when there is a refresh token. */
export const standardRefresh = {
  refreshAheadMs: 60_000,
  canRefresh: (tokens: StoredTokens) => tokens.refreshToken !== null,
};

/**
 * Code exchange and refresh for platforms whose confidential clients authenticate with HTTP Basic at the
 * token endpoint (Google, X). A refresh answer without a refresh token keeps the stored one (the caller).
 */
export function basicAuthTokenGrants(platform: PlatformName, tokenUrl: string): Pick<Provider, 'exchangeCode' | 'refresh'> {
  const post = (context: ProviderContext, operation: 'token' | 'refresh', form: Record<string, string | undefined>) =>
    requestTokens(context, {
      platform,
      operation,
      url: tokenUrl,
      headers: { authorization: basicAuthorization(context.clientId, context.clientSecret) },
      form,
    });
  return {
    exchangeCode: (context, { code, codeVerifier }) =>
      post(context, 'token', { grant_type: 'authorization_code', code, redirect_uri: context.redirectUri, code_verifier: codeVerifier }),
    refresh: (context, tokens) => post(context, 'refresh', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken ?? undefined }),
  };
}

/** UTC calendar day of an instant. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** `day` plus `days` (negative: back), as YYYY-MM-DD. */
export const addDays = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));

/** Counts calls of one sync run. */
export function callCounter() {
  const usage = { calls: 0, quotaUnits: 0 };
  return {
    usage,
    call(context: ProviderContext, request: PlatformRequest, units = 0) {
      usage.calls += 1;
      usage.quotaUnits += units;
      return callPlatform(context, request);
    },
  };
}
