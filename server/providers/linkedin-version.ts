// Which LinkedIn API version we ask for: one file, because the OAuth half and the sync both send it.
//
// LinkedIn releases a version most months and sunsets each about a year later, and it publishes no December version
// (…202510, 202511, 202601…; docs/platforms/linkedin.md#versions). So the version is never computed from today's
// date: it is configured (LINKEDIN_API_VERSION), a month known to be published, and bumped deliberately. If
// LinkedIn answers 426 (the version was sunset before the bump), a call is retried once with the previous
// published month and the fallback is logged, so an operator sees it before that month is sunset too.
import type { PlatformResponse } from './http-client.ts';
import type { ProviderContext } from './provider.ts';

/** A published month, active until about 2027-10. */
export const DEFAULT_LINKEDIN_VERSION = '202610';

/** `YYYYMM` with a month LinkedIn publishes (January to November). */
export const LINKEDIN_VERSION_PATTERN = /^\d{4}(0[1-9]|1[01])$/;

/** The published month before `version`: November's predecessor is October, January's is the November before. */
export function previousLinkedinVersion(version: string): string {
  const year = Number(version.slice(0, 4));
  const month = Number(version.slice(4, 6));
  if (month === 1) return `${year - 1}11`;
  return `${year}${String(month - 1).padStart(2, '0')}`;
}

/** The configured version for this context (the default when none is configured). */
export const linkedinVersionOf = (context: ProviderContext) => context.apiVersion ?? DEFAULT_LINKEDIN_VERSION;

/**
 * Sends a versioned call with the configured version; on 426 (version not active) once more with the previous
 * published month, logging the fallback.
 */
export async function sendVersioned(context: ProviderContext, send: (version: string) => Promise<PlatformResponse>): Promise<PlatformResponse> {
  const configured = linkedinVersionOf(context);
  const response = await send(configured);
  if (response.status !== 426) return response;
  const fallback = previousLinkedinVersion(configured);
  context.logger.warn(
    { platform: 'linkedin', refusedVersion: configured, fallbackVersion: fallback },
    'LinkedIn refused the configured API version (426); retried with the previous published month. Set LINKEDIN_API_VERSION to a current one.',
  );
  return send(fallback);
}
