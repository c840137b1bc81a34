// Patreon API v2 (docs/platforms/patreon.md, 6.6): no PKCE, credentials in the body, JSON:API responses where
// every attribute must be asked for with fields[...], and single-use refresh tokens (store the new one).
import { z } from 'zod';
import { apiError, buildUrl, callPlatform, count, parseBody } from './http-client.ts';
import { requestTokens, standardRefresh } from './oauth-tokens.ts';
import { type Provider } from './provider.ts';

const AUTHORIZE_URL = 'https://www.patreon.com/oauth2/authorize';
const TOKEN_URL = 'https://www.patreon.com/api/oauth2/token';
const IDENTITY_URL = 'https://www.patreon.com/api/oauth2/v2/identity';
/** The creator's identity, campaign and members (patron count and revenue). */
export const PATREON_SCOPES = ['identity', 'campaigns', 'campaigns.members'];

const identityBody = z.looseObject({
  data: z.looseObject({
    type: z.literal('user'),
    id: z.string().min(1),
    attributes: z.looseObject({ full_name: z.string().optional(), vanity: z.string().nullish(), image_url: z.string().nullish() }).optional(),
    relationships: z.looseObject({ campaign: z.looseObject({ data: z.looseObject({ id: z.string() }).nullish() }).optional() }).optional(),
  }),
  included: z.array(z.looseObject({ type: z.string(), id: z.string(), attributes: z.looseObject({}).optional() })).optional(),
});
const campaignAttributes = z.looseObject({ patron_count: count.optional(), vanity: z.string().nullish() });

/** The OAuth and profile half; server/providers/registry.ts adds the sync. */
export const patreon: Omit<Provider, 'sync'> = {
  platform: 'patreon',
  issuesRefreshToken: true,
  pkce: () => null,
  ...standardRefresh,

  authorizeUrl(context, { state }) {
    return buildUrl(context.url(AUTHORIZE_URL), {
      response_type: 'code',
      client_id: context.clientId,
      redirect_uri: context.redirectUri,
      scope: PATREON_SCOPES.join(' '),
      state,
    });
  },

  exchangeCode(context, { code }) {
    return requestTokens(context, {
      platform: 'patreon',
      operation: 'token',
      url: TOKEN_URL,
      form: { code, grant_type: 'authorization_code', client_id: context.clientId, client_secret: context.clientSecret, redirect_uri: context.redirectUri },
    });
  },

  refresh(context, tokens) {
    return requestTokens(context, {
      platform: 'patreon',
      operation: 'refresh',
      url: TOKEN_URL,
      form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken ?? undefined, client_id: context.clientId, client_secret: context.clientSecret },
    });
  },

  async profile(context, accessToken) {
    const response = await callPlatform(context, {
      platform: 'patreon',
      operation: 'profile',
      url: buildUrl(IDENTITY_URL, {
        include: 'campaign',
        'fields[user]': 'full_name,vanity,url,image_url',
        'fields[campaign]': 'patron_count,vanity,url',
      }),
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (response.status !== 200) throw apiError(response, 'patreon', 'profile');
    const body = parseBody(identityBody, response, 'patreon', 'profile');
    const campaignId = body.data.relationships?.campaign?.data?.id;
    const campaign = body.included?.find((item) => item.type === 'campaign' && (campaignId === undefined || item.id === campaignId));
    const attributes = campaignAttributes.safeParse(campaign?.attributes ?? {});
    const campaignValues = attributes.success ? attributes.data : {};
    return {
      id: body.data.id,
      username: body.data.attributes?.vanity ?? campaignValues.vanity ?? null,
      displayName: body.data.attributes?.full_name ?? null,
      // A patron without a campaign of their own has no patrons (0, a fact); a campaign whose count Patreon did not
      // send has no figure (null), never a day at 0.
      followers: campaign === undefined ? 0 : (campaignValues.patron_count ?? null),
      avatarUrl: body.data.attributes?.image_url ?? null,
    };
  },
};
