// What went wrong at a platform, in the terms the product acts on.
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

/** The connection needs the user to connect again; carried out of a transaction so its mark is committed. */
export class ReconnectRequired extends Error {}

/** A grant the platform no longer gives this app (Provider.supersededGrant): the user is told why, in words. */
export class SupersededGrant extends ReconnectRequired {
  constructor(readonly userMessage: string) {
    super('The connection was made under scopes this app is no longer given');
  }
}
