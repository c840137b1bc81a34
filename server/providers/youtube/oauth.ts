// YouTube through Google OAuth 2.0 and the YouTube Data API v3 (docs/platforms/youtube.md#oauth, 1.2, 1.5).
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody } from '../http-client.ts';
import { basicAuthTokenGrants, standardRefresh } from '../oauth-tokens.ts';
import { PlatformError } from '../platform-error.ts';
import { type PlatformProfile, type Provider, type ProviderContext } from '../provider.ts';
import { spendDataApiUnit, youtubeFailure } from './client.ts';
import { YOUTUBE_SCOPES } from './scopes.ts';

const AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const REVOKE_URL = 'https://oauth2.googleapis.com/revoke';
const CHANNELS_URL = 'https://www.googleapis.com/youtube/v3/channels';
const channel = z.looseObject({
  id: z.string().min(1),
  snippet: z
    .looseObject({
      title: z.string().optional(),
      customUrl: z.string().optional(),
      thumbnails: z.record(z.string(), z.looseObject({ url: z.string() })).optional(),
    })
    .optional(),
  statistics: z.looseObject({ subscriberCount: count.optional(), hiddenSubscriberCount: z.boolean().optional() }).optional(),
});
const channelList = z.looseObject({ items: z.array(channel).optional() });

/**
 * The subscriber count, or null when unknown: absent, or hidden by the channel and answered as nothing or 0 (a hidden
 * count is not zero subscribers). A hidden count answered to its owner is the real one.
 */
export function subscribersOf(statistics: { subscriberCount?: number; hiddenSubscriberCount?: boolean } | undefined): number | null {
  const count = statistics?.subscriberCount;
  if (count === undefined || (statistics?.hiddenSubscriberCount && count === 0)) return null;
  return count;
}

function toProfile(item: z.infer<typeof channel>): PlatformProfile {
  const thumbnails = item.snippet?.thumbnails;
  return {
    id: item.id,
    username: item.snippet?.customUrl ?? null,
    displayName: item.snippet?.title ?? null,
    // A channel that hides its subscriber count may leave subscriberCount out: unknown (null), never 0.
    followers: subscribersOf(item.statistics),
    avatarUrl: thumbnails?.default?.url ?? thumbnails?.medium?.url ?? null,
  };
}

async function readChannels(context: ProviderContext, operation: string, query: Record<string, string>, headers: Record<string, string>) {
  const response = await callPlatform(context, { platform: 'youtube', operation, url: buildUrl(CHANNELS_URL, { part: 'snippet,statistics', ...query }), headers });
  await spendDataApiUnit(context, response);
  // A spent daily quota is a wait (client.ts), not an outage: manual connections are synced through here.
  if (response.status !== 200) throw youtubeFailure(response, operation);
  return parseBody(channelList, response, 'youtube', operation).items ?? [];
}

/** `@handle`, a channel id (UC…), or a youtube.com URL of either form. */
export function parseYouTubeReference(input: string): { forHandle: string } | { id: string } | undefined {
  let value = input.trim();
  if (/^(https?:\/\/)?(www\.|m\.)?youtube\.com\//i.test(value)) {
    const path = new URL(value.startsWith('http') ? value : `https://${value}`).pathname;
    const channelId = /^\/channel\/(UC[\w-]{22})\/?$/.exec(path)?.[1];
    if (channelId) return { id: channelId };
    const handle = /^\/(@[\w.-]{3,30})\/?/.exec(path)?.[1];
    if (!handle) return undefined;
    value = handle;
  }
  if (/^UC[\w-]{22}$/.test(value)) return { id: value };
  const handle = /^@?([\w.-]{3,30})$/.exec(value)?.[1];
  return handle ? { forHandle: `@${handle}` } : undefined;
}

/** The OAuth and profile half of YouTube's provider; server/providers/registry.ts adds the sync. */
export const youtubeOAuth: Omit<Provider, 'sync'> = {
  platform: 'youtube',
  // access_type=offline with prompt=consent: Google issues a refresh token on every consent.
  issuesRefreshToken: true,
  pkce: () => 'base64url',
  ...standardRefresh,

  authorizeUrl(context, { state, codeChallenge }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      response_type: 'code',
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      scope: YOUTUBE_SCOPES.join(' '),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      // A refresh token is only issued for offline access; consent again so a reconnect gets a new one.
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
    });
  },

  // Google does not send a new refresh token on refresh: the caller keeps the stored one.
  ...basicAuthTokenGrants('youtube', TOKEN_URL),

  async profile(context, accessToken) {
    const items = await readChannels(context, 'profile', { mine: 'true' }, { authorization: `Bearer ${accessToken}` });
    if (!items[0]) throw new PlatformError('not_found', 'youtube', 'profile', 'This Google account has no YouTube channel');
    return toProfile(items[0]);
  },

  // Revoking the refresh token ends the whole grant, access tokens included.
  async revoke(context, tokens) {
    const response = await callPlatform(context, {
      platform: 'youtube',
      operation: 'revoke',
      url: REVOKE_URL,
      form: { token: tokens.refreshToken ?? tokens.accessToken },
    });
    if (response.status !== 200 && response.status !== 400) throw apiError(response, 'youtube', 'revoke');
  },

  async lookupPublicProfile(context, handleOrUrl) {
    const reference = parseYouTubeReference(handleOrUrl);
    if (!reference) throw new PlatformError('not_found', 'youtube', 'lookup', 'Not a YouTube handle, channel id or channel URL');
    const key = context.appKeys.youtubeApiKey;
    if (!key) throw new PlatformError('unavailable', 'youtube', 'lookup', 'No YouTube API key is configured');
    const items = await readChannels(context, 'lookup', { ...reference, key }, {});
    if (!items[0]) throw new PlatformError('not_found', 'youtube', 'lookup', 'No YouTube channel with that handle or id');
    return toProfile(items[0]);
  },
};
