// X (Twitter) OAuth 2.0 with PKCE (x.com / twitter.com authorize; api.x.com / api.twitter.com token, revoke) and
// the users/me and users/by/username lookups of API v2. docs/platforms/x.md#oauth, §4.2, §4.5.
//
// X specifics modelled: PKCE is required (`S256`, `s256` or `plain`); the registered client is confidential, so
// the token and revoke endpoints want HTTP Basic (a body-only client gets `unauthorized_client`); a refresh token
// only with `offline.access`, rotating, a spent one revokes the family; dead codes and refresh tokens answer
// `invalid_request` with X's wording; API errors are problem JSON; every API answer carries x-rate-limit-* headers
// (informational: only `failNext(…, 'rate_limited')` produces a 429); users/me refuses the app-only bearer token.
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { basicCredentials, bearerToken, json, listParam, problemJson, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomToken, secretsEqual, type Grant } from './oauth-core.ts';
import { createTwitterMetrics, createXBilling } from './twitter-metrics.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const AUTH_HOSTS = ['x.com', 'twitter.com'];
const API_HOSTS = ['api.x.com', 'api.twitter.com'];
const CDN_HOST = 'pbs.twimg.com';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'tweet.read': 'All the posts you can view, including posts from protected accounts',
  'tweet.write': 'Post and repost for you',
  'tweet.moderate.write': 'Hide and unhide replies to your posts',
  'users.read': 'Any account you can view, including protected accounts',
  'users.email': 'Your email address',
  'follows.read': 'People who follow you and people who you follow',
  'follows.write': 'Follow and unfollow people for you',
  'offline.access': 'Stay connected to your account until you revoke access',
  'space.read': 'All the Spaces you can view',
  'mute.read': 'Accounts you have muted',
  'mute.write': 'Mute and unmute accounts for you',
  'like.read': 'Posts you have liked and likes you can view',
  'like.write': 'Like and unlike posts for you',
  'list.read': 'Lists, list members and list followers of lists you have created or are a member of',
  'list.write': 'Create and manage lists for you',
  'block.read': 'Accounts you have blocked',
  'block.write': 'Block and unblock accounts for you',
  'bookmark.read': 'Get bookmarked posts',
  'bookmark.write': 'Bookmark and remove bookmarks from posts',
  'media.write': 'Upload media',
};

export const ACCESS_TOKEN_LIFETIME_SECONDS = 7200;
/** X does not say; six months is what developers observe. */
const REFRESH_TOKEN_LIFETIME_SECONDS = 182 * 24 * 3600;

const USER_FIELDS = [
  'affiliation', 'confirmed_email', 'connection_status', 'created_at', 'description', 'entities', 'id', 'is_identity_verified', 'location',
  'most_recent_tweet_id', 'name', 'parody', 'pinned_tweet_id', 'profile_banner_url', 'profile_image_url', 'protected', 'public_metrics',
  'receives_your_dm', 'subscription', 'subscription_type', 'url', 'username', 'verified', 'verified_followers_count', 'verified_type', 'withheld',
] as const;
/** Tweet-era and post-era (OpenAPI v2.167) expansion names alike. */
const USER_EXPANSIONS = ['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id', 'affiliation', 'most_recent_post_id', 'pinned_post_id'];
const LOOKUP_PARAMS = ['expansions', 'tweet.fields', 'post.fields', 'user.fields'];

const RATE_WINDOW_MS = 15 * 60 * 1000;

export interface XUser {
  id: string;
  name: string;
  username: string;
  createdAt: string;
  description: string;
  location: string;
  url: string;
  verifiedType: 'blue' | 'none';
  followersCount: number;
  followingCount: number;
  tweetCount: number;
  listedCount: number;
  likeCount: number;
  mediaCount: number;
}

export function xUser(persona: Persona): XUser {
  const random = accountRandom('twitter', persona, 'profile');
  const followersCount = tierCount(random, persona, { large: [40_000, 150_000], medium: [3_000, 15_000], small: [80, 900] });
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    // Accounts from before late 2013 have short numeric ids; later ones are 19-digit snowflakes.
    id: persona.joined.year < 2014 ? random.digits(10) : `1${random.digits(18)}`,
    name: persona.name,
    username: persona.handle,
    createdAt: `${persona.joined.year}-${pad(persona.joined.month)}-${pad(random.int(1, 28))}T${pad(random.int(0, 23))}:${pad(random.int(0, 59))}:${pad(random.int(0, 59))}.000Z`,
    description: persona.bio,
    location: { US: 'Austin, TX', CA: 'Toronto, Ontario', GB: 'Bristol, England' }[persona.country] ?? '',
    url: `https://t.co/${random.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 10)}`,
    verifiedType: persona.tier === 'large' ? 'blue' : 'none',
    followersCount,
    followingCount: random.int(120, 1_200),
    tweetCount: tierCount(random, persona, { large: [6_000, 20_000], medium: [1_500, 6_000], small: [40, 600] }),
    listedCount: Math.round(followersCount / random.int(80, 200)),
    likeCount: random.int(2_000, 40_000),
    mediaCount: tierCount(random, persona, { large: [800, 2_500], medium: [200, 800], small: [5, 80] }),
  };
}

const problem = (status: number, title: string, detail = title, headers: Record<string, string> = {}) => problemJson(status, { title, type: 'about:blank', status, detail }, headers);

function invalidRequest(parameters: Record<string, string[]>, message: string): Reply {
  return problemJson(400, {
    errors: [{ parameters, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.x.com/2/problems/invalid-request',
  });
}

/**
 * X's opaque strings are base64 of `<random>:<ms>:1:0:<kind>:1` (kind `ac` code, `at` access, `rt` refresh); the
 * random part makes them unguessable, the rest makes them look like X's.
 */
function xOpaque(kind: 'ac' | 'at' | 'rt', now: Date): string {
  return Buffer.from(`${randomToken('sbx', 30)}:${now.getTime()}:1:0:${kind}:1`).toString('base64url');
}

export function createTwitter(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.twitter;
  const users = PERSONAS.map(xUser);
  const accounts: DemoAccount[] = users.map((user) => ({
    name: user.name,
    detail: `@${user.username}`,
    audience: `${compactCount(user.followersCount)} followers`,
    id: user.id,
    username: user.username,
    followers: user.followersCount,
  }));
  const rateWindows = new Map<string, { start: number; count: number }>();

  const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description });
  const unauthorizedClient = () => oauthError(401, 'unauthorized_client', 'Missing valid authorization header');

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'twitter',
      label: 'X',
      signInWith: 'X',
      hosts: AUTH_HOSTS,
      paths: ['/i/oauth2/authorize'],
      clientIdParam: 'client_id',
      scopeSeparators: / +/,
      scopes: SCOPE_DESCRIPTIONS,
      pkce: 'required',
      pkceMethodCaseInsensitive: true,
      newCode: () => xOpaque('ac', context.now()),
      successParams: (code, request) => [
        ['state', request.state],
        ['code', code],
      ],
      denyParams: () => [['error', 'access_denied']],
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  /** The confidential client authenticates with HTTP Basic only. */
  function clientAuthenticated(request: SandboxRequest): boolean {
    const basic = basicCredentials(request.headers);
    return Boolean(basic && basic.clientId === registered.clientId && secretsEqual(basic.clientSecret, registered.clientSecret));
  }

  function tokenAnswer(grant: Grant): Reply {
    const access = store.issueToken(grant, 'access_token', xOpaque('at', context.now()), ACCESS_TOKEN_LIFETIME_SECONDS);
    const offline = grant.scopes.includes('offline.access');
    const refresh = offline ? store.issueToken(grant, 'refresh_token', xOpaque('rt', context.now()), REFRESH_TOKEN_LIFETIME_SECONDS) : null;
    return json(200, {
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      access_token: access.token,
      scope: grant.scopes.join(' '),
      ...(refresh ? { refresh_token: refresh.token } : {}),
    });
  }

  async function token(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    if (!clientAuthenticated(request)) return unauthorizedClient();
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      for (const parameter of ['code', 'redirect_uri', 'code_verifier']) {
        if (!form.get(parameter)) return oauthError(400, 'invalid_request', `Missing required parameter [${parameter}].`);
      }
      const redeemed = store.redeemCode('twitter', form.get('code')!, { clientId: registered.clientId, redirectUri: form.get('redirect_uri'), codeVerifier: form.get('code_verifier') });
      if (!redeemed.ok) {
        return oauthError(
          400,
          'invalid_request',
          redeemed.reason === 'redirect_mismatch' ? 'Value passed for the redirect uri did not match the uri of the authorization code.' : 'Value passed for the authorization code was invalid.',
        );
      }
      const grant = store.createGrant('twitter', registered.clientId, redeemed.code.accountIndex, redeemed.code.grantedScopes);
      store.bindCode(redeemed.code, grant);
      return tokenAnswer(grant);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter [refresh_token].');
      const used = store.useRefreshToken('twitter', refreshToken, registered.clientId, { rotate: true });
      if (!used.ok) return oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      return tokenAnswer(used.grant);
    }
    return grantType ? oauthError(400, 'unsupported_grant_type', `Value passed for the grant type was invalid: ${grantType}.`) : oauthError(400, 'invalid_request', 'Missing required parameter [grant_type].');
  }

  async function revoke(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    if (!clientAuthenticated(request)) return unauthorizedClient();
    const tokenValue = form.get('token');
    if (!tokenValue) return oauthError(400, 'invalid_request', 'Missing required parameter [token].');
    const record = store.find(tokenValue);
    // RFC 7009: an unknown or already dead token is not an error.
    if (record && record.grant.platform === 'twitter') {
      // A refresh token takes the whole grant with it; an access token only itself.
      if (record.type === 'refresh_token') store.revokeGrant(record.grant, 'revoked');
      else store.revokeToken(record, 'revoked');
    }
    return json(200, { revoked: true });
  }

  function rateHeaders(key: string, limit: number): Record<string, string> {
    const now = context.now().getTime();
    let window = rateWindows.get(key);
    if (!window || now - window.start >= RATE_WINDOW_MS) {
      window = { start: now, count: 0 };
      rateWindows.set(key, window);
    }
    window.count += 1;
    return {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(Math.max(0, limit - window.count)),
      'x-rate-limit-reset': String(Math.ceil((window.start + RATE_WINDOW_MS) / 1000)),
    };
  }

  /** Validates the v2 field parameters; the user object with the requested fields, or the 400. */
  function renderUser(request: SandboxRequest, index: number): { data: Record<string, unknown> } | { error: Reply } {
    const { query } = request;
    for (const name of new Set(query.keys())) {
      if (!LOOKUP_PARAMS.includes(name)) return { error: invalidRequest({ [name]: [query.get(name) ?? ''] }, `The query parameter [${name}] is not one of [${LOOKUP_PARAMS.join(',')}]`) };
    }
    const requested = (query.get('user.fields') ?? '').split(',').filter(Boolean);
    const badField = requested.filter((field) => !(USER_FIELDS as readonly string[]).includes(field));
    if (badField.length > 0) {
      return { error: invalidRequest({ 'user.fields': [badField.join(',')] }, `The \`user.fields\` query parameter value [${badField[0]}] is not one of [${USER_FIELDS.join(',')}]`) };
    }
    const badExpansion = (query.get('expansions') ?? '').split(',').filter(Boolean).find((value) => !USER_EXPANSIONS.includes(value));
    if (badExpansion) return { error: invalidRequest({ expansions: [badExpansion] }, `The \`expansions\` query parameter value [${badExpansion}] is not one of [${USER_EXPANSIONS.join(',')}]`) };

    const user = users[index]!;
    const values: Partial<Record<(typeof USER_FIELDS)[number], unknown>> = {
      id: user.id,
      name: user.name,
      username: user.username,
      created_at: user.createdAt,
      description: user.description,
      location: user.location,
      url: user.url,
      profile_image_url: avatarUrl(context, CDN_HOST, index),
      protected: false,
      verified: false,
      verified_type: user.verifiedType,
      public_metrics: {
        followers_count: user.followersCount,
        following_count: user.followingCount,
        tweet_count: user.tweetCount,
        // The same count under its post-era name (OpenAPI v2.167); X's documents name it both ways.
        post_count: user.tweetCount,
        listed_count: user.listedCount,
        like_count: user.likeCount,
        media_count: user.mediaCount,
      },
      entities: { url: { urls: [{ start: 0, end: 23, url: user.url, expanded_url: PERSONAS[index]!.website, display_url: PERSONAS[index]!.website.replace(/^https:\/\//, '') }] } },
      parody: false,
      receives_your_dm: false,
      subscription_type: 'None',
    };
    // id, name and username always; other fields only when asked for and when the account has them.
    const data: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
    for (const field of requested) if (values[field as keyof typeof values] !== undefined) data[field] = values[field as keyof typeof values];
    return { data };
  }

  function me(request: SandboxRequest): Reply {
    const token = bearerToken(request.headers);
    if (token && secretsEqual(token, context.appKeys.twitterBearerToken)) {
      return problemJson(403, {
        title: 'Unsupported Authentication',
        detail: 'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].',
        type: 'https://api.x.com/2/problems/unsupported-authentication',
        status: 403,
      });
    }
    const check = store.checkAccess('twitter', token);
    if (!check.ok) return problem(401, 'Unauthorized');
    const headers = rateHeaders(`me:${check.grant.accountIndex}`, 75);
    if (!check.grant.scopes.includes('tweet.read') || !check.grant.scopes.includes('users.read')) return problem(403, 'Forbidden', 'Forbidden', headers);
    const rendered = renderUser(request, check.grant.accountIndex);
    if ('error' in rendered) return { ...rendered.error, headers: { ...rendered.error.headers, ...headers } };
    billing.usersRead([String(rendered.data.id)]);
    return json(200, { data: rendered.data }, headers);
  }

  function byUsername(request: SandboxRequest): Reply {
    const token = bearerToken(request.headers);
    let rateKey: string;
    if (token && secretsEqual(token, context.appKeys.twitterBearerToken)) {
      rateKey = 'by-username:app';
    } else {
      const check = store.checkAccess('twitter', token);
      if (!check.ok) return problem(401, 'Unauthorized');
      rateKey = `by-username:${check.grant.accountIndex}`;
    }
    const headers = rateHeaders(rateKey, rateKey.endsWith(':app') ? 300 : 900);
    const username = request.params.username ?? '';
    if (!/^[A-Za-z0-9_]{1,15}$/.test(username)) {
      const invalid = invalidRequest({ username: [username] }, `The \`username\` query parameter value [${username}] does not match ^[A-Za-z0-9_]{1,15}$`);
      return { ...invalid, headers: { ...invalid.headers, ...headers } };
    }
    const index = users.findIndex((user) => user.username.toLowerCase() === username.toLowerCase());
    if (index < 0) {
      return json(
        200,
        {
          errors: [
            {
              value: username,
              detail: `Could not find user with username: [${username}].`,
              title: 'Not Found Error',
              resource_type: 'user',
              parameter: 'username',
              resource_id: username,
              type: 'https://api.x.com/2/problems/resource-not-found',
            },
          ],
        },
        headers,
      );
    }
    const rendered = renderUser(request, index);
    if ('error' in rendered) return { ...rendered.error, headers: { ...rendered.error.headers, ...headers } };
    billing.usersRead([String(rendered.data.id)]);
    return json(200, { data: rendered.data }, headers);
  }

  const billing = createXBilling(context.now);
  const metrics = createTwitterMetrics(context, { billing, store, users, rateHeaders, rateWindowMs: RATE_WINDOW_MS });
  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'twitter', hosts: API_HOSTS, method: 'POST', path: '/2/oauth2/token', endpoint: 'token', group: 'token', handle: token },
    { platform: 'twitter', hosts: API_HOSTS, method: 'POST', path: '/2/oauth2/revoke', endpoint: 'revoke', group: 'revoke', handle: revoke },
    { platform: 'twitter', hosts: API_HOSTS, method: 'GET', path: '/2/users/me', endpoint: 'profile', group: 'profile', handle: me },
    { platform: 'twitter', hosts: API_HOSTS, method: 'GET', path: /^\/2\/users\/by\/username\/(?<username>[^/]+)$/, endpoint: 'lookup', group: 'profile', handle: byUsername },
    ...metrics.routes,
    avatarRoute('twitter', CDN_HOST),
  ];

  return {
    platform: 'twitter',
    label: 'X',
    hosts: [...AUTH_HOSTS, ...API_HOSTS, CDN_HOST],
    accounts,
    routes,
    usage: billing.usage,
    failureGroups: ['token', 'profile', 'revoke', 'metrics'],
    failure(group, kind) {
      if (group === 'metrics') return metrics.failure(kind);
      const exhausted = {
        'x-rate-limit-limit': '75',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(Math.ceil((context.now().getTime() + RATE_WINDOW_MS) / 1000)),
      };
      if (kind === 'rate_limited') return problem(429, 'Too Many Requests', 'Too Many Requests', exhausted);
      if (kind === 'invalid_grant') return group === 'profile' ? problem(401, 'Unauthorized') : oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      return group === 'profile' ? problem(503, 'Service Unavailable') : problem(500, 'Internal Server Error');
    },
  };
}
