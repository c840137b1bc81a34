// One rule for platform failures, for every provider: what a refusal means is decided here from the platform's own
// body (Graph `error.code`, TikTok's `error.code`, X's problem `type`, LinkedIn's `code`, Google's `reason`), never
// from the HTTP status alone, and each maps to one thing the sync does about it:
// - retry_later: throttling or an outage, after the platform's own wait when it names one;
// - skip_part: data the platform does not have (a day too old, media without insights): store the rest;
// - needs_creator: only the creator can fix it (a permission not given, not a Business account, the app's access):
//   never retried blindly, the creator reads what to do;
// - reconnect: the grant is dead (the token is renewed once first, token-custody.ts).
// The table with every mapping and its source is docs/platforms/failures.md.
import { z } from 'zod';
import type { PlatformName } from '#contract/platforms.ts';
import type { PlatformResponse } from './http-client.ts';
import { retryAfterSeconds } from './http-date.ts';
import { PlatformError, type PlatformErrorDetails } from './platform-error.ts';

export type FailureRule = 'retry_later' | 'skip_part' | 'needs_creator' | 'reconnect';

/** What the sync does about a failure; `waitSeconds` null: the platform named no wait (the queue backs off). */
export interface FailureDecision {
  rule: FailureRule;
  waitSeconds: number | null;
  /** needs_creator: what the creator must do, in their words. */
  action: string | null;
}

/** The rule a PlatformError falls under. Malformed answers and `not_found` are the sync's own give-ups (sync.service.ts). */
export function failureRuleOf(error: PlatformError): FailureDecision {
  switch (error.kind) {
    case 'needs_creator':
      return { rule: 'needs_creator', waitSeconds: null, action: isCreatorAction(error.details.userAction) ? error.details.userAction : CREATOR_ACTIONS.other };
    case 'skip':
      return { rule: 'skip_part', waitSeconds: null, action: null };
    case 'invalid_grant':
    case 'unauthorized':
      return { rule: 'reconnect', waitSeconds: null, action: null };
    default:
      return { rule: 'retry_later', waitSeconds: error.details.retryAfterSeconds ?? null, action: null };
  }
}

/** The creator's action for each needs_creator refusal, in their words; each ends with what to press. */
export const CREATOR_ACTIONS = {
  instagramProfessional:
    'Instagram needs a Business or Creator account for insights: switch it in the Instagram app (Settings › Account type and tools), then press Retry.',
  instagramPermission: 'Instagram did not give this app permission to read your insights: connect Instagram again and allow every permission it asks for, then press Retry.',
  tiktokScope: 'TikTok did not give us permission to read this: connect TikTok again and leave every permission ticked, then press Retry.',
  xClientForbidden:
    'X does not let this app read your posts with its current X developer access. The app’s owner must upgrade that access; press Retry once they have.',
  xNotAuthorized: 'X refused to show these posts to this app: connect X again with the account that posted them (and allow reading posts), then press Retry.',
  linkedinPermission: 'LinkedIn did not give us permission to read your analytics: connect LinkedIn again and allow access to your profile and post analytics, then press Retry.',
  patreonForbidden: 'Patreon refused to show this campaign: connect Patreon again with the creator account that owns the campaign, then press Retry.',
  youtubePermission: 'YouTube did not give us permission to read your analytics: connect YouTube again and tick every box Google shows, then press Retry.',
  youtubeForbidden: 'YouTube refused to give us this channel’s data: connect YouTube again with the Google account that owns the channel, then press Retry.',
  other: 'The platform refused to give us this data: check the connected account’s permissions (connect it again if you changed them), then press Retry.',
} as const;

const ACTION_MESSAGES: ReadonlySet<string> = new Set(Object.values(CREATOR_ACTIONS));

/** Whether a stored sync message is a creator's action (the sync stopped until they act), so the status can say so. */
export const isCreatorAction = (message: string | null | undefined): message is string => message !== null && message !== undefined && ACTION_MESSAGES.has(message);

/** Graph's throttling codes (2.7): app, user, page, custom, business use case. */
export const GRAPH_THROTTLE_CODES = [4, 17, 32, 613, 80002];

const graphError = z.looseObject({ error: z.looseObject({ code: z.number().optional(), error_subcode: z.number().optional(), message: z.string().optional() }) });
const businessUseCaseUsage = z.record(z.string(), z.array(z.looseObject({ estimated_time_to_regain_access: z.number().nonnegative().optional() })));
const tiktokEnvelope = z.looseObject({ error: z.looseObject({ code: z.string() }) });
const xProblem = z.looseObject({ type: z.string().optional(), errors: z.array(z.looseObject({ type: z.string().optional() })).optional() });
const linkedinError = z.looseObject({ code: z.string().optional(), serviceErrorCode: z.number().optional(), message: z.string().optional() });
const patreonErrors = z.looseObject({ errors: z.array(z.looseObject({ retry_after_seconds: z.number().optional(), code_name: z.string().optional() })) });
const googleError = z.looseObject({ error: z.looseObject({ errors: z.array(z.looseObject({ reason: z.string().optional() })).optional() }) });

/**
 * The longest `estimated_time_to_regain_access` (minutes) in `X-Business-Use-Case-Usage`, in seconds: the only
 * time Graph throttling signals (2.7). Undefined when absent, zero or unreadable.
 */
function regainAccessSeconds(response: PlatformResponse): number | undefined {
  const header = response.headers.get('x-business-use-case-usage');
  if (!header) return undefined;
  let usage: unknown;
  try {
    usage = JSON.parse(header);
  } catch {
    return undefined;
  }
  const minutes = Object.values(businessUseCaseUsage.safeParse(usage).data ?? {}).flatMap((entries) => entries.map((entry) => entry.estimated_time_to_regain_access ?? 0));
  const longest = Math.max(0, ...minutes);
  return longest > 0 ? longest * 60 : undefined;
}

/** Seconds until the next midnight UTC, when LinkedIn's daily limits reset (5.5). */
function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

type Failure = { kind: PlatformError['kind']; message: string; details?: Partial<PlatformErrorDetails> };

const RATE_LIMITED: Failure = { kind: 'rate_limited', message: 'The platform is rate limiting us' };
const TOKEN_REFUSED: Failure = { kind: 'unauthorized', message: 'The platform refused the access token' };
const NO_DATA: Failure = { kind: 'skip', message: 'The platform has no data for this' };
const needsCreator = (userAction: string, message = 'The platform needs the creator to act'): Failure => ({ kind: 'needs_creator', message, details: { userAction } });

function byStatus(status: number): Failure {
  if (status === 429) return RATE_LIMITED;
  if (status === 401) return TOKEN_REFUSED;
  if (status === 404) return { kind: 'not_found', message: 'The platform has no such account' };
  return { kind: 'unavailable', message: 'The platform could not answer' };
}

/** Graph (2.7, new §3.7): keyed by `error.code`, never by status (throttling is usually a 400). */
function instagramFailure(response: PlatformResponse): Failure & { errorCode?: string; retryAfterSeconds?: number } {
  const error = graphError.safeParse(response.body).data?.error;
  const code = error?.code;
  const errorCode = code !== undefined ? String(code) : undefined;
  if (response.status === 429 || (code !== undefined && GRAPH_THROTTLE_CODES.includes(code))) return { ...RATE_LIMITED, errorCode, retryAfterSeconds: regainAccessSeconds(response) };
  if (code === 190 || code === 102 || response.status === 401) return { ...TOKEN_REFUSED, errorCode };
  // Code 10 is both "(#10) Not enough viewers for the media to show insights" (data Instagram does not have) and
  // "(#10) Application does not have permission for this action" (a permission); only the message tells them apart.
  if (code === 10 && /not enough viewers/i.test(error?.message ?? '')) return { ...NO_DATA, errorCode };
  if (code === 10) return { ...needsCreator(CREATOR_ACTIONS.instagramProfessional), errorCode };
  if (code !== undefined && code >= 200 && code <= 299) return { ...needsCreator(CREATOR_ACTIONS.instagramPermission), errorCode };
  // 100: a parameter Instagram refuses for this item or day (media posted before the business conversion, subcode
  // 2108006; a day past what Meta keeps; follower metrics outside their 30 days or under 100 followers).
  // 3001: an insights query Meta has nothing for.
  if (code === 100 || code === 3001) return { ...NO_DATA, errorCode: error?.error_subcode !== undefined ? `${code}/${error.error_subcode}` : String(code) };
  return { ...byStatus(response.status), errorCode };
}

/** TikTok (3.4): the envelope's `error.code`, also on a 200. */
function tiktokFailure(response: PlatformResponse): Failure & { errorCode?: string } {
  const errorCode = tiktokEnvelope.safeParse(response.body).data?.error.code;
  if (errorCode === 'scope_not_authorized' || errorCode === 'scope_permission_missed') return { ...needsCreator(CREATOR_ACTIONS.tiktokScope), errorCode };
  if (errorCode === 'access_token_invalid') return { ...TOKEN_REFUSED, errorCode };
  if (errorCode === 'rate_limit_exceeded') return { ...RATE_LIMITED, errorCode };
  return { ...byStatus(response.status === 200 ? 500 : response.status), errorCode };
}

/** X (4.5): problem JSON; the last path segment of its `type` names it. */
function twitterFailure(response: PlatformResponse): Failure & { errorCode?: string; retryAfterSeconds?: number } {
  const problem = xProblem.safeParse(response.body).data;
  const type = (problem?.type ?? problem?.errors?.[0]?.type)?.split('/').at(-1);
  const errorCode = type && type !== 'about:blank' ? type : undefined;
  if (response.status === 429 || type === 'usage-capped') {
    // X says when the window resets (epoch seconds), not how long to wait.
    const reset = Number(response.headers.get('x-rate-limit-reset'));
    const wait = Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - response.receivedAt.getTime() / 1000)) : undefined;
    return { ...RATE_LIMITED, errorCode, retryAfterSeconds: wait };
  }
  if (response.status === 401) return { ...TOKEN_REFUSED, errorCode };
  if (type === 'client-forbidden') return { ...needsCreator(CREATOR_ACTIONS.xClientForbidden), errorCode };
  if (response.status === 403) return { ...needsCreator(CREATOR_ACTIONS.xNotAuthorized), errorCode: errorCode ?? 'forbidden' };
  return { ...byStatus(response.status), errorCode };
}

/** LinkedIn (5.5): `code` and `serviceErrorCode`; daily limits reset at midnight UTC (documented with no header; a Retry-After still wins). */
function linkedinFailure(response: PlatformResponse): Failure & { errorCode?: string; retryAfterSeconds?: number } {
  const body = linkedinError.safeParse(response.body).data;
  const errorCode = body?.code ?? (body?.serviceErrorCode !== undefined ? String(body.serviceErrorCode) : undefined);
  if (response.status === 429) return { ...RATE_LIMITED, errorCode, retryAfterSeconds: retryAfterSeconds(response) ?? secondsUntilUtcMidnight(response.receivedAt) };
  if (response.status === 401) return { ...TOKEN_REFUSED, errorCode };
  if (response.status === 403) return { ...needsCreator(CREATOR_ACTIONS.linkedinPermission), errorCode: errorCode ?? 'ACCESS_DENIED' };
  if (response.status === 400 && body?.message?.startsWith('Input field validation failure')) return { ...NO_DATA, errorCode: 'validation_failure' };
  return { ...byStatus(response.status), errorCode };
}

/** Patreon (6.6): JSON:API errors; a 429 names its wait in `retry_after_seconds`. */
function patreonFailure(response: PlatformResponse): Failure & { errorCode?: string; retryAfterSeconds?: number } {
  const first = patreonErrors.safeParse(response.body).data?.errors[0];
  const errorCode = first?.code_name;
  if (response.status === 429) return { ...RATE_LIMITED, errorCode, ...(first?.retry_after_seconds !== undefined ? { retryAfterSeconds: first.retry_after_seconds } : {}) };
  if (response.status === 403) return { ...needsCreator(CREATOR_ACTIONS.patreonForbidden), errorCode: errorCode ?? 'Forbidden' };
  return { ...byStatus(response.status), errorCode };
}

/**
 * Google (1.5): a 403's `reason`. Quota and rate refusals are waits (youtube/client.ts adds the quota day's reset);
 * `insufficientPermissions` is a box left unticked at consent; `forbidden` is data this grant may not see.
 */
function youtubeFailure(response: PlatformResponse): Failure & { errorCode?: string } {
  const reason = googleError.safeParse(response.body).data?.error.errors?.[0]?.reason;
  if (response.status === 403 && reason && ['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded'].includes(reason)) return { ...RATE_LIMITED, errorCode: reason };
  if (response.status === 403 && reason === 'insufficientPermissions') return { ...needsCreator(CREATOR_ACTIONS.youtubePermission), errorCode: reason };
  if (response.status === 403) return { ...needsCreator(CREATOR_ACTIONS.youtubeForbidden), errorCode: reason ?? 'forbidden' };
  return { ...byStatus(response.status), errorCode: reason };
}

const READERS: Record<PlatformName, (response: PlatformResponse) => Failure & { errorCode?: string; retryAfterSeconds?: number }> = {
  instagram: instagramFailure,
  tiktok: tiktokFailure,
  twitter: twitterFailure,
  linkedin: linkedinFailure,
  patreon: patreonFailure,
  youtube: youtubeFailure,
};

/**
 * The one classification of a platform's refusal (a non-2xx answer, or TikTok's error envelope on a 200): the
 * PlatformError every sync read throws. The wait is the platform's own (its header or body), else a Retry-After.
 */
export function platformFailure(platform: PlatformName, operation: string, response: PlatformResponse): PlatformError {
  const { kind, message, details, errorCode, retryAfterSeconds: platformWait } = READERS[platform](response);
  const wait = platformWait ?? retryAfterSeconds(response);
  return new PlatformError(kind, platform, operation, message, {
    status: response.status,
    ...(errorCode !== undefined ? { errorCode } : {}),
    ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
    ...details,
  });
}
