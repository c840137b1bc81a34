// TikTok Login Kit v2 (www.tiktok.com) and the Display API (open.tiktokapis.com): token, refresh with rotation,
// revoke and user info. docs/platforms/tiktok.md#oauth, §3.2, §3.4.
//
// TikTok specifics modelled: `client_key` instead of client_id, in the body with client_secret (no Basic);
// comma-separated scopes (a space-separated list is one unknown scope); the redirect carries `scopes`; trailing
// slashes on API paths (the authorize page also answers without one); refresh tokens rotate and a spent one
// revokes the family; `fields` is required on user info and each field needs its scope; every API answer has the
// `{data, error:{code,message,log_id}}` envelope, with `code: "ok"` on success.
// PKCE as TikTok runs it (platform-apis-corrections.md rows 7-8): the challenge is the lower-case hex of SHA-256 of
// the verifier (method S256), checked at the token exchange; optional for a web app's https redirect, required
// before consent for a desktop-type app's loopback redirect.
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { bearerToken, json, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomChars, randomToken, secretsEqual, type Grant } from './oauth-core.ts';
import { createTiktokMetrics } from './tiktok-metrics.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const AUTH_HOST = 'www.tiktok.com';
const API_HOST = 'open.tiktokapis.com';
const CDN_HOST = 'p16-sign-va.tiktokcdn.com';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'user.info.basic': 'Read your profile info (avatar, display name)',
  'user.info.profile': 'Read your profile details (username, bio, profile link, verified badge)',
  'user.info.stats': 'Read your profile statistics (followers, following, likes, videos)',
  'video.list': 'Read your public videos',
};

/** The November 2026 docs: access tokens last 2 hours, refresh tokens 180 days (older pages said 24 h / 365 d). */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 2 * 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 180 * 24 * 3600;

/** Which scope each user-info field needs. */
const FIELD_SCOPES = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
} as const;
type UserField = keyof typeof FIELD_SCOPES;

export interface TiktokProfile {
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  bioDescription: string;
  profileDeepLink: string;
  isVerified: boolean;
  followerCount: number;
  followingCount: number;
  likesCount: number;
  videoCount: number;
}

export function tiktokProfile(persona: Persona): TiktokProfile {
  const random = accountRandom('tiktok', persona, 'profile');
  const followerCount = tierCount(random, persona, { large: [200_000, 900_000], medium: [15_000, 80_000], small: [150, 3_000] });
  return {
    openId: random.uuid(),
    unionId: random.uuid(),
    username: persona.handle,
    displayName: persona.name,
    bioDescription: persona.bio,
    profileDeepLink: `https://vm.tiktok.com/ZM${random.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 7)}/`,
    isVerified: persona.tier === 'large',
    followerCount,
    followingCount: random.int(50, 700),
    likesCount: followerCount * random.int(8, 25),
    videoCount: tierCount(random, persona, { large: [300, 900], medium: [100, 300], small: [10, 60] }),
  };
}

/** TikTok's log ids: a UTC timestamp and 20 hex digits. */
function logId(now: Date): string {
  return `${now.toISOString().replace(/\D/g, '').slice(0, 14)}${randomChars('0123456789ABCDEF', 20)}`;
}

export function createTiktok(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.tiktok;
  const profiles = PERSONAS.map(tiktokProfile);
  const accounts: DemoAccount[] = profiles.map((profile) => ({
    name: profile.displayName,
    detail: `@${profile.username}`,
    audience: `${compactCount(profile.followerCount)} followers`,
    id: profile.openId,
    username: profile.username,
    followers: profile.followerCount,
  }));

  const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description, log_id: logId(context.now()) });
  const apiError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => json(status, { data: {}, error: { code, message, log_id: logId(context.now()) } }, headers);
  const metrics = createTiktokMetrics(context, { store, profiles, apiError, logId: () => logId(context.now()) });
  const tokenInvalid = () => apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'tiktok',
      label: 'TikTok',
      signInWith: 'TikTok',
      hosts: [AUTH_HOST],
      paths: ['/v2/auth/authorize/', '/v2/auth/authorize'],
      clientIdParam: 'client_key',
      scopeSeparators: /,/,
      scopes: SCOPE_DESCRIPTIONS,
      // Row 7: web apps (https redirect) may omit PKCE; a localhost/127.0.0.1 redirect (a desktop-type app) is
      // refused before consent without code_challenge. Any non-https redirect is treated as desktop-type here.
      pkce: (redirectUri) => (new URL(redirectUri).protocol === 'https:' ? 'optional' : 'required'),
      // Row 8: TikTok verifies hex(SHA-256(verifier)), not RFC 7636 base64url.
      pkceEncoding: 'hex',
      optionalScope: (scope) => scope !== 'user.info.basic',
      newCode: () => `${randomToken('sbx', 40)}*0!${randomChars('0123456789', 4)}.va`,
      successParams: (code, request, grantedScopes) => [
        ['code', code],
        ['scopes', grantedScopes.join(',')],
        ['state', request.state],
      ],
      denyParams: () => [
        ['error', 'access_denied'],
        ['error_description', 'The user denied the authorization request.'],
      ],
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  /** client_key + client_secret in the body; the error reply, or null when they are right. */
  function authenticateClient(form: URLSearchParams): Reply | null {
    const clientKey = form.get('client_key');
    const clientSecret = form.get('client_secret');
    if (!clientKey) return oauthError(400, 'invalid_request', 'Missing required parameter: client_key.');
    if (clientKey !== registered.clientId) return oauthError(401, 'invalid_client', 'Client key is invalid.');
    if (!clientSecret) return oauthError(400, 'invalid_request', 'Missing required parameter: client_secret.');
    if (!secretsEqual(clientSecret, registered.clientSecret)) return oauthError(401, 'invalid_client', 'Client secret is invalid.');
    return null;
  }

  function tokenAnswer(grant: Grant): Reply {
    const access = store.issueToken(grant, 'access_token', randomToken('act.sbx-', 48), ACCESS_TOKEN_LIFETIME_SECONDS);
    const refresh = store.issueToken(grant, 'refresh_token', randomToken('rft.sbx-', 48), REFRESH_TOKEN_LIFETIME_SECONDS);
    return json(200, {
      access_token: access.token,
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      open_id: profiles[grant.accountIndex]!.openId,
      refresh_expires_in: REFRESH_TOKEN_LIFETIME_SECONDS,
      refresh_token: refresh.token,
      scope: grant.scopes.join(','),
      token_type: 'Bearer',
    });
  }

  async function token(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    const clientError = authenticateClient(form);
    if (clientError) return clientError;
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code');
      if (!code) return oauthError(400, 'invalid_request', 'Missing required parameter: code.');
      const redirectUri = form.get('redirect_uri');
      if (!redirectUri) return oauthError(400, 'invalid_request', 'Missing required parameter: redirect_uri.');
      const redeemed = store.redeemCode('tiktok', code, { clientId: registered.clientId, redirectUri, codeVerifier: form.get('code_verifier'), pkceEncoding: 'hex' });
      if (!redeemed.ok) {
        const description = {
          unknown: 'Authorization code is invalid.',
          wrong_client: 'Authorization code is invalid.',
          reused: 'Authorization code has been used.',
          expired: 'Authorization code is expired.',
          redirect_mismatch: 'redirect_uri does not match the redirect_uri of the authorization request.',
          verifier_missing: 'Missing required parameter: code_verifier.',
          // Row 8: TikTok's observed answer to a challenge that is not hex(SHA-256(verifier)) (status not captured).
          verifier_mismatch: 'Code verifier or code challenge is invalid.',
          verifier_unexpected: 'Code verifier is invalid.',
        }[redeemed.reason];
        const error = redeemed.reason === 'verifier_missing' || redeemed.reason === 'verifier_mismatch' ? 'invalid_request' : 'invalid_grant';
        return oauthError(400, error, description);
      }
      const grant = store.createGrant('tiktok', registered.clientId, redeemed.code.accountIndex, redeemed.code.grantedScopes);
      store.bindCode(redeemed.code, grant);
      return tokenAnswer(grant);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token.');
      // Rotation: the presented refresh token is spent; presenting it again revokes the family.
      const used = store.useRefreshToken('tiktok', refreshToken, registered.clientId, { rotate: true });
      if (!used.ok) return oauthError(400, 'invalid_grant', used.reason === 'expired' ? 'Refresh token is expired.' : 'Refresh token is invalid or has been revoked.');
      return tokenAnswer(used.grant);
    }
    return grantType
      ? oauthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grantType}.`)
      : oauthError(400, 'invalid_request', 'Missing required parameter: grant_type.');
  }

  async function revoke(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    const clientError = authenticateClient(form);
    if (clientError) return clientError;
    const tokenValue = form.get('token');
    if (!tokenValue) return oauthError(400, 'invalid_request', 'Missing required parameter: token.');
    const record = store.find(tokenValue);
    if (!record || record.grant.platform !== 'tiktok' || record.revokedAt || (record.expiresAt && record.expiresAt <= context.now())) {
      return oauthError(400, 'invalid_request', 'The token is invalid, expired or already revoked.');
    }
    // Revoking ends the user's authorization of the app: every token of the grant.
    store.revokeGrant(record.grant, 'revoked');
    return json(200, {});
  }

  function userInfo(request: SandboxRequest): Reply {
    const check = store.checkAccess('tiktok', bearerToken(request.headers));
    if (!check.ok) return tokenInvalid();
    const rawFields = request.query.get('fields');
    if (!rawFields) return apiError(400, 'invalid_params', 'Missing required parameter: fields.');
    const fields = rawFields.split(',').map((field) => field.trim()).filter(Boolean);
    const unknown = fields.filter((field) => !Object.hasOwn(FIELD_SCOPES, field));
    if (unknown.length > 0) return apiError(400, 'invalid_params', `Invalid fields: ${unknown.join(',')}.`);
    const missingScope = fields.find((field) => !check.grant.scopes.includes(FIELD_SCOPES[field as UserField]));
    if (missingScope) return apiError(401, 'scope_not_authorized', `The user did not authorize the scope required for the field ${missingScope}.`);
    const index = check.grant.accountIndex;
    const profile = profiles[index]!;
    const avatar = avatarUrl(context, CDN_HOST, index);
    const values: Record<UserField, unknown> = {
      open_id: profile.openId,
      union_id: profile.unionId,
      avatar_url: `${avatar}?size=168`,
      avatar_url_100: `${avatar}?size=100`,
      avatar_large_url: `${avatar}?size=1080`,
      display_name: profile.displayName,
      bio_description: profile.bioDescription,
      profile_deep_link: profile.profileDeepLink,
      is_verified: profile.isVerified,
      username: profile.username,
      follower_count: profile.followerCount,
      following_count: profile.followingCount,
      likes_count: profile.likesCount,
      video_count: metrics.videoCount(index), // follows /v2/video/list/
    };
    const user = Object.fromEntries(fields.map((field) => [field, values[field as UserField]]));
    return json(200, { data: { user }, error: { code: 'ok', message: '', log_id: logId(context.now()) } });
  }

  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'tiktok', hosts: [API_HOST], method: 'POST', path: '/v2/oauth/token/', endpoint: 'token', group: 'token', handle: token },
    { platform: 'tiktok', hosts: [API_HOST], method: 'POST', path: '/v2/oauth/revoke/', endpoint: 'revoke', group: 'revoke', handle: revoke },
    { platform: 'tiktok', hosts: [API_HOST], method: 'GET', path: '/v2/user/info/', endpoint: 'profile', group: 'profile', handle: userInfo },
    ...metrics.routes,
    avatarRoute('tiktok', CDN_HOST),
  ];

  return {
    platform: 'tiktok',
    label: 'TikTok',
    hosts: [AUTH_HOST, API_HOST, CDN_HOST],
    accounts,
    routes,
    failureGroups: ['token', 'profile', 'revoke', 'metrics'],
    failure(group, kind) {
      if (group === 'metrics') return metrics.failure(kind);
      if (group === 'profile') {
        if (kind === 'invalid_grant') return tokenInvalid();
        if (kind === 'rate_limited') return apiError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
        return apiError(500, 'internal_error', 'Something went wrong. Please try again later.');
      }
      if (kind === 'invalid_grant') return oauthError(400, 'invalid_grant', 'Refresh token is invalid or has been revoked.');
      if (kind === 'rate_limited') return oauthError(429, 'rate_limit_exceeded', 'Too many requests. Please try again later.');
      return oauthError(500, 'server_error', 'Something went wrong. Please try again later.');
    },
  };
}
