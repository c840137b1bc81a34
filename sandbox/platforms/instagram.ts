// Instagram API with Instagram Login: the authorize dialog (www.instagram.com, also api.instagram.com), the
// short-lived token exchange (api.instagram.com), the 60-day long-lived exchange and its refresh, and the IG User
// profile (graph.instagram.com, with or without a /vNN.N/ prefix). docs/platforms/instagram.md#oauth, §2.3, §2.7.
//
// Instagram specifics modelled: the redirect carries `#_` after the query; the token endpoint takes form or
// multipart bodies and answers `{error_type, code, error_message}` on failure; the short-lived answer has two
// documented shapes (`data` array with a string user_id and comma-joined permissions, or flat with a numeric user_id
// beyond 2^53 and a permissions array: use the profile's `id`, not that number); tokens go in the `access_token`
// query parameter (a Bearer header also works); no refresh token: a long-lived token at least 24 hours old is
// refreshed in place; errors are Graph `{error:{message,type,code,error_subcode,fbtrace_id}}` keyed by `code`.
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { bearerToken, json, rawJson, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomChars, randomToken, secretsEqual, type TokenRecord } from './oauth-core.ts';
import { createInstagramMetrics } from './instagram-metrics.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const DIALOG_HOSTS = ['www.instagram.com', 'api.instagram.com'];
const TOKEN_HOST = 'api.instagram.com';
const GRAPH_HOST = 'graph.instagram.com';
const CDN_HOST = 'scontent.cdninstagram.com';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  instagram_business_basic: 'Access your profile and media',
  instagram_business_manage_insights: 'Access insights for your account and media',
  instagram_business_manage_comments: 'Access and manage comments',
  instagram_business_manage_messages: 'Access and manage messages',
  instagram_business_content_publish: 'Publish content',
};

export const SHORT_LIVED_SECONDS = 3600;
export const LONG_LIVED_SECONDS = 60 * 24 * 3600;
/** A long-lived token can be refreshed once it is this old. */
const REFRESHABLE_AFTER_MS = 24 * 3600 * 1000;

export interface InstagramProfile {
  /** Instagram-scoped (app-scoped) user id: `/me` id and the token answer's user_id. */
  id: string;
  /** The professional account's id (webhooks, `<IG_ID>`). */
  userId: string;
  username: string;
  name: string;
  accountType: 'BUSINESS' | 'MEDIA_CREATOR';
  followersCount: number;
  followsCount: number;
  mediaCount: number;
  biography: string;
  website: string;
}

export function instagramProfile(persona: Persona): InstagramProfile {
  const random = accountRandom('instagram', persona, 'profile');
  return {
    id: `2${random.digits(16)}`,
    userId: `178414${random.digits(11)}`,
    username: persona.handle,
    name: persona.name,
    accountType: random.pick(['BUSINESS', 'MEDIA_CREATOR'] as const),
    // The small account stays under 100 followers, where Instagram withholds follower insights.
    followersCount: tierCount(random, persona, { large: [150_000, 400_000], medium: [10_000, 60_000], small: [40, 99] }),
    followsCount: random.int(80, 900),
    mediaCount: tierCount(random, persona, { large: [400, 1_200], medium: [150, 500], small: [8, 40] }),
    biography: persona.bio,
    website: persona.website,
  };
}

const PROFILE_FIELDS = ['id', 'user_id', 'username', 'name', 'account_type', 'profile_picture_url', 'followers_count', 'follows_count', 'media_count', 'biography', 'website'] as const;

const fbtraceId = () => randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-', 11);

function graphError(status: number, error: { message: string; code: number; type?: string; error_subcode?: number; is_transient?: boolean }, headers: Record<string, string> = {}): Reply {
  const { message, code, type = 'OAuthException', ...rest } = error;
  return json(status, { error: { message, type, code, ...rest, fbtrace_id: fbtraceId() } }, headers);
}

/** The legacy shape api.instagram.com still uses on its token endpoint. */
const tokenEndpointError = (message: string) => json(400, { error_type: 'OAuthException', code: 400, error_message: message });

/** "Friday, 01-May-26 10:00:00 PDT", the way Graph words dates in expired-session errors. */
function pacificTime(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      weekday: 'long',
      day: '2-digit',
      month: 'short',
      year: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday}, ${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

export function createInstagram(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.instagram;
  const profiles = PERSONAS.map(instagramProfile);
  const accounts: DemoAccount[] = profiles.map((profile) => ({
    name: profile.name,
    detail: `@${profile.username}`,
    audience: `${compactCount(profile.followersCount)} followers`,
    id: profile.id,
    username: profile.username,
    followers: profile.followersCount,
  }));

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'instagram',
      label: 'Instagram',
      signInWith: 'Instagram',
      hosts: DIALOG_HOSTS,
      paths: ['/oauth/authorize'],
      clientIdParam: 'client_id',
      // Comma-separated; URL-encoded spaces are accepted too.
      scopeSeparators: /[,\s]+/,
      scopes: SCOPE_DESCRIPTIONS,
      pkce: 'optional',
      newCode: () => randomToken('AQsbx', 96),
      successParams: (code, request) => [
        ['code', code],
        ['state', request.state],
      ],
      denyParams: () => [
        ['error', 'access_denied'],
        ['error_reason', 'user_denied'],
        ['error_description', 'The user denied your request.'],
      ],
      fragment: '_',
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  async function shortLivedToken(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request, { multipart: true });
    if (!form) return tokenEndpointError('Invalid request: the body must be application/x-www-form-urlencoded or multipart/form-data');
    for (const field of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
      if (!form.get(field)) return tokenEndpointError(`Missing required field ${field}`);
    }
    if (form.get('client_id') !== registered.clientId) return tokenEndpointError('Invalid platform app');
    if (!secretsEqual(form.get('client_secret')!, registered.clientSecret)) return tokenEndpointError('Error validating client secret.');
    if (form.get('grant_type') !== 'authorization_code') return tokenEndpointError('Unsupported grant_type');
    const redeemed = store.redeemCode('instagram', form.get('code')!, { clientId: registered.clientId, redirectUri: form.get('redirect_uri'), codeVerifier: form.get('code_verifier') });
    if (!redeemed.ok) {
      switch (redeemed.reason) {
        case 'redirect_mismatch':
          return tokenEndpointError('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request');
        case 'reused':
          return tokenEndpointError('This authorization code has been used');
        case 'expired':
          return tokenEndpointError('This authorization code has expired');
        case 'verifier_missing':
        case 'verifier_mismatch':
        case 'verifier_unexpected':
          return tokenEndpointError('Invalid code verifier');
        default:
          return tokenEndpointError('Invalid authorization code');
      }
    }
    const grant = store.createGrant('instagram', registered.clientId, redeemed.code.accountIndex, redeemed.code.grantedScopes);
    store.bindCode(redeemed.code, grant);
    const access = store.issueToken(grant, 'access_token', randomToken('IGQWsbx', 96), SHORT_LIVED_SECONDS, 'short_lived');
    const userId = profiles[grant.accountIndex]!.id;
    if (context.settings.instagramTokenResponse === 'flat') {
      // The Basic Display-era shape: user_id is a JSON number, larger than JavaScript can hold exactly.
      return rawJson(200, `{"access_token":${JSON.stringify(access.token)},"user_id":${userId},"permissions":${JSON.stringify(grant.scopes)}}`);
    }
    return json(200, { data: [{ access_token: access.token, user_id: userId, permissions: grant.scopes.join(',') }] });
  }

  /** The token from `access_token=` or a Bearer header, checked; a Graph error reply when unusable. */
  function graphToken(request: SandboxRequest): { record: TokenRecord } | { error: Reply } {
    const token = request.query.get('access_token') ?? bearerToken(request.headers);
    if (!token) return { error: graphError(400, { message: 'An active access token must be used to query information about the current user.', code: 2500 }) };
    const check = store.checkAccess('instagram', token);
    if (check.ok) return { record: check.record };
    if (check.reason === 'expired' && check.record?.expiresAt) {
      return {
        error: graphError(400, {
          message: `Error validating access token: Session has expired on ${pacificTime(check.record.expiresAt)}. The current time is ${pacificTime(context.now())}.`,
          code: 190,
          error_subcode: 463,
        }),
      };
    }
    if (check.reason === 'revoked') {
      return { error: graphError(400, { message: 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.', code: 190, error_subcode: 460 }) };
    }
    return { error: graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }) };
  }

  function longLivedReply(record: TokenRecord): Reply {
    return json(200, { access_token: record.token, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
  }

  function exchangeToken(request: SandboxRequest): Reply {
    const grantType = request.query.get('grant_type');
    if (grantType !== 'ig_exchange_token') return graphError(400, { message: `Unsupported grant_type: ${grantType ?? '(missing)'}. Expected ig_exchange_token.`, code: 100 });
    const clientSecret = request.query.get('client_secret');
    if (!clientSecret) return graphError(400, { message: 'Missing client_secret parameter.', code: 101 });
    if (!secretsEqual(clientSecret, registered.clientSecret)) return graphError(400, { message: 'Error validating client secret.', code: 101 });
    const checked = graphToken(request);
    if ('error' in checked) return checked.error;
    if (checked.record.variant !== 'short_lived') return graphError(400, { message: 'Only a short-lived access token can be exchanged for a long-lived one.', code: 100 });
    return longLivedReply(store.issueToken(checked.record.grant, 'access_token', randomToken('IGAAsbx', 96), LONG_LIVED_SECONDS, 'long_lived'));
  }

  function refreshToken(request: SandboxRequest): Reply {
    const grantType = request.query.get('grant_type');
    if (grantType !== 'ig_refresh_token') return graphError(400, { message: `Unsupported grant_type: ${grantType ?? '(missing)'}. Expected ig_refresh_token.`, code: 100 });
    const checked = graphToken(request);
    if ('error' in checked) return checked.error;
    const { record } = checked;
    if (record.variant !== 'long_lived') return graphError(400, { message: 'Only a long-lived access token can be refreshed.', code: 100 });
    if (context.now().getTime() - record.issuedAt.getTime() < REFRESHABLE_AFTER_MS) {
      return graphError(400, { message: 'The access token cannot be refreshed yet: it must be at least 24 hours old.', code: 100 });
    }
    return longLivedReply(store.issueToken(record.grant, 'access_token', randomToken('IGAAsbx', 96), LONG_LIVED_SECONDS, 'long_lived'));
  }

  function profile(request: SandboxRequest): Reply {
    const checked = graphToken(request);
    if ('error' in checked) return checked.error;
    const { grant } = checked.record;
    const accountIndex = grant.accountIndex;
    const user = profiles[accountIndex]!;
    const node = request.params.node ?? 'me';
    if (node !== 'me' && node !== user.id && node !== user.userId) {
      return graphError(400, {
        message: `Unsupported get request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        code: 100,
        error_subcode: 33,
        type: 'IGApiException',
      });
    }
    if (!grant.scopes.includes('instagram_business_basic')) return graphError(400, { message: '(#10) Application does not have permission for this action', code: 10 });
    const fields = (request.query.get('fields') ?? 'id').split(',').map((field) => field.trim()).filter(Boolean);
    const unknown = fields.find((field) => !(PROFILE_FIELDS as readonly string[]).includes(field));
    if (unknown !== undefined) return graphError(400, { message: `(#100) Tried accessing nonexisting field (${unknown}) on node type (User)`, code: 100 });
    const values: Record<(typeof PROFILE_FIELDS)[number], unknown> = {
      id: user.id,
      user_id: user.userId,
      username: user.username,
      name: user.name,
      account_type: user.accountType,
      profile_picture_url: avatarUrl(context, CDN_HOST, accountIndex),
      followers_count: user.followersCount,
      follows_count: user.followsCount,
      media_count: metrics.mediaCount(accountIndex), // follows the /me/media list
      biography: user.biography,
      website: user.website,
    };
    const body: Record<string, unknown> = {};
    for (const field of fields) body[field] = values[field as keyof typeof values];
    body.id = user.id; // Graph always answers with the node's id
    return json(200, body);
  }

  const metrics = createInstagramMetrics(context, { profiles, graphToken, graphError, pacificTime });
  const version = '(?:/v\\d+\\.\\d+)?';
  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'instagram', hosts: [TOKEN_HOST], method: 'POST', path: '/oauth/access_token', endpoint: 'token', group: 'token', handle: shortLivedToken },
    { platform: 'instagram', hosts: [GRAPH_HOST], method: 'GET', path: new RegExp(`^${version}/access_token$`), endpoint: 'exchange_token', group: 'token', handle: exchangeToken },
    { platform: 'instagram', hosts: [GRAPH_HOST], method: 'GET', path: new RegExp(`^${version}/refresh_access_token$`), endpoint: 'refresh_token', group: 'token', handle: refreshToken },
    { platform: 'instagram', hosts: [GRAPH_HOST], method: 'GET', path: new RegExp(`^${version}/(?<node>me|\\d+)$`), endpoint: 'profile', group: 'profile', handle: profile },
    ...metrics.routes,
    avatarRoute('instagram', CDN_HOST),
  ];

  return {
    platform: 'instagram',
    label: 'Instagram',
    hosts: [...DIALOG_HOSTS, GRAPH_HOST, CDN_HOST],
    accounts,
    routes,
    failureGroups: ['token', 'profile', 'metrics'],
    failure(group, kind, request, options) {
      if (group === 'metrics') return metrics.failure(kind, options);
      if (group === 'token' && request.host === TOKEN_HOST) {
        if (kind === 'invalid_grant') return tokenEndpointError('Invalid authorization code');
        if (kind === 'rate_limited') {
          return json(429, { error_type: 'OAuthRateLimitException', code: 429, error_message: 'The maximum number of requests per hour has been exceeded.' });
        }
        return json(500, { error_type: 'OAuthException', code: 500, error_message: 'An unknown error has occurred.' });
      }
      if (kind === 'invalid_grant') {
        return graphError(400, {
          message: 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
          code: 190,
          error_subcode: 460,
        });
      }
      if (kind === 'rate_limited') {
        return graphError(400, { message: '(#4) Application request limit reached', code: 4, is_transient: true }, { 'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 12, total_time: 34 }) });
      }
      return graphError(500, { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true });
    },
  };
}
