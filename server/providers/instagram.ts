// Instagram API with Instagram Login (docs/platforms/instagram.md#oauth, 2.3, 2.7): no PKCE, comma-separated scopes, a
// short-lived token exchanged at once for a 60-day one, and no refresh token: the long-lived token itself is
// extended (it must be at least 24 hours old and not yet expired), well before its 60 days run out.
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody, type PlatformResponse } from './http-client.ts';
import { toTokenSet } from './oauth-tokens.ts';
import { PlatformError } from './platform-error.ts';
import { type Provider, type ProviderContext, type TokenSet } from './provider.ts';

const AUTHORIZE_URL = 'https://www.instagram.com/oauth/authorize';
const SHORT_LIVED_TOKEN_URL = 'https://api.instagram.com/oauth/access_token';
const LONG_LIVED_TOKEN_URL = 'https://graph.instagram.com/access_token';
const REFRESH_URL = 'https://graph.instagram.com/refresh_access_token';
const GRAPH_VERSION = 'v25.0';
const PROFILE_URL = `https://graph.instagram.com/${GRAPH_VERSION}/me`;
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_manage_insights'];

const DAY = 86_400_000;
/** A long-lived token can only be extended once it is a day old. */
const MIN_AGE_BEFORE_EXTENDING_MS = DAY;

/** Both documented shapes: flat, or wrapped in a `data` array (Business Login). user_id may exceed 2^53: not read here. */
const shortLivedBody = z.union([
  z.looseObject({ access_token: z.string().min(1) }).transform((body) => body.access_token),
  z.looseObject({ data: z.array(z.looseObject({ access_token: z.string().min(1) })).min(1) }).transform((body) => body.data[0]!.access_token),
]);
const longLivedBody = z.looseObject({ access_token: z.string().min(1), token_type: z.string().optional(), expires_in: z.coerce.number().positive().optional() });
/** api.instagram.com's token errors, and Graph's error object. */
const instagramError = z.looseObject({ error_type: z.string().optional(), code: z.number().optional(), error_message: z.string().optional() });
const graphError = z.looseObject({ error: z.looseObject({ code: z.number().optional(), type: z.string().optional() }) });

const profileBody = z.looseObject({
  id: z.string().min(1),
  username: z.string().optional(),
  name: z.string().optional(),
  profile_picture_url: z.string().optional(),
  followers_count: count.optional(),
});

/** Graph errors are keyed by `error.code`, not HTTP status: 190 means the token is expired or invalid. */
function graphFailure(response: PlatformResponse, operation: string, grantOperation: boolean): PlatformError {
  const graph = graphError.safeParse(response.body);
  const code = graph.success ? graph.data.error.code : undefined;
  const details = { status: response.status, errorCode: code !== undefined ? String(code) : undefined };
  if (code === 190) {
    return grantOperation
      ? new PlatformError('invalid_grant', 'instagram', operation, 'Instagram refused the token', details)
      : new PlatformError('unauthorized', 'instagram', operation, 'Instagram refused the access token', details);
  }
  if (code !== undefined && [4, 17, 32, 613, 80002].includes(code)) return new PlatformError('rate_limited', 'instagram', operation, 'Instagram is rate limiting us', details);
  return apiError(response, 'instagram', operation, details.errorCode);
}

async function longLived(context: ProviderContext, operation: string, url: string): Promise<TokenSet> {
  const response = await callPlatform(context, { platform: 'instagram', operation, url });
  if (response.status !== 200) throw graphFailure(response, operation, true);
  return toTokenSet(parseBody(longLivedBody, response, 'instagram', operation), context.now());
}

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const instagram: Omit<Provider, 'sync'> = {
  platform: 'instagram',
  // A long-lived token extended before it expires; no refresh token exists.
  issuesRefreshToken: false,
  pkce: () => null,
  // Extend with a week to spare, so a missed sync or two never lets the 60 days run out.
  refreshAheadMs: 7 * DAY,
  canRefresh: (tokens, now) =>
    tokens.expiresAt !== null && tokens.expiresAt > now && (tokens.issuedAt === null || now.getTime() - tokens.issuedAt.getTime() >= MIN_AGE_BEFORE_EXTENDING_MS),

  authorizeUrl(context, { state }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      response_type: 'code',
      scope: INSTAGRAM_SCOPES.join(','),
      state,
    });
  },

  async exchangeCode(context, { code }) {
    // Instagram appends `#_` to the redirect; a client that kept it would send it along.
    const cleanCode = code.replace(/#_$/, '');
    const response = await callPlatform(context, {
      platform: 'instagram',
      operation: 'token',
      method: 'POST',
      url: SHORT_LIVED_TOKEN_URL,
      form: { client_id: context.clientId, client_secret: context.clientSecret, grant_type: 'authorization_code', redirect_uri: context.redirectUri, code: cleanCode },
    });
    if (response.status !== 200) {
      const error = instagramError.safeParse(response.body);
      const details = { status: response.status, errorCode: error.success ? error.data.error_type : undefined };
      if (response.status === 429) throw new PlatformError('rate_limited', 'instagram', 'token', 'Instagram is rate limiting us', details);
      if (response.status === 400 && error.success && (error.data.error_type === 'OAuthException' || error.data.code === 400)) {
        throw new PlatformError('invalid_grant', 'instagram', 'token', 'Instagram refused the authorization code', details);
      }
      if (graphError.safeParse(response.body).success) throw graphFailure(response, 'token', true);
      throw new PlatformError('unavailable', 'instagram', 'token', 'Instagram refused the token request', details);
    }
    const shortLivedToken = parseBody(shortLivedBody, response, 'instagram', 'token');
    return longLived(
      context,
      'token',
      buildUrl(LONG_LIVED_TOKEN_URL, { grant_type: 'ig_exchange_token', client_secret: context.clientSecret, access_token: shortLivedToken }),
    );
  },

  refresh(context, tokens) {
    return longLived(context, 'refresh', buildUrl(REFRESH_URL, { grant_type: 'ig_refresh_token', access_token: tokens.accessToken }));
  },

  async profile(context, accessToken) {
    const response = await callPlatform(context, {
      platform: 'instagram',
      operation: 'profile',
      url: buildUrl(PROFILE_URL, { fields: 'id,username,name,profile_picture_url,followers_count', access_token: accessToken }),
    });
    if (response.status !== 200) throw graphFailure(response, 'profile', false);
    const body = parseBody(profileBody, response, 'instagram', 'profile');
    return {
      // The app-scoped id: always a string, and what every Instagram Login call accepts as the user node.
      id: body.id,
      username: body.username ?? null,
      displayName: body.name ?? body.username ?? null,
      followers: body.followers_count ?? null,
      avatarUrl: body.profile_picture_url ?? null,
    };
  },
};
