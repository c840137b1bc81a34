// What went wrong at a platform, in the terms the product acts on. Which refusal is which kind is decided in one
// place, failure-rule.ts.
import type { PlatformName } from '#contract/platforms.ts';

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
  | 'unavailable'
  /** Only the creator can fix it (a permission not given, not a Business account…): `details.userAction` says how. */
  | 'needs_creator'
  /** Data the platform does not have (a day too old, media without insights): that part is left out, the rest stands. */
  | 'skip';

export interface PlatformErrorDetails {
  status?: number;
  errorCode?: string;
  retryAfterSeconds?: number;
  /** needs_creator: what the creator must do, in their words (ours, never the platform's text). */
  userAction?: string;
}

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    readonly platform: PlatformName,
    readonly operation: string,
    message: string,
    readonly details: PlatformErrorDetails = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** The connection needs the user to connect again; carried out of a transaction so its mark is committed. */
export class ReconnectRequired extends Error {}

/** A grant the platform no longer gives this app (Provider.supersededGrant): the user is told why, in words. */
export class SupersededGrant extends ReconnectRequired {
  constructor(readonly userMessage: string) {
    super('The connection was made under scopes this app is no longer given');
  }
}
