// The OAuth scopes we ask Google for, and what a stored grant allows us to read.
import { grantedScopes } from '../provider.ts';
const ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const MONETARY_SCOPE = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';

/**
 * Channel and video reads, and analytics with revenue. The monetary scope is a superset of yt-analytics.readonly, but
 * Google's consent screen lets the user untick scopes one by one: asking for both keeps the analytics when only the
 * revenue box is unticked (the sync then reports revenue as missingScope instead of reading nothing).
 */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.readonly',
  ANALYTICS_SCOPE,
  MONETARY_SCOPE,
];

/**
 * Whether a connection may read YouTube Analytics reports: either Analytics scope was granted (the monetary one
 * includes the rest). A connection whose granted scope is unknown (null) is read as if granted.
 */
export function grantsYoutubeAnalytics(scope: string | null): boolean {
  const granted = grantedScopes(scope);
  return granted === null || granted.has(ANALYTICS_SCOPE) || granted.has(MONETARY_SCOPE);
}

/** Whether the monetary scope (revenue reports) was granted; an unknown scope (null) is read as not granted. */
export function grantsYoutubeRevenue(scope: string | null): boolean {
  return grantedScopes(scope)?.has(MONETARY_SCOPE) ?? false;
}
